/**
 * Key ideas for essay grading: what a rubric criterion and the model answer expect,
 * as units of weighted content stems with the words an examiner would recognise, and
 * how much of each unit a response covers. Stems match exactly, by a shared prefix of six
 * letters ("photosynthetic" meets "photosynthesis"), by a candidate's misspelling (one
 * letter off in a word of five or more letters, two in one of eight or more), or — at a
 * lower weight — through WordNet ("pores" meets "stomata", "breeze" meets "wind").
 */
import { isContentWord, splitSentences, stem, words } from '../../generation/text/nlp.js';

/** Rubric vocabulary that says how to mark, not what to know. */
const GENERIC = new Set(
  'clear clearly organisation organization organised organized orderly expression answer answers complete sentence sentences point points mark marks each stated state well relevant accurate accuracy content knowledge understanding explain explanation description describe definition define role mention mentions give gives correct correctly discussion discuss idea ideas language grammar spelling presentation style structure coherence coherent logical quality evidence appropriate writing written response student candidate credit conveys convey within limit word words stay staying question connected made material full fully good relevance'
    .split(' ')
    .map(stem),
);

/** One idea: its stems with weights, and a readable form. */
export interface IdeaUnit {
  text: string;
  stems: Map<string, number>;
  /** Stem → surface word, for feedback. */
  surface: Map<string, string>;
  /** Alternatives: stems of a listed set of examples ("rain, snow or hail"), any one of which meets the idea. */
  groups: Set<string>[];
}

const ITEM = String.raw`(?:[\p{L}-]+ )?[\p{L}-]+`;
/** "a, b and c" / "a, b or c" (three or more items) and "a or b": lists of examples or alternatives. */
const LIST = new RegExp(String.raw`${ITEM}(?:, ${ITEM})+,? (?:or|and) ${ITEM}|${ITEM} or ${ITEM}`, 'gu');

/** Stem groups of the lists in `text`. */
function listGroups(text: string): Set<string>[] {
  const groups: Set<string>[] = [];
  for (const m of text.matchAll(LIST)) {
    const items = m[0].split(/,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+/).map((i) => words(i).filter(isContentWord).map(stem).filter((x) => !GENERIC.has(x)));
    // Each item is represented by its last (head) word: "heavy rainfall" → rainfall.
    const heads = new Set(items.filter((i) => i.length).map((i) => i[i.length - 1]!));
    if (heads.size >= 2) groups.push(heads);
  }
  return groups;
}

/** Builds an idea unit from text; stems in `promptStems` weigh 0.3 (restating the question is not knowledge). */
export function ideaUnit(text: string, promptStems: Set<string>): IdeaUnit {
  const stems = new Map<string, number>();
  const surface = new Map<string, string>();
  for (const w of words(text)) {
    if (!isContentWord(w)) continue;
    const s = stem(w);
    if (GENERIC.has(s)) continue;
    stems.set(s, promptStems.has(s) ? 0.3 : 1);
    if (!surface.has(s)) surface.set(s, w);
  }
  return { text: text.trim(), stems, surface, groups: listGroups(text) };
}

/** Splits a description or model answer into idea texts: sentences, then clauses at ";", ":" and ", so / while / whereas / and". */
export function ideaTexts(text: string): string[] {
  return splitSentences(text)
    .flatMap((s) => s.split(/[;:]|,\s*(?:so|while|whereas|and)\s+/))
    .map((s) => s.trim())
    .filter((s) => s.length > 2);
}

/** The response's stems, ready for matching. */
export interface ResponseStems {
  exact: Set<string>;
  prefixes: Set<string>;
  /** First four letters of stems with a word-forming prefix removed. */
  cores: Set<string>;
  /** Stems of WordNet words related to the response's words, with their closeness (0–1). */
  related: Map<string, number>;
  /** Memo of misspelling matches. */
  fuzzy: Map<string, boolean>;
}

/**
 * Related words of a word with their closeness in (0, 1] (WordNet in the hall:
 * src/modules/generation/wordnet.ts); passed in, so the core reads no files.
 */
export type Lexicon = (word: string) => Map<string, number>;

/** Credit for a stem met only through WordNet, relative to the stem itself. */
const RELATED_CREDIT = 0.8;

const PREFIX = 6;
/** Word-forming prefixes stripped before comparing ("overgrazing" meets "grazing", "deforestation" meets "forest"). */
const AFFIX = /^(?:over|under|de|mis|non|pre|anti|counter|re)(?=[a-z]{4,})/;

/** Indexes a response for matching. */
export function responseStems(text: string, lexicon?: Lexicon): ResponseStems {
  const exact = new Set<string>();
  const prefixes = new Set<string>();
  const cores = new Set<string>();
  const related = new Map<string, number>();
  for (const w of words(text)) {
    if (!isContentWord(w)) continue;
    const s = stem(w);
    exact.add(s);
    if (s.length >= PREFIX) prefixes.add(s.slice(0, PREFIX));
    cores.add(s.replace(AFFIX, '').slice(0, 4));
    if (lexicon) {
      for (const [r, weight] of lexicon(w)) {
        const rs = stem(r);
        if ((related.get(rs) ?? 0) < weight) related.set(rs, weight);
      }
    }
  }
  return { exact, prefixes, cores, related, fuzzy: new Map() };
}

