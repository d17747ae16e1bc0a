/**
 * What the generator may ask a lexical database (WordNet, read by the caller:
 * src/modules/generation/wordnet.ts `kindOf`) — passed in so that the core reads no files.
 * Used to keep distractors of the key's kind (same lexicographer file, better a shared
 * hypernym: "amylase" → "pepsin", not "villi") and to make believable false statements from
 * antonyms ("increases" → "decreases") instead of absurd swaps (issue 21 §3).
 */
export type LexPos = 'noun' | 'verb' | 'adj' | 'adv';

/** Every part of speech the lexicon knows, in the order callers look a word up. */
export const LEX_POS: readonly LexPos[] = ['noun', 'verb', 'adj', 'adv'];

/** The kind of a word: its senses' lexicographer files, hypernym synsets (two levels) and antonyms. */
export interface LexKind {
  lexFiles: Set<number>;
  hypernyms: Set<number>;
  antonyms: Set<string>;
  /** Number of senses in the database (general words have many). */
  senses: number;
  /** Synset offsets of the senses looked at (the first two), to tell a kind from its sub-kind; absent when the database does not say. */
  synsets?: Set<number>;
  /**
   * Synsets the senses are a part, a substance or a member of, or that are parts, substances or members of them
   * (WordNet's holonym and meronym pointers, wndb(5WN) "#p #s #m %p %s %m"): "oxygen" is a substance of "air".
   * Absent when the database does not say.
   */
  partners?: Set<number>;
  /**
   * The word as the database writes it when it writes it with a capital in every sense: a name
   * ("Sahara", "West Africa", "DNA"), never a common word ("china" is porcelain too). Absent
   * otherwise, or when the database does not say.
   */
  proper?: string;
  /** The entry the word was found under: the word itself, or its base form ("arabs" → "arab"). */
  lemma?: string;
}

/**
 * True when one word's sense is a part, substance or member of the other's, or has it as one
 * (LexKind.partners): "oxygen" and "air". Swapping one for the other leaves a statement about
 * as true as it was (issue 39 §2, round 13: "in the absence of air" keyed False, a wrong key).
 */
export function partOf(a: LexKind, b: LexKind): boolean {
  for (const x of a.partners ?? []) if (b.synsets?.has(x)) return true;
  for (const x of b.partners ?? []) if (a.synsets?.has(x)) return true;
  return false;
}

/** Looks a word up as `pos`; null when unknown (or no database). */
export type Lexicon = (word: string, pos: LexPos) => LexKind | null;

/** The WordNet part of speech of a span class ("N", "V:ed", "A", "R"), or null. */
export function lexPos(cls: string | null): LexPos | null {
  if (!cls) return null;
  if (cls.startsWith('N')) return 'noun';
  if (cls.startsWith('V')) return 'verb';
  if (cls === 'A') return 'adj';
  if (cls === 'R') return 'adv';
  return null;
}

/** The head (last word) of a term, lower case, as WordNet spells it. */
export function headWord(term: string): string {
  return term.toLowerCase().split(/\s+/).pop()!.replace(/[^a-z-]/g, '');
}

/** How close two kinds are: 2 when they share a hypernym, 1 when only a lexicographer file (other than noun.Tops), 0 otherwise. */
export function kinship(a: LexKind, b: LexKind): number {
  for (const h of a.hypernyms) if (b.hypernyms.has(h)) return 2;
  // (noun.Tops, file 3, holds "entity", "abstraction", "communication": sharing it says nothing of kind; round 2 offered
  // "communication", "quantity", "knowledge" for "entity")
  for (const f of a.lexFiles) if (f !== 3 && b.lexFiles.has(f)) return 1;
  return 0;
}
