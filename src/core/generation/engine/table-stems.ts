/**
 * The stems of a record table's items (table-items.ts; docs/decisions.md, "Tables make items"
 * and "Round 55: a table's stems written as a sentence"): what a row's name and an attribute's
 * header become inside a question. Pure.
 */
import { indefinite } from './repair.js';

/** Adjectives of an attribute that is one of several right ones: "a suitable solvent for", not "the … of". */
const ONE_OF = /^(?:suitable|good|appropriate|recommended|possible|common|typical)\b/i;

/** An attribute's words before its first preposition: its head is the last ("link" of "link with nationalists"). */
const headWords = (attr: string) => attr.split(/\s+(?:of|with|in|for|to|by|on|at|from|against)\s+/i)[0]!.split(/[\s/]+/).filter(Boolean);

/** Whether an attribute names several things ("main effects", "symptoms"): its head a plural noun. */
const pluralAttribute = (attr: string) => /[^su]s$/i.test(headWords(attr).at(-1) ?? attr);

/**
 * The stem asking for a row's value: "Which of the following is the cause of Newcastle disease?", "… are the symptoms of
 * …?", "… is a suitable solvent for nail polish?" (round 51: "correctly gives the role for" read as a machine's).
 * `name` is the row's name as the stem writes it (`stemName`).
 */
export function forwardStem(attr: string, name: string): string {
  if (ONE_OF.test(attr)) return `Which of the following is ${indefinite(attr)} ${attr} for ${name}?`;
  if (/^examples?$/i.test(attr)) return `Which of the following ${/s$/i.test(attr) ? 'are examples' : 'is an example'} of ${name}?`;
  const words = headWords(attr);
  // (an attribute ending in a participle is done by the row's thing: "the damage done by rats", "the crops attacked by …";
  // its number is its head's, the word before any preposition: "the link with nationalists")
  const done = words.length > 1 && /(?:ed|done|made|given|taken|eaten|grown)$/i.test(words.at(-1)!);
  const head = (done ? words.at(-2) : words.at(-1)) ?? attr;
  return `Which of the following ${/[^su]s$/i.test(head) ? 'are' : 'is'} the ${attr} ${done ? 'by' : 'of'} ${name}?`;
}

/** An attribute naming the place a thing is in (`reverseStem`). */
const PLACE = /^(?:state|country|region|continent|town|city|lga|local government area)$/i;

/**
 * The stem asking which row has a value: "Which of the following diseases has “Virus” as its cause?"; of an attribute
 * that names several things, the value is one of them: "Which of the following hormones has “ripening of fruits” among
 * its main effects?" (round 55: "as its main effects" of one effect); of a place, where the thing is: "Which of the
 * following waterfalls is in Plateau State?" (round 57). `kinds` is the rows' kind in the plural.
 */
export function reverseStem(kinds: string, value: string, attr: string): string {
  // (a place is where the thing is: "Which of the following waterfalls is in Plateau State?", not "has “Plateau” as its
  // state"; round 57)
  if (PLACE.test(attr) && /^\p{Lu}/u.test(value) && !/[,;/]/.test(value)) return `Which of the following ${kinds} is in ${value}${/^state$/i.test(attr) && !/\bstate$/i.test(value) ? ' State' : ''}?`;
  return `Which of the following ${kinds} has “${value}” ${pluralAttribute(attr) ? 'among' : 'as'} its ${attr}?`;
}

/**
 * A row's name as a stem writes it: without a bracketed aside ("Pancreas (islets of Langerhans)" → "Pancreas"; round
 * 55) unless the name needs it ("Egg-type (light breeds)"), or null for a name that is two names, a slash with a space
 * beside it ("Testes / Ovaries": the row holds two things, and its value pairs them; "HIV/AIDS" is one name), and for
 * the row of the rest ("Others").
 */
export function rowName(cell: string): string | null {
  const bare = cell.replace(/\s*\([^()]*\)/g, '').trim();
  // (and the rest of the table's things, "Others": round 57; a "+" may join a mixture's parts, "iron filings + sand")
  if (/\p{L}\s+\/\s*\p{L}|\p{L}\s*\/\s+\p{L}/u.test(bare) || OTHERS.test(bare)) return null;
  return /-(?:type|like|shaped|based|bearing|producing|forming)$/i.test(bare) ? cell.trim() : bare || null;
}

/**
 * Whether an attribute's header is written in a note's shorthand, a word cut short with a full stop ("Use in agric.",
 * "Dist. from Lagos"): a stem cannot carry it (round 55: "as its use in agric.?").
 */
export const shortHeader = (h: string) => /\p{L}\.(?=\s|$)/u.test(h);

/** A row of the things a table did not list one by one: "Others", "Other rivers", "Miscellaneous" (`rowName`). */
const OTHERS = /^(?:others?|other\s+\p{L}+|miscellaneous|etc\.?)$/iu;

/**
 * A header of a column of notes, not of one attribute of each row: "Notes", "Remarks", "Comments" (round 57: "Which of
 * the following are the notes of Benue?", whose options were notes true of the Niger too: three wrong keys).
 */
export const NOTES_HEADER = /^(?:notes?|remarks?|comments?|additional\s+(?:notes?|information)|details|other\s+(?:facts|information|points))$/i;

/**
 * A cell as an option: without a note in brackets of four words or more ("Yakubu (the only non-Fulani flag bearer)" →
 * "Yakubu"; round 57: the note marked the key). A shorter bracket names or explains ("(pelvic cavity)") and stays.
 */
export const optionText = (cell: string) => cell.replace(/\s*\((?:[^()\s]+\s+){3,}[^()]*\)/g, '').trim() || cell;

/** A table's kind of row that is a way of doing something: a row's name alone ("Furrow", "Drip") names no thing. */
const WAY_KIND = /^(?:method|technique|system|practice|process)$/i;

/**
 * A row's name as the forward stem writes it when the rows are ways of doing something: with their kind ("the water use
 * of the furrow method", not "of furrow"; round 58), unless the name says it ("Crop rotation system") or is a name
 * proper ("Hausa"), or the attribute asks for its examples; else `name` as it is (`withArticle`'s).
 */
export function wayName(name: string, kind: string, attr = ''): string {
  const k = kind.trim().toLowerCase();
  // (an example is of the thing itself: "an example of biotechnology", not "of the biotechnology method")
  if (!WAY_KIND.test(k) || /^examples?$/i.test(attr) || /^\p{Lu}/u.test(name) || new RegExp(`\\b${k}s?$`, 'i').test(name)) return name;
  return `${/^the\s/i.test(name) ? '' : 'the '}${name} ${k}`;
}