/** True when a and b differ by at most `max` edits (insert, delete, substitute, swap). */
function within(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j]!, prev2[j - 2]! + 1);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]! <= max;
}

/**
 * A hyphenated word misspelt part by part ("Govenor-Generall" for "Governor-General", whose stem
 * is "governor-gener"): as many parts, each the same, within an edit of the other (two from
 * eight letters), or the other's stem with letters after it.
 */
function partsMisspelt(e: string, s: string): boolean {
  const [a, b] = [e.split('-'), s.split('-')];
  return a.length > 1 && a.length === b.length && a.every((x, i) => {
    const y = b[i]!;
    return x === y || (x.length >= 4 && y.length >= 4 && x[0] === y[0] && (within(x, y, y.length >= 8 ? 2 : 1) || x.startsWith(y) || y.startsWith(x)));
  });
}

/** A response stem that is the key stem misspelt ("temprature", "humudity", "stomater"). */
function misspelt(r: ResponseStems, s: string): boolean {
  if (s.length < 5) return false;
  const hit = r.fuzzy.get(s);
  if (hit !== undefined) return hit;
  const max = s.length >= 8 ? 2 : 1;
  let found = false;
  for (const e of r.exact) if (e.length >= 4 && e[0] === s[0] && (within(e, s, max) || partsMisspelt(e, s))) { found = true; break; }
  r.fuzzy.set(s, found);
  return found;
}

/** How well the response meets one stem: 1 for the word (or a misspelling), less through WordNet, else 0. */
export function stemCredit(r: ResponseStems, s: string): number {
  if (hasStem(r, s) || misspelt(r, s)) return 1;
  return (r.related.get(s) ?? 0) * RELATED_CREDIT;
}

/**
 * True when the response contains the stem: exactly, by a six-letter shared prefix, or
 * — for a stem with a word-forming prefix — by the first four letters of its core.
 */
export function hasStem(r: ResponseStems, s: string): boolean {
  if (r.exact.has(s) || (s.length >= PREFIX && r.prefixes.has(s.slice(0, PREFIX)))) return true;
  const core = s.replace(AFFIX, '');
  if (core !== s && r.cores.has(core.slice(0, 4))) return true;
  // A response stem that is most of a longer rubric stem ("rain" in "rainfall").
  for (let i = 4; i < s.length; i++) if (i / s.length >= 0.55 && r.exact.has(s.slice(0, i))) return true;
  return false;
}

/** Multiplies each unit's stem weights by `factor(stem)` (e.g. rarity across the rubric's criteria). */
export function reweight(units: IdeaUnit[], factor: (stem: string) => number): void {
  // (groups keep referring to the same stems; only weights change)
  for (const u of units) for (const [s, w] of u.stems) u.stems.set(s, w * factor(s));
}

/**
 * Weighted share of the unit's stems found in the response, in [0, 1]. With
 * `requireDistinctive`, an idea whose distinctive stems (weight ≥ 60% of its heaviest)
 * are all absent scores 0: background words alone ("price", "demand") earn nothing.
 */
export function coverage(unit: IdeaUnit, r: ResponseStems, requireDistinctive = false): number {
  let total = 0;
  let found = 0;
  let max = 0;
  for (const w of unit.stems.values()) max = Math.max(max, w);
  let distinctiveFound = false;
  const grouped = new Set<string>();
  const tally = (w: number, credit: number) => {
    total += w;
    if (credit > 0) {
      found += w * credit;
      if (w >= 0.6 * max) distinctiveFound = true;
    }
  };
  for (const g of unit.groups) {
    const members = [...g].filter((s) => unit.stems.has(s) && !grouped.has(s));
    if (!members.length) continue;
    members.forEach((s) => grouped.add(s));
    tally(Math.max(...members.map((s) => unit.stems.get(s)!)), Math.max(...members.map((s) => stemCredit(r, s))));
  }
  for (const [s, w] of unit.stems) if (!grouped.has(s)) tally(w, stemCredit(r, s));
  if (requireDistinctive && !distinctiveFound) return 0;
  return total ? found / total : 0;
}

/** Surface words of the unit found and missing in the response (heaviest first, up to `n` each). */
export function foundAndMissing(unit: IdeaUnit, r: ResponseStems, n = 4): { found: string[]; missing: string[] } {
  const found: string[] = [];
  const missing: string[] = [];
  const ordered = [...unit.stems.entries()].sort((a, b) => b[1] - a[1]);
  for (const [s] of ordered) (stemCredit(r, s) > 0 ? found : missing).push(unit.surface.get(s)!);
  return { found: found.slice(0, n), missing: missing.slice(0, n) };
}
