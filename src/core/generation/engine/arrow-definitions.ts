/**
 * A slide's "Term = description" and "Term → description" lines read as definitions (issue 39 §2,
 * rounds 12–35): which arrows stand for "=", and when the words after them are a description a
 * statement can carry. The statement itself is made by `definitionBullet` (repair.ts). Pure.
 */
import { AMBIGUOUS_PAST, definitionBullet, isNounPhrase, SHORTHAND } from './repair.js';

/**
 * The terms a passage sets in bold before an arrow, as a glossary's entries ("**Premium** → amount paid for the cover";
 * round 35) — when more than half of those arrows lead to a noun phrase. A slide whose bold names lead to what they do or
 * are for ("**Borders** → draw lines round the table", "**Merge & Center** → for headings across columns") lists
 * features, and its "**Wrap Text** → long text in one cell" says what the feature is for, not what it is (round 62: read
 * as "Wrap Text is the long text in one cell" and then turned).
 */
export function boldGlossary(text: string): Set<string> {
  const entries = [...text.matchAll(/^\s*(?:[-*•]\s+)?\*\*([^*\n]{2,40}?)\*\*\s*(?:→|->)\s+([^\n]+)/gmu)];
  const nouns = entries.filter((m) => /^\p{Ll}/u.test(m[2]!) && isNounPhrase(m[2]!.replace(/\s*\([^)]*\)/g, '').split(/\s*(?:→|->|;)\s*/)[0]!)).length;
  return nouns * 2 > entries.length ? new Set(entries.map((m) => m[1]!.trim())) : new Set();
}

/**
 * A slide's "Term = description" line, or "Term → description" where the arrow stands for "=",
 * as a "Term: description" bullet (issue 39 §2: slide decks
 * gave about one item each in rounds 12–17, and "Barter = direct exchange of goods & services
 * for other goods & services without money" is a definition): "&" read as "and", "/" between
 * words as "or", the description cut at an arrow or ";" ("Inflation = persistent rise in general
 * price level → value of money falls"). Null for a formula or a figure ("V = IR", "1 naira = 100
 * kobo"), a second "=", an abbreviation as the term ("SS = sickle cell anaemia"), or a note's
 * abbreviation ("govt", "yrs", "rxn": SHORTHAND); an example after the description ("e.g. TT, Tt")
 * a bracketed aside in shorthand ("(in large qty)") and a bracketed list ("(GH, TSH, ACTH, …)") are
 * dropped; otherwise what
 * `definitionBullet` makes of it.
 */
