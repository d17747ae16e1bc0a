/**
 * The names of a list's items, read from slides and notes (heading-lists.ts): a short noun phrase
 * before the arrow, dash or colon ("Wear and tear" of "**Wear and tear** – physical …"), what the
 * material says of it after the name, and the lines that are no items (a bold adjective over a
 * group, a label of examples). Pure: no I/O.
 */
import { tagSentence } from '../text/pos.js';
import { SHORTHAND } from './repair.js';

/**
 * A name with a slide's emphasis in capitals lowered ("Powerful OXIDISING agent"): a word in capitals of seven letters or
 * more, or one the material also writes in lower case; a shorter one it never does is an acronym ("NAFDAC") and stays.
 * (shorthand.ts `lowerEmphasis` lowers only its list of words of emphasis, "ONLY", "HALF"; these are a subject's own words.)
 */
export const emphasisLowered = (name: string, material: string) =>
  /\p{Ll}/u.test(name) ? name.replace(/\b\p{Lu}{4,}\b/gu, (w) => (w.length >= 7 || new RegExp(`\\b${w.toLowerCase()}\\b`).test(material) ? w.toLowerCase() : w)) : name;

/** A line that labels the examples after it: "Nigerian examples: …", "- Examples:", "e.g.". */
export const EXAMPLES_LABEL = /^\s*(?:[-•*]\s+)?(?:\*\*)?(?:\p{L}+\s+)?(?:examples?|e\.\s?g\.?)(?:\*\*)?\s*:/iu;
/** A bold line of its own that is one adjective ("**Physical**", "**Chemical**"): a group of the items, none of them. */
export const groupLabel = (piece: string) => {
  const m = /^\s*\*\*(\p{L}+)\*\*:?\s*$/u.exec(piece);
  return !!m && tagSentence(`${m[1]!.toLowerCase()} ones`)[0]?.pos === 'ADJ';
};

/** Slide and note shorthand that no option may carry (repair.ts's list, and a few more that only names use). */
const SHORTHAND_WORD = new RegExp(String.raw`\b(?:${SHORTHAND}|dev|prodn|intl|org|tech|mgmt|diff)\b`, 'i');

/** Irregular participles that follow their noun ("goods held in bond", "payments made"). */
const PARTICIPLE = /^(?:made|held|kept|paid|sold|built|sent|bought|brought|set|put|cut|laid|left|found|won|lost|taught)$/i;

/**
 * True when `t` reads as a clause, not a name: an auxiliary or a pronoun, or a verb opening it
 * with its complement — a present "-s" form ("Creates time utility"), a participle before a
 * preposition ("Located near transport") or a determiner ("Provides the …"). A participle before
 * a noun ("Bonded warehouses") and a word that is also a noun ("Transfer of ownership", "Wear
 * and tear") are names.
 */
function isClause(t: string): boolean {
  const tags = tagSentence(t.toLowerCase());
  if (tags.some((x) => x.pos === 'AUX' || x.pos === 'PRON')) return true;
  const [first, next] = tags;
  // a noun followed by a verb that is no participle makes a clause ("Big firms dominate"; not "coincidence of wants")
  if (tags.some((x, i) => i > 0 && x.pos === 'VERB' && !/(?:ing|ed|en)$/i.test(x.text) && !PARTICIPLE.test(x.text) && /^(?:NOUN|PROPN)$/.test(tags[i - 1]!.pos))) return true;
  // (a word the tagger took for an adjective between a noun and "the" is the verb: "Heavy machines compact the soil"; round 45)
  if (tags.some((x, i) => i >= 2 && x.pos === 'DET' && tags[i - 1]!.pos === 'ADJ' && /^(?:NOUN|PROPN)$/.test(tags[i - 2]!.pos))) return true;
  // (said after a subject, a verb with its object shows itself: "They controls money supply", "They grant loans")
  const framed = tagSentence(`They ${t.toLowerCase()}.`);
  if (framed[1]?.pos === 'VERB' && framed[2] && !/(?:ed|ing)$/i.test(framed[1].text) && (/[^s]s$/i.test(framed[1].text) || /^(?:DET|ADJ)$/.test(framed[2].pos) || (framed[2].pos === 'NOUN' && /[^s]s$/i.test(framed[2].text)))) return true;
  // a past form that is never a name's adjective ("Brought uniformity to …"), a participle before "to" ("Used to fight inflation")
  if (/^(?:brought|made|gave|took|became|began|led|won|got|saw)$/i.test(first?.text ?? '') || (/ed$/i.test(first?.text ?? '') && /^to$/i.test(next?.text ?? ''))) return true;
  if (first?.pos !== 'VERB' || !next) return false;
  return /[^s]s$/i.test(first.text) || (/ed$/i.test(first.text) && /^(?:ADP|ADV|DET)$/.test(next.pos)) || next.pos === 'DET';
}

