/**
 * Patterns of text that is no statement of the material (sentences.ts, rejectReason): a question
 * paper's apparatus, headings run into a sentence, note lines, a class activity, a procedure's
 * step. docs/decisions.md records the round that added each.
 */
import { isStopWord } from '../text/nlp.js';
import { tagSentence } from '../text/pos.js';

/** A question paper's own wording: lead-ins, sections, instructions, marks, the case scenario's figures (ICAN papers). */
export const PAPER_TALK = /\b\d{1,3}(?:,\d{3})+\b|\b[Tt]he (?:company|entity|firm|business) (?:has|had|incurred|purchased|paid|received|sold|bought|made|uses|used|maintains|operates|adopted|adopts)\b|\(\d*[a-e]\)|\b\d[a-e]\b|\bper annum\b|\bfor the (?:year|month|period) ended\b|\b(?:opening|closing) (?:inventory|balance)\b|\b\p{Lu}\p{Ll}+ (?:Enterprises|Ventures|Stores|Industries|Holdings|Company)\b|\b(?:required|examination|examiners?|candidates?|syllabus|marks?|marking (?:guide|scheme)|booklet|pencil|diet|section\s+[a-e]|part\s+[a-e]|attempt|compulsory|suggested)\b|[₦$£€]\s?\d|\bN\d[\d,]*\b|\b(?:Ltd|Limited|Plc|PLC|Nig\.?)\b|\b(?:Mr|Mrs|Miss|Dr|Alhaji|Chief)\.?\s+\p{Lu}/u;
/** Two or more words in capitals (a heading or a paper's instruction run into the sentence). */
export const SHOUTING = /\b\p{Lu}{3,}\s+(?:\p{Lu}{1,}\s+)*\p{Lu}{3,}\b/u;
/** A capitalised opener in mid-sentence after a lower-case word: a heading glued to its sentence (PDF text). */
export const GLUED = /[\p{Ll}\d,]\s+(?:The|This|These|It|Its|They|An?)\s/u;
/** An examination's own words: a question, marks, "which of the following", page references, the examiner. */
export const EXAM_NOISE = /^(?:Q|Qs|Qn|Ans)\s*\d{0,2}\s*[:.)]\s|\?|\(\s*\d+\s*marks?\s*\)|\bmarks?\)|\(total\b|which of the following|\bquestion\s+\d|\bsee page\b|\bpage \d+ of\b|examiner|candidates?\s+(?:were|are|should)|suggested solution|marking guide/i;
/**
 * A note line: a short term, a spaced dash and notes about it ("Stationary pyramid – almost equal
 * width up to the older ages; high birth and death rates."; issue 39 §2, round 14): no sentence,
 * and its dash stands for a verb nobody wrote. A pair of dashes around an aside is no note line.
 */
export const NOTE_LINE = /^[^–—.;:]{2,50}?\s[–—]\s+\p{Ll}(?!.*\s[–—]\s)/u;
/**
 * A sentence that opens with "E.g." or "i.e.": an example or a restatement of the sentence before
 * (round 27: "E.g. the engine of a grinding machine … wears out with daily use" as a true/false
 * statement). It stays in the index, where an essay may ask for an example from it
 * (essay-items.ts), but it states nothing on its own.
 */
export const EXAMPLE_SENTENCE = /^(?:e\.\s?g\.|i\.\s?e\.)/i;

/**
 * A number said in words, as a lesson's captions give them ("zero six five is less than one
 * eighty": issue 39 §2, round 53): counted with the digits when a sentence is judged mostly numbers.
 */
export const NUMBER_WORD = /^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|point)$/i;

/**
 * A sentence of a class activity the teacher runs (issue 39 §2, round 56: a slide's notes, "Let students face each other
 * in pairs. One covers both eyes with the palms … The partner watches the pupil get smaller.", gave two statements, one
 * of them keyed as no candidate could): its subject is one of the pupils doing it, "One" with its verb or "the
 * partner". Neither true nor false of the subject.
 */
export const ACTIVITY = /^One\s+\p{Ll}+s\s+(?:the|a|an|his|her|their|both|each|it|them)\b|^(?:the|his|her|your|their|each)\s+(?:partner|neighbour|volunteer|other\s+(?:student|pupil)|pair|group)s?\s+\p{Ll}/iu;

/**
 * A procedure's step (issue 39 §2, round 6: "Heat the rod at one end …" given as a statement): a base-form verb opening
 * the sentence with its object after it ("Place the beaker …", "Add two drops …", "Heat it …"), neither true nor false.
 */
export function isProcedureStep(text: string): boolean {
  const tags = tagSentence(text.charAt(0).toLowerCase() + text.slice(1));
  const [a, b, c] = tags;
  if (!a || !b || !/^(?:NOUN|VERB)$/.test(a.pos) || !/^\p{L}+$/u.test(a.text) || /(?:s|ed|ing|ly)$/i.test(a.text)) return false;
  // (or, after a verb, a bracket: "Add (half the coefficient of x)² to both sides"; round 42; "Limestone (calcium …" is no step;
  // or an adjective and its noun with no verb after them, "Add dilute HCl to …", not "Dilute acid reacts …"; round 56)
  const adjective = /^(?:ADJ|VERB)$/.test(b.pos) && /^(?:NOUN|PROPN)$/.test(c?.pos ?? '') && !tags.slice(3).some((t) => t.pos === 'AUX' || (t.pos === 'VERB' && !/(?:ing|ed|en)$/i.test(t.text)));
  return /^(?:the|a|an|some|each|every|your|its|their|this|these|both|all|it|them)$/i.test(b.text) || b.pos === 'NUM' || (a.pos === 'VERB' && (b.text === '(' || adjective));
}

