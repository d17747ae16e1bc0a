/**
 * Small English text toolkit for the generation and grading engines: sentence splitting
 * (sbd), word tokens, stop words (stopword's English list plus a few function words it
 * lacks) and Porter stems (stemmer). Pure functions; no state.
 */
import sbd from 'sbd';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

/** Function words missing from stopword's short English list (108 words). */
const EXTRA_STOP = [
  'not', 'no', 'nor', 'its', 'may', 'will', 'shall', 'upon', 'within', 'without', 'per', 'whether',
  'therefore', 'however', 'thus', 'hence', 'eg', 'ie', 'etc', 'via', 'us', 'yes', 'one', 'two', 'also',
  'every', 'either', 'neither', 'among', 'against', 'during', 'above', 'below', 'off', 'onto', 'toward',
  'towards', 'until', 'unless', 'whose', 'whom', 'why', 'yet', 'themselves', 'itself', 'does', 'done',
  'doing', 'having', 'is', 'being', 'what', 'which', 'often', 'usually', 'just', 'ours', 'yours', 'mine',
  'following', 'respectively', 'namely', 'various', 'certain', 'example',
];
const STOP = new Set([...eng, ...EXTRA_STOP]);

/** True when `word` (any case) is an English stop word. */
export function isStopWord(word: string): boolean {
  return STOP.has(word.toLowerCase());
}

/** Collapses whitespace (including PDF line breaks and non-breaking spaces) to single spaces. */
export function squash(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** A teacher's abbreviations with a full stop that sbd does not know ("conc. HNO3", "dil. H2SO4", "approx. 15%", "people of diff. ethnic groups": round 50's slides, seen in the development packets after round 60). */
const SHORT_STOP = /\b(?:conc|dil|approx|soln|aq|ppt|eqn|rxn|temp|vol|wt|esp|incl|diff|govt|dept)\.$/i;

/**
 * Splits prose into sentences (sbd, abbreviation aware). Returns trimmed, non-empty sentences. A piece that ends with
 * one of SHORT_STOP's abbreviations goes on into the next unless that begins a sentence with a capitalised word (round
 * 47: "made PASSIVE by conc. HNO3" was cut after "conc.").
 */
export function splitSentences(text: string): string[] {
  const clean = squash(text);
  if (!clean) return [];
  const out: string[] = [];
  for (const s of sbd.sentences(clean, { newline_boundaries: false, sanitize: false }).map((x) => x.trim()).filter(Boolean)) {
    if (out.length && SHORT_STOP.test(out[out.length - 1]!) && !/^\p{Lu}\p{Ll}/u.test(s)) out[out.length - 1] += ` ${s}`;
    else out.push(s);
  }
  return out;
}

/** A word token with its character offset in the source string. */
export interface Token {
  text: string;
  start: number;
  end: number;
}

/** Word tokens: letters/digits with inner apostrophes, hyphens, commas and points in numbers. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const re = /[\p{L}\p{N}]+(?:[’'\-.,/][\p{L}\p{N}]+)*%?/gu;
  for (const m of text.matchAll(re)) out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/** Lower-case words of `text`. */
export function words(text: string): string[] {
  return tokenize(text).map((t) => t.text.toLowerCase());
}

/** Number of words in `text` (the essay word count rule: whitespace-separated runs with a letter or digit). */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

const stemCache = new Map<string, string>();

/** Porter stem of one word (lower-cased; possessives dropped first). Memoised: stemming dominates the engines' time. */
export function stem(word: string): string {
  const hit = stemCache.get(word);
  if (hit !== undefined) return hit;
  const out = stemmer(word.toLowerCase().replace(/[’']s$/, '').replace(/[’']/g, ''));
  if (stemCache.size > 100_000) stemCache.clear();
  stemCache.set(word, out);
  return out;
}

/** True for a word that carries content: not a stop word, has a letter, longer than two characters. */
export function isContentWord(word: string): boolean {
  return word.length > 2 && /\p{L}/u.test(word) && !isStopWord(word);
}

/** Stems of the content words of `text`, in order (duplicates kept). */
export function contentStems(text: string): string[] {
  return words(text).filter(isContentWord).map(stem);
}

/** Distinct content stems of `text`. */
export function stemSet(text: string): Set<string> {
  return new Set(contentStems(text));
}

/**
 * Text normalised for "is this phrase in that passage" checks: lower case, curly quotes
 * straightened, dashes unified, punctuation other than inner number marks dropped,
 * whitespace squashed.
 */
export function normaliseForMatch(text: string): string {
  return squash(
    text
      .toLowerCase()
      .replace(/[‘’‛`]/g, "'")
      .replace(/[“”„]/g, '"')
      .replace(/[‐‑‒–—]/g, '-')
      .replace(/\\([\\`*_$[\]<>#|])/g, '$1')
      .replace(/[^\p{L}\p{N}%.,'\-]+/gu, ' ')
      .replace(/([.,'\-])(?![\p{L}\p{N}])/gu, ' ')
      .replace(/(?<![\p{L}\p{N}])([.,'\-])/gu, ' '),
  );
}

/** True when `phrase` occurs in `passage` as whole words after normalisation. */
export function containsPhrase(passage: string, phrase: string): boolean {
  const p = normaliseForMatch(phrase);
  if (!p) return false;
  return ` ${normaliseForMatch(passage)} `.includes(` ${p} `);
}