/** The name an item gives its point ("Wear and tear" of "**Wear and tear** – physical …"), or null when it is no short noun phrase. */
export function itemName(piece: string): string | null {
  let t = piece.replace(/^\s*(?:[-•*]\s+)?(?:\(?\d{1,2}[.)]\s+|\(?[a-h]\)\s+)?/, '');
  const bold = /^\*\*(.+?)\*\*/.exec(t);
  // (an aside in brackets is no part of the name: "Depletion (production unit) method")
  t = (bold ? bold[1]! : t).replace(/\s*\([^)]*\)/g, '');
  t = bold ? t : t.split(/\s+(?:→|–|—|-|=)\s+|:|\(|;|\.(?:\s|$)/)[0]!;
  t = t.replace(/^\s*\(?\d{1,2}[.)]\s+/, '').replace(/[.:,;]+$/, '').replace(/\s*&\s*/g, ' and ').trim();
  const words = t.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > 5 || !/^\p{L}/u.test(t) || t.replace(/[^\p{L}]/gu, '').length < 3 || /[\d/?!"“”→←↑↓+]/u.test(t) || SHORTHAND_WORD.test(t)) return null;
  // (a remark, a quantity or a comparison, not a name: "e.g. …", "One positive effect", "General crossing vs special crossing")
  // (and a purpose, not a name: "For economic planning"; no mark of emphasis inside a name)
  if (/^(?:e\.?g|i\.?e|nb|note|others?|to|for|it|they|one|two|three|four|some|many|most|any|no|all)\b/i.test(t) || t.includes('*') || /\b(?:vs|versus)\b/i.test(t)) return null;
  // (a label is no item: "Result → poor service delivery" sums the list up, "Structure" heads a note, "**Interesting fact:** …" an
  // aside, "Tools: MPR, CRR, OMO" the examples after it)
  if (/^(?:results?|summary|conclusion|(?:\p{L}+\s+)?examples?|exceptions?|remember|tip|meaning|definition|structure|note|(?:interesting\s+)?facts?|did\s+you\s+know|tools|instruments|types|kinds)$/iu.test(t)) return null;
  if (isClause(t)) return null;
  // a name in capitals ("WEAR AND TEAR") is written in sentence case; otherwise as the material writes it
  // (a slide's emphasis in capitals, "Over-dependence on ONE export", is lowered; an acronym, "CBN", stays)
  const cased = /\p{Ll}/u.test(t) ? t.replace(/\b(?:ONE|TWO|THREE|NOT|ALL|ONLY|MORE|LESS|NO|AND|OR|OF|THE|IN|ON|AT|TO|FOR|WITH|BY|VERY|MOST)\b/g, (w) => w.toLowerCase()) : /^\p{Lu}{2,6}$/u.test(t) ? t : t.toLowerCase();
  return cased.charAt(0).toUpperCase() + cased.slice(1);
}

/**
 * What an item says of its name after a dash, a colon or an arrow ("Illiteracy – many producers cannot give correct
 * information about their output." → "many producers cannot give correct information about their output"; "&" as "and"),
 * or null: examples ("– e.g. …", a run of them: "fire, theft, spoilage", "from the sun, bulbs, lanterns"), a reference
 * back ("– it …"), a qualifier or a purpose ("– especially when …", "– for storing …"), notes run together with ";",
 * shorthand ("diff. groups"), a figure or a formula, fewer than five words or more than 30 (round 37's development run).
 */
export function itemDescription(piece: string): string | null {
  const m = /^\s*(?:[-•*]\s+)?(?:\(?\d{1,2}[.)]\s+|\(?[a-h]\)\s+)?(?:\*\*[^*]+\*\*\s*:?|[^–—:→=]+?)\s*(?:[-–—:→=]|->)\s+(.+)$/u.exec(piece);
  const d = m?.[1]?.replace(/\*\*/g, '').replace(/\s*\([^)]*\)/g, '').replace(/\s+&\s+/g, ' and ').trim().replace(/[.;,]+$/, '');
  if (!d || /[\d|→←=+×÷/;"“”&]/u.test(d) || d.split(',').filter((part) => part.trim().split(/\s+/).length <= 2).length >= 2 || SHORTHAND_WORD.test(d) || /\b\p{L}{1,6}\.\s/u.test(d)) return null;
  const lead = /^(?:e\.?g|i\.?e|etc|such\s+as|like|see|as|it|its|they|them|their|this|these|those|he|she|also|and|but|or|the\s+same|especially|mainly|mostly|usually|often|even|only|when|if|because|since|for|from|by|with|in|on|at|to)\b/i;
  if (lead.test(d)) return null;
  const n = d.split(/\s+/).length;
  return n >= 5 && n <= 30 ? d : null;
}
