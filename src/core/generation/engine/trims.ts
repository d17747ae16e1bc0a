/**
 * What a statement drops before it is asked (issue 39 §2): words that lean on the sentence
 * before it, which the candidate does not see, and an example the teacher added in brackets,
 * which only lengthens the statement and may hold a second claim. Each leaves the statement as
 * true as it was. docs/decisions.md, "Before round 26: a "therefore" … that point at the sentence
 * before" and "An example in brackets is no part of a statement".
 */

/**
 * "The skin also removes …" → "The skin removes …", "Temperature therefore decreases …" →
 * "Temperature decreases …": an "also", "therefore", "thus" or "hence" inside the sentence
 * points at the sentence before, which the candidate does not see (issue 39 §2, rounds 12 and
 * 25). Dropping it leaves the statement as true as it was. "Not only … but also …" keeps its
 * "also"; a connective after a comma ("…, therefore it …") joins two clauses and stays.
 */
export function withoutBackLink(text: string): string {
  const unlinked = text.replace(/(?<=\p{L})\s+(?:therefore|thus|hence)(?=\s+\p{L})/iu, '');
  return /\bnot\s+only\b/i.test(unlinked) ? unlinked : unlinked.replace(/(?<=\S)\s+also(?=\s+\p{L})/iu, '');
}

/**
 * A bracketed aside that opens with "e.g.", "eg", "for example", "for instance" or "such as", or
 * says what stands for the thing in the lesson's own case ("a material medium (here, air)";
 * round 44).
 */
const EXAMPLE_ASIDE = /\s*\((?:e\.\s?g\.?|eg\b\.?|for example|for instance|such as|here|in this case|in this experiment)[\s,:][^()]*\)/giu;

/**
 * A list of examples after a comma that ends the sentence ("Cell is the basic unit of life, e.g.
 * nerve cell, red blood cell, guard cell." → "Cell is the basic unit of life."; issue 39 §2, round
 * 53: the judge asked for the list to go). "Such as" is grammar, not an aside, and stays.
 */
const EXAMPLE_TAIL = /,\s*(?:e\.\s?g\.?|eg\.|for example|for instance)[\s,:]([^.;()]*)(?=\.$)/iu;

/**
 * A bracketed direction to the teacher or the class, not part of what the sentence says: "(to be
 * demonstrated on the board)", "(see diagram)", "(draw the graph)", "(teacher to explain)"
 * (issue 39 §2, round 54: the judge asked for the stage note to go). A bracket that names or
 * explains stays, "(class boundaries)" among them.
 */
const DIRECTION_ASIDE = /\s*\((?:(?:see|refer to|draw|sketch|demonstrate|show|discuss|illustrate|ask|explain)\b|(?:teacher|students?|pupils?|class)\s+(?:to|should|will|must)\b|to be (?:demonstrated|shown|drawn|sketched|discussed|explained|illustrated|done|treated|revised)\b|[^()]*\bon the (?:chalk|white|black)?board\b)[^()]*\)/giu;

/**
 * "Some viruses (e.g. HIV) can cross the placenta." → "Some viruses can cross the placenta.": an
 * example in brackets is dropped (rounds 30 and 32: the judge asked for the bracketed example, "(e.g.
 * adire and tie-dye works in Abeokuta)", to go), and so is the lesson's own case ("(here, air)").
 * A direction to the teacher or the class in brackets goes too (DIRECTION_ASIDE). A bracket that
 * names or explains ("(ADH)", "(womb)", "(CaSO₄)") stays.
 */
export function withoutExampleAside(text: string): string {
  // (a tail only of short names, "nerve cell, red blood cell": "Legumes, for example beans, fix nitrogen …" has its verb after it)
  return text.replace(EXAMPLE_ASIDE, '').replace(DIRECTION_ASIDE, '').replace(EXAMPLE_TAIL, (tail, list: string) => (list.split(/,|\band\b|\bor\b/).every((name) => name.trim().split(/\s+/).length <= 4) ? '' : tail));
}
