/**
 * False statements a candidate could believe (issue 21 §3): an absurd swap ("removed through
 * the mouth") or one that is accidentally true teaches nothing. A statement is made false by
 * one of, in order: a WordNet antonym of a verb, adjective or adverb of it ("increases" →
 * "decreases", "smaller" → "larger"), or a sibling of the key (same hypernym, from the same
 * part of the material: "pepsin" for "amylase"). Without either, no false form is made.
 */
import { tagSentence } from '../text/pos.js';
import type { Lexicon, LexPos } from './lexicon.js';

/** A swap that makes a sentence false: the character range replaced and its replacement. */
export interface Falsehood {
  start: number;
  end: number;
  original: string;
  replacement: string;
}

const NEGATION = /\b(?:not|no|never|neither|nor|without|cannot|n't)\b/i;
/** Antonyms too weak or too odd to make a believable false statement. */
const SKIP = new Set(['be', 'have', 'do', 'make', 'get', 'go', 'come', 'take', 'give', 'use', 'say', 'many', 'much', 'more', 'most', 'other', 'same', 'different', 'such', 'own', 'also', 'very', 'only', 'just']);

/** Inflects the antonym `base` like `word` (verbs: -s, -ed, -ing; adjectives: -er, -est). */
export function inflectLike(word: string, lemma: string, base: string, pos: LexPos): string {
  const w = word.toLowerCase();
  if (w === lemma.toLowerCase()) return base;
  if (pos === 'verb') {
    if (/ing$/.test(w)) return base.replace(/e$/, '') + 'ing';
    if (/ed$/.test(w)) return /e$/.test(base) ? `${base}d` : `${base}ed`;
    if (/s$/.test(w)) return /(?:s|sh|ch|x|z)$/.test(base) ? `${base}es` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ies` : `${base}s`;
  }
  if (pos === 'adj') {
    if (/est$/.test(w)) return /e$/.test(base) ? `${base}st` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}iest` : `${base}est`;
    if (/er$/.test(w)) return /e$/.test(base) ? `${base}r` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ier` : `${base}er`;
  }
  return base;
}

/** Verbs and adjectives of direction or degree whose antonyms make believable false statements. */
const GRADED = new Set([
  'increase', 'decrease', 'rise', 'fall', 'raise', 'lower', 'gain', 'lose', 'expand', 'contract', 'accelerate', 'decelerate', 'strengthen', 'weaken', 'widen', 'narrow', 'lengthen', 'shorten', 'heat', 'cool', 'absorb', 'emit',
  'large', 'small', 'big', 'little', 'high', 'low', 'long', 'short', 'fast', 'slow', 'strong', 'weak', 'heavy', 'light', 'hot', 'cold', 'warm', 'wet', 'dry', 'thick', 'thin', 'deep', 'shallow', 'wide', 'narrow', 'early', 'late',
  'positive', 'negative', 'direct', 'indirect', 'internal', 'external', 'public', 'private', 'national', 'international', 'domestic', 'foreign', 'fixed', 'variable', 'temporary', 'permanent', 'active', 'passive', 'maximum', 'minimum', 'upper', 'lower', 'inner', 'outer', 'general', 'specific', 'simple', 'complex', 'voluntary', 'compulsory', 'formal', 'informal', 'rich', 'poor', 'fertile', 'infertile',
]);
const POS_OF: Record<string, LexPos> = { VERB: 'verb', ADJ: 'adj' };
const NEGATIVE_PREFIX = /^(?:un|non|in|im|il|ir|dis|de|anti|counter)/;

/**
 * An antonym swap for `sentence`, or null: the first verb, adjective or adverb (outside
 * `avoid`, e.g. the key) with a single-word WordNet antonym. Negated sentences are left alone
 * (a swapped word under "not" makes a double negative nobody can judge).
 */
export function antonymSwap(sentence: string, lexicon: Lexicon | undefined, materialText = ''): Falsehood | null {
  if (!lexicon || NEGATION.test(sentence)) return null;
  const inMaterial = (word: string) => new RegExp(`\\b${word.slice(0, Math.max(4, word.length - 2))}`, 'i').test(materialText);
  const tags = tagSentence(sentence);
  for (const [i, w] of tags.entries()) {
    const pos = POS_OF[w.pos];
    // The tagger's class must be the word's use: an adjective modifies a noun or follows a verb ("the public make use" is a
    // noun), a verb does not follow a determiner or adjective ("removes the grass cover" is a noun) — round 2's garbled swaps.
    const prev = tags[i - 1];
    const next = tags[i + 1];
    if (pos === 'adj' && !(/^(?:NOUN|PROPN|ADJ)$/.test(next?.pos ?? '') || /^(?:AUX|VERB|ADV)$/.test(prev?.pos ?? ''))) continue;
    if (pos === 'verb' && /^(?:DET|ADJ|NOUN)$/.test(prev?.pos ?? '') && !/(?:s|ed)$/i.test(w.text)) continue;
    if (!pos || !/^\p{Ll}[\p{Ll}-]{2,}$/u.test(w.text) || SKIP.has(w.lemma.toLowerCase())) continue;
    const kind = lexicon(w.lemma.toLowerCase(), pos);
    // "insured" → "uninsured", "financial" → "nonfinancial": a negative prefix is a give-away, and often not a word in use.
    const lemma = w.lemma.toLowerCase();
    const antonym = [...(kind?.antonyms ?? [])].find((a) => /^[a-z]{3,}$/.test(a) && !SKIP.has(a) && !NEGATIVE_PREFIX.test(a) && !NEGATIVE_PREFIX.test(lemma) && !a.endsWith(lemma) && !lemma.endsWith(a));
    if (!antonym) continue;
    // Believable: a direction or degree everyone knows ("increase"/"decrease", "larger"/"smaller"), or a word the material itself uses.
    if (!GRADED.has(lemma) && !GRADED.has(antonym) && !inMaterial(antonym)) continue;
    const replacement = inflectLike(w.text, w.lemma, antonym, pos);
    if (new RegExp(`\\b${replacement}\\b`, 'i').test(sentence)) continue;
    return { start: w.start, end: w.end, original: w.text, replacement };
  }
  return null;
}
