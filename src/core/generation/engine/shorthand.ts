/**
 * A teacher's shorthand written out before the generator reads the material (issue 39 §2: the
 * judges of rounds 10, 27 and 31 asked for "govt", "thru" and "Int'l" to be written out, and
 * the generator refuses a statement or an option that carries shorthand, so a deck written in it
 * gave few items). Only abbreviations that stand for one word whatever the subject are
 * expanded, as whole words, keeping the case of the first letter ("Govt" → "Government", "GOVT"
 * → "GOVERNMENT"); a full stop after one goes with it inside a sentence ("betw. the two" →
 * "between the two"), and stays where it ends one. Left as written, because they stand for
 * more than one word: "adv." (advantage, adverb), "const." (constitution, constant), "sec"
 * (second, section, secretary), "temp" (temperature, temporary), "conc." (concentration,
 * concentrated), "chem" (chemistry, chemical), "diff." (different, difference), "min", "max",
 * "vol.", "rep", "acc.". docs/decisions.md, "A teacher's shorthand is written out". A slide's capitals of emphasis
 * ("HALF", "ONLY", and with WordNet any common word: "ABSENCE") are lowered too (`lowerEmphasis`).
 */
import type { Passage } from '../passage.js';
import { LEX_POS, type Lexicon } from './lexicon.js';

/** Each abbreviation (lower case, "'" for either apostrophe) and the word it stands for. */
const WORDS = new Map<string, string>([
  ['govt', 'government'],
  ['govts', 'governments'],
  ["gov't", 'government'],
  ["gov'ts", 'governments'],
  ['betw', 'between'],
  ["int'l", 'international'],
  ['intl', 'international'],
  ["nat'l", 'national'],
  ['natl', 'national'],
  ['devt', 'development'],
  ['mgt', 'management'],
  ['mgmt', 'management'],
  ['dept', 'department'],
  ['depts', 'departments'],
  ['qty', 'quantity'],
  ['amt', 'amount'],
  ['yrs', 'years'],
  ['hrs', 'hours'],
  ['mins', 'minutes'],
  ['approx', 'approximately'],
  ['esp', 'especially'],
  ['incl', 'including'],
  ['info', 'information'],
  ['docs', 'documents'],
  ['soln', 'solution'],
  ['solns', 'solutions'],
  ['rxn', 'reaction'],
  ['rxns', 'reactions'],
  ['eqn', 'equation'],
  ['eqns', 'equations'],
  ['compd', 'compound'],
  ['compds', 'compounds'],
  ['props', 'properties'],
  ['prep', 'preparation'],
  ['prodn', 'production'],
  ['mvt', 'movement'],
  ['mvts', 'movements'],
  ['stds', 'students'],
  ['thru', 'through'],
  ['bcos', 'because'],
  ['coz', 'because'],
  ['ppl', 'people'],
]);

/** A word (letters and apostrophes) with no letter, digit or apostrophe before it, and its full stop when a sentence goes on after it. */
const WORD = /(?<![\p{L}\p{N}'’])(\p{L}[\p{L}'’]*)(\.(?=[ \t]+[\p{Ll}\p{N}(]))?/gu;

/** `word` in the case of `as`: all capitals, a capital first, or lower case. */
function inCaseOf(as: string, word: string): string {
  if (as.length > 1 && as === as.toUpperCase()) return word.toUpperCase();
  return /^\p{Lu}/u.test(as) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** `text` with its shorthand written out (module doc); "w/o" becomes "without". */
export function expandShorthand(text: string): string {
  return text
    .replace(WORD, (all, word: string) => {
      const full = WORDS.get(word.toLowerCase().replace(/’/g, "'"));
      return full ? inCaseOf(word, full) : all;
    })
    .replace(/(?<![\p{L}/])([Ww])\/o(?![\p{L}/])/gu, (_, w: string) => (w === 'W' ? 'Without' : 'without'));
}

/** Words a slide sets in capitals for emphasis ("HALF the radioactive nuclei", "do ONLY what rules say"): never an acronym. */
const EMPHASIS = /^(?:NOT|ALL|ONLY|NEVER|ALWAYS|MUST|HALF|BOTH|EACH|EVERY|NONE|MORE|LESS|MOST|LEAST|SAME|ONE|TWO|THREE|FOUR|DOUBLE|TWICE|ANY|CANNOT|CAN['’]T|DOES|DON['’]T|IS|ARE|WAS|WERE|AND|BUT|ALSO|VERY|DIRECTLY|INVERSELY|EQUAL|DIFFERENT|OPPOSITE|BEFORE|AFTER|WITHOUT)$/u;

/** A word in capitals, with no letter, digit, apostrophe or hyphen on either side ("HALF", "CAN'T"; not "HALF-LIVES"). */
const CAPITALS = /(?<![\p{L}\p{N}'’-])\p{Lu}{2,}(?:['’]\p{Lu})?(?![\p{L}\p{N}'’-])/gu;

/**
 * True when the lexicon knows `word` (lower case) as a common word under its own spelling and
 * never as a name: "absence"; not "dna" (a name), "aids" (found under "aid"), nor a word it does
 * not know ("inec").
 */
function isCommonWord(word: string, lexicon: Lexicon): boolean {
  const kinds = LEX_POS.map((pos) => lexicon(word, pos)).filter((k) => k !== null);
  return kinds.length > 0 && kinds.every((k) => !k.proper && (k.lemma ?? word) === word);
}

/**
 * `text` with a slide's capitals of emphasis in lower case, on a line of prose (two or more words in lower case: a
 * heading in capitals keeps them). Round 37's judge asked for "HALF the radioactive nuclei" to be tidied; a statement
 * put to the candidate is in ordinary exam wording, and the generator's own stems still say "NOT". The words are
 * EMPHASIS's and, with a lexicon (WordNet), any common word of four letters or more (`isCommonWord`) on a line mostly in
 * lower case: round 54's "heating coal strongly in ABSENCE of air". An acronym ("INEC", "DNA") is no common word and
 * keeps its capitals.
 */
export function lowerEmphasis(text: string, lexicon?: Lexicon): string {
  return text
    .split('\n')
    .map((line) => {
      if ((line.match(/\b\p{Ll}{2,}\b/gu)?.length ?? 0) < 2) return line;
      const words = line.match(/\p{L}{2,}/gu) ?? [];
      const prose = words.filter((w) => /^\p{Lu}+$/u.test(w)).length * 2 < words.length;
      return line.replace(CAPITALS, (w, at: number) => {
        if (!EMPHASIS.test(w) && !(lexicon && prose && w.length >= 4 && /^\p{Lu}+$/u.test(w) && isCommonWord(w.toLowerCase(), lexicon))) return w;
        // (a sentence's first word keeps its capital: "ALL workers in ONE industry" → "All workers in one industry")
        return /^[\s\-•*#>\d.)(]*$|[.!?:]["”’)]?\s+$/u.test(line.slice(0, at)) ? w.charAt(0) + w.slice(1).toLowerCase() : w.toLowerCase();
      });
    })
    .join('\n');
}

/**
 * The passages with their shorthand written out and their capitals of emphasis lowered (`lexicon`, WordNet, when given,
 * says which capitals are common words); a passage with neither is returned as it is.
 */
export function writtenOut(passages: Passage[], lexicon?: Lexicon): Passage[] {
  return passages.map((p) => {
    const text = lowerEmphasis(expandShorthand(p.text), lexicon);
    return text === p.text ? p : { ...p, text };
  });
}