/**
 * A teacher's direction run on after the fact ("The negative sign shows the direction (Lenz's law); ignore it when
 * calculating magnitude."): the candidate would be told to do something, as if it were a fact (issue 39 §2, round 58).
 */
export const TRAILING_DIRECTION = /;\s*(?:ignore|note|remember|do\s+not|don['’]t|never|always|write|copy|see|use|take|check|learn)\b/i;

/**
 * A thing the sentence names only by a word for any thing of its kind, so it means one named in a sentence or a
 * formula before it (issue 39 §2, round 58: "The book is called on the origin of species" after "he published a book",
 * "Lamarck said the animal stretched …", "The positive sign shows the direction" of a formula not in the statement):
 * the subject of the sentence, or of what someone said, thought or stated, with its verb straight after it ("the book
 * value of …" is another thing, and "the animal kingdom" or "the sign of a number" says which).
 */
export const GENERIC_REFERENT = /(?:^|\b(?:said|says|stated|states|believed|thought|argued|suggested|claimed)\s+(?:that\s+)?)the\s+(?:animal|organism|creature|thing|object|person|man|woman|boy|girl|book|item|(?:negative|positive|minus|plus)\s+sign|sign|symbol|formula|equation)\s+(?:is|was|are|were|has|had|have|can|could|will|would|may|must|should|\p{Ll}+(?:ed|[^s]s))\b/iu;

/** Words a figure's noun is followed by that are no letters of the figure ("lines are", "point only", "the line cuts"). */
const NOT_LABEL = /^(?:a|i|arc|add|adds|sum|half|same|side|cut|cuts|meet|meets|lie|lies|join|joins|end|ends|run|runs|go|goes|bent|form|mark|like|near|away|back|down|even|ever|well|less|also|both|each|made|must|upon|will|can|may|one|two)$/i;
const FIGURE_NOUN = /\b(?:angles?|triangles?|lines?|chords?|arcs?|sides?|points?|quadrilaterals?|segments?|sectors?|radius|radii|diameters?|tangents?|vertex|vertices|rectangles?|squares?|parallelograms?|trapeziums?)\s+(\p{L}{1,4})(?![\p{L}'’-])/giu;

/**
 * Whether `text` names a point, line or angle by the letters of a figure the candidate cannot see: "Angle aob is the
 * angle at the centre", "Angle ACB is forty two degrees", "triangle aoc", "chords ac and bd" (issue 39 §2, round 59: a
 * lecture's worked examples on a diagram on the board). One to four letters after such a word, all capitals or all small
 * letters (a caption's), that are no function word or common word after it ("lines are", "a point only").
 */
export function namesFigurePoints(text: string): boolean {
  for (const m of text.matchAll(FIGURE_NOUN)) {
    const label = m[1]!;
    if (/^\p{Lu}+$/u.test(label) && label !== 'I') return true;
    if (/^\p{Ll}+$/u.test(label) && !isStopWord(label) && !NOT_LABEL.test(label)) return true;
  }
  return false;
}

/** "That" pointing back, after a preposition: "The angle at that vertex is ninety degrees" (which vertex? round 59). */
export const THAT_ONE = /\b(?:at|of|on|in|to|from|by|with|for|into|onto|through)\s+that\s+(?!(?:is|was|are|were|means|can|will|has|have)\b)\p{L}/iu;

/**
 * A slide's bullet closed with a full stop (sentences.ts `passageSentences`) when it is written as a sentence of prose:
 * six words or more, no mark of its own at its end, no note's shorthand ("&", "/", ":", ";", "=", arrows, "e.g.", "etc."),
 * and either an article or a quantifier first and then a verb that is surely finite (an auxiliary, or a verb in small
 * letters in no participle's form straight after a noun or a pronoun), or a noun phrase of at most four words first and
 * an auxiliary straight after it ("Nigeria is a source, transit and destination country"). A note's sentence without
 * its articles ("Catalyst raises Ea", "Water falls to root zone by capillarity") or its subject ("Usually written to
 * damage data …") is not closed (round 60, whose deck of whole sentences without full stops gave one item).
 */
export function closedBullet(line: string, slide: boolean): string {
  if (!slide || line.split(/\s+/).length < 6 || !/[\p{L}\p{N})”’"]$/u.test(line) || /[&/:;=→]|\b(?:e\.\s?g|i\.\s?e|etc)\b/i.test(line)) return line;
  const tags = tagSentence(line.replace(/\s*\([^()]*\)/g, ''));
  const subject = (i: number) => /^(?:NOUN|PROPN|PRON)$/.test(tags[i]?.pos ?? '') || (tags[i]?.pos === 'ADV' && /^(?:NOUN|PROPN|PRON)$/.test(tags[i - 1]?.pos ?? ''));
  const finite = tags.some((t, i) => i > 0 && (t.pos === 'AUX' || (t.pos === 'VERB' && /^\p{Ll}/u.test(t.text) && !/(?:ed|en|wn|ing)$/i.test(t.text) && subject(i - 1))));
  const determined = tags[0]?.pos === 'DET' && /^(?:a|an|the|some|many|most|all|each|every|no)$/i.test(tags[0].text);
  const head = tags.findIndex((t) => !/^(?:NOUN|PROPN|ADJ|NUM)$/.test(t.pos));
  return (determined ? finite : head >= 1 && head <= 4 && tags[head]!.pos === 'AUX') ? `${line}.` : line;
}