export function equalsBullet(bullet: string, material: string, glossaryTerms: ReadonlySet<string> = new Set()): string | null {
  // (an arrow stands for "=" when a noun phrase follows it: "Waziri → prime minister / head of all officials"; round 34)
  const m = /^([\p{Lu}][\p{L}'’ -]{1,40}?)\s+(=|→)\s+(\p{Ll}.+?)[.!]?$/u.exec(bullet.trim());
  // (an abbreviation's expansion is no definition: "SS = sickle cell anaemia", "DNA = deoxyribonucleic acid"; round 28)
  if (!m || m[3]!.includes('=') || /^\p{Lu}{1,5}$/u.test(m[1]!.trim())) return null;
  // (two quantities set equal are an equation, no definition: "Mass lost by anode = mass gained by cathode"; round 43's development run)
  if (m[2] === '=' && QUANTITY.test(m[1]!)) return null;
  // An arrow also means "causes", "becomes" or "has" ("Wrong blood → agglutination", "Religion → oath taking, Ofo & oracles
  // …"): it defines only a role, the noun phrase after it naming a person or a body before any preposition ("Waziri → prime
  // minister / head of all officials", "Ogboni → cult of elders"), with no comma (round 34).
  // (the role is the phrase's last word before its preposition: "leaders co-opted by government" says what leaders suffer)
  const head = m[3]!.replace(/\s*\([^)]*\)/g, '').split(/\s(?:of|in|to|for|with|on|at|by|from|who|which|that)\s|\s*(?:→|->|;)\s*/)[0]!.trim().split(/\s+/).pop()!;
  // (a term the slide sets in bold before its arrow is a glossary's entry, whatever its noun names: "**Premium** → amount
  // paid for the cover"; round 35)
  // A second arrow makes a chain, each arrow a step ("Annuity → lump sum paid to insurer → regular income for life"): cut
  // at it, the description says something else (round 35's development run).
  // (a verb with its particle is what the thing does, whatever noun ends the phrase: "Stimulants → speed up the brain &
  // body" is no role of a body; round 36's development run)
  const role = ROLE.test(head) && !PHRASAL_START.test(m[3]!);
  if (m[2] === '→' && (m[3]!.split(/\s*(?:→|->|;)\s*/)[0]!.includes(',') || /→|->/.test(m[3]!) || !(role || glossaryTerms.has(m[1]!.trim())))) return null;
  // (an example after the description is not part of it: "Genotype = genetic make-up, e.g. TT, Tt, tt"; round 28)
  const desc = m[3]!
    .split(/\s*(?:→|->|;)\s*/)[0]!
    .replace(/,?\s*\(?\be\.\s?g\.?[\s,].*$/i, '')
    // (an aside in brackets written in shorthand is dropped, not the line: "act of storing goods (in large qty) in …"; round 29)
    .replace(new RegExp(String.raw`\s*\([^()]*\b(?:${SHORTHAND})\b[^()]*\)`, 'giu'), '')
    // (and a list in brackets, the term's members or examples: "Pituitary = master gland (GH, TSH, ACTH, …)"; round 55)
    .replace(/\s*\((?:[^(),]+,){2,}[^()]*\)/g, '')
    .replace(/\s+&\s+/g, ' and ')
    .replace(/(?<=\p{L})\s*\/\s*(?=\p{L})/gu, ' or ')
    .trim();
  if (new RegExp(String.raw`\d|\b(?:${SHORTHAND})\b|\b\p{L}\.\s`, 'iu').test(desc) || desc.split(/\s+/).length < 3) return null;
  // (a note's clause is no description: "Strike = workers collectively stop work to press demands"; round 31)
  if (!isNounPhrase(desc)) return null;
  if (m[2] === '→' && !role && !namedShortly(desc)) return null;
  // (an arrow from a substance to a process is what the substance does, not what it is: "**Prolactin** → milk production
  // after birth" is no definition of prolactin; a service may still be a process, "**Parcel post** → sending of goods in
  // packages"; round 55's development run)
  if (m[2] === '→' && SUBSTANCE.test(m[1]!.trim()) && PROCESS.test(desc.replace(/\s*\([^)]*\)/g, '').split(/\s(?:of|in|to|for|with|on|at|by|from|after|before|during)\s/)[0]!.trim().split(/\s+/).pop()!)) return null;
  return definitionBullet(`${m[1]!}: ${desc}`, material);
}

/** A name of a substance by its ending: a hormone, an enzyme, a compound ("prolactin", "thyroxine", "amylase", "ethanol"). */
const SUBSTANCE = /^\p{L}+(?:in|ine|one|ase|ol|ide|ate|ite|gen)$/iu;

/** A noun naming a process or an action ("production", "movement", "growth", "ripening"). */
const PROCESS = /^\p{L}+(?:tion|sion|ment|ance|ence|ing|sis)$|^(?:growth|decay|loss|release|control|rise|fall)$/iu;

/** A term that names a quantity: "=" after it is an equation, not a definition (`equalsBullet`). */
const QUANTITY = /^(?:the\s+)?(?:mass|volume|number|amount|rate|value|total|sum|cost|price|quantity|weight|length|area|speed|velocity|force|energy|power|pressure|current|resistance|density|temperature)\b/i;

/** A description that opens with a verb and its particle ("speed up …", "slow down …", "break down …"). */
const PHRASAL_START = /^\p{L}+\s+(?:up|down|out|off|away|over)\b/iu;

/** What ends a glossary's naming words: a preposition or the pronoun of a relative clause. */
const AFTER_NAME = /^(?:of|in|to|for|with|on|at|by|from|who|which|that|whose|where|when|after|before|if|during|against|under|over|using)$/i;

/**
 * True when a glossary's description names its thing in a word or two and then qualifies it: "amount paid for …",
 * "expert who …", "lump sum paid to …" (a participle may follow an adjective and its noun). More words before the
 * qualifier are a clause the tagger took for nouns: "insurer transfers part of a big risk …" (round 35).
 */
function namedShortly(desc: string): boolean {
  const ws = desc.replace(/^(?:the|a|an)\s+/i, '').split(/\s+/);
  for (let i = 0; i < ws.length; i++) {
    if (i > 0 && (/(?:ed|en)$/i.test(ws[i]!) || AMBIGUOUS_PAST.test(ws[i]!))) return i <= 2;
    if (i === ws.length - 1 || AFTER_NAME.test(ws[i + 1]!)) return i <= 1;
  }
  return false;
}

/** Nouns that name a person's or a body's role ("head", "minister", "council"): what an arrow may define (`equalsBullet`). */
const ROLE = /^(?:head|heads|leader|leaders|chief|chiefs|ruler|rulers|king|queen|minister|officer|officers|official|officials|commander|administrator|treasurer|secretary|judge|priest|messenger|messengers|representative|representatives|adviser|advisers|person|people|body|council|cult|assembly|court|group|society|title)$/i;
