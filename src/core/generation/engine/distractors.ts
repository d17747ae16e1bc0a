/**
 * Distractors of the same kind drawn from the same material (issue 7): numbers near
 * numbers (same format, nearest magnitude), names near names (same shape), terms near
 * terms (same length and morphology, preferring terms that recur and that appear close
 * to the key). Candidates that could make the statement true again — sharing a stem with
 * the key or already in the sentence — are excluded. Ties break by a seeded hash.
 */
import { normaliseForMatch, stemSet } from '../text/nlp.js';
import { tieBreak } from '../text/seed.js';
import { headWord, kinship, lexPos, partOf, type LexKind, type Lexicon } from './lexicon.js';
import type { MaterialIndex } from './sentences.js';
import { extractSpans, numberValue, type Span, type SpanKind } from './spans.js';

/** General nouns that fit almost any blank: never keys, never distractors (issue 39 §2: "matter", "kind"). */
export const GENERAL_NOUNS = new Set(
  'system part statement company type kind way form process set use case point time area amount number level group item example information thing people person factor aspect method means member end side result effect reason purpose role place fact term issue matter situation condition state range total value quality question answer'.split(' '),
);
/** General nouns that are never distractors: GENERAL_NOUNS and words that fit any concrete blank ("building", "better"). */
const GENERAL_DISTRACTORS = new Set([...GENERAL_NOUNS, ...'building road better change stuff object'.split(' ')]);

/** One distinct candidate of the pool. */
export interface PoolEntry {
  key: string;
  kind: SpanKind;
  shape: string;
  text: string;
  count: number;
  passages: Set<number>;
  tokens: number;
  /** Occurrences in a noun slot (see Span.nounSlot). */
  nounHits: number;
  /** Word classes seen for this span across the material (POS tagger), with counts. */
  classes: Map<string, number>;
  /** Occurrences after a sentence's first word, capitalised / lower case: a word only ever capitalised there is a proper noun ("Nigeria"). */
  midCapital: number;
  midLower: number;
  /** Content stems and normalised text of `text`, computed once. */
  stems: string[];
  norm: string;
}

/**
 * Per kind, the distinct spans of the whole material; `wholes`: the head words the material
 * names as a whole or a class of other terms (materialWholes).
 */
export type DistractorPool = Record<SpanKind, Map<string, PoolEntry>> & { wholes?: Set<string> };

/**
 * A whole or class the material divides into the terms it names ("the main parts of the brain",
 * "types of rock", "the brain, specifically the cerebrum", "X is made up of …"), lower-case head
 * words. Such a term is never a fair wrong answer (or a false swap) beside its parts: "brain"
 * for "cerebellum" makes two right answers (issue 39 §2, round 4 items 25, 27, 28).
 */
export function materialWholes(sentences: readonly { text: string }[]): Set<string> {
  const out = new Set<string>();
  const add = (w: string | undefined) => {
    if (w) out.add(headWord(w).replace(/s$/, ''));
  };
  for (const { text } of sentences) {
    for (const m of text.matchAll(/\b(?:parts?|types?|kinds?|classes|sorts?|divisions?|branches|sections?|regions?|examples?)\s+of\s+(?:the\s+|a\s+|an\s+)?(\p{L}[\p{L}-]*)/giu)) add(m[1]);
    for (const m of text.matchAll(/(\p{L}[\p{L}-]*),\s*(?:specifically|namely|especially|particularly|in particular)\b/giu)) add(m[1]);
    for (const m of text.matchAll(/(\p{L}[\p{L}-]*)\s+(?:is|are)\s+(?:made up of|divided into|composed of|subdivided into)\b/giu)) add(m[1]);
    for (const m of text.matchAll(/(\p{L}[\p{L}-]*)\s+(?:has|have)\s+(?:\w+\s+)?(?:main\s+)?(?:parts|types|kinds|divisions|regions)\b/giu)) add(m[1]);
  }
  return out;
}

/** Singular of a regular English plural ("soils" → "soil", "bodies" → "body"), lower case. */
function singular(word: string): string {
  const w = word.toLowerCase();
  if (/ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  return w.replace(/s$/, '');
}

/**
 * Plural test for a noun head: with the lexicon, a word ending in -s is plural only when its
 * singular is a noun with as many senses as the word itself or more ("soils" → "soil"; "gas" and "basis"
 * are singular; issue 39 §2 "Gas … are").
 */
export function isPluralNoun(word: string, lexicon?: Lexicon): boolean {
  if (!isPlural(word)) return false;
  if (!lexicon) return true;
  // ("gas" is a noun in its own right with more senses than "ga"; "glasses" has fewer than "glass")
  const one = lexicon(singular(word), 'noun');
  const self = lexicon(word.toLowerCase(), 'noun');
  return one !== null && (!self || one.senses >= self.senses);
}

/**
 * The grammatical number the blank's slot asks for, from the words either side: the verb after
 * ("___ are", "___ is") or a determiner before ("a ___", "these ___"); null when neither says.
 */
export function slotNumber(before: string, after: string): 'singular' | 'plural' | null {
  const verb = /^\s*(?:\([^)]*\)\s*)?(\p{L}+)/u.exec(after)?.[1]?.toLowerCase();
  if (verb && /^(?:are|were|have|do)$/.test(verb)) return 'plural';
  if (verb && /^(?:is|was|has|does)$/.test(verb)) return 'singular';
  const det = /(\p{L}+)\s+$/u.exec(before)?.[1]?.toLowerCase();
  if (det && /^(?:these|those|many|several|both|few|various|two|three|four|five)$/.test(det)) return 'plural';
  if (det && /^(?:a|an|this|that|each|every|one|another)$/.test(det)) return 'singular';
  return null;
}

/** True when one kind is the other's synonym (a shared sense), hypernym or hyponym (two levels), or part or substance ("oxygen" of "air"): two right answers. */
export function nestedKinds(a: LexKind, b: LexKind): boolean {
  const meets = (x: ReadonlySet<number> | undefined, y: ReadonlySet<number> | undefined) => !!x && !!y && [...x].some((v) => y.has(v));
  return meets(a.synsets, b.synsets) || meets(a.synsets, b.hypernyms) || meets(b.synsets, a.hypernyms) || partOf(a, b);
}

/** Builds the pool from every sentence of the material (usable or not: option lists hold good numbers) except furniture and examiners' talk. */
export function buildPool(index: MaterialIndex): DistractorPool {
  const pool: DistractorPool = { number: new Map(), name: new Map(), term: new Map() };
  const surfaces = new Map<string, Map<string, number>>();
  for (const s of index.sentences) {
    if (s.noise) continue;
    for (const span of extractSpans(s.text)) {
      const id = `${span.kind}|${span.key}`;
      const entry = pool[span.kind].get(span.key) ?? { key: span.key, kind: span.kind, shape: span.shape, text: span.text, count: 0, passages: new Set<number>(), tokens: span.tokens, nounHits: 0, classes: new Map<string, number>(), midCapital: 0, midLower: 0, stems: [], norm: '' };
      entry.count++;
      if (span.start > 0 && !/^[\s"“(]*$/.test(s.text.slice(0, span.start))) {
        if (/^\p{Lu}/u.test(span.text)) entry.midCapital++;
        else entry.midLower++;
      }
      if (span.cls) entry.classes.set(span.cls, (entry.classes.get(span.cls) ?? 0) + 1);
      if (span.nounSlot) entry.nounHits++;
      entry.passages.add(s.passageIndex);
      pool[span.kind].set(span.key, entry);
      const forms = surfaces.get(id) ?? new Map<string, number>();
      const surface = span.kind === 'term' ? span.text.toLowerCase() : span.text;
      forms.set(surface, (forms.get(surface) ?? 0) + 1);
      surfaces.set(id, forms);
    }
  }
  // Each entry shows its most frequent surface form.
  for (const kind of ['number', 'name', 'term'] as const) {
    for (const entry of pool[kind].values()) {
      const forms = [...surfaces.get(`${kind}|${entry.key}`)!.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      entry.text = forms[0]![0];
      entry.stems = [...stemSet(entry.text)];
      entry.norm = normaliseForMatch(entry.text);
    }
  }
  pool.wholes = materialWholes(index.sentences.filter((s) => !s.noise));
  return pool;
}

/** Senses from which WordNet's word is general ("form" 16, "set" 13, "service" 15; "model" 9 and "bank" 10 are not). */
export const GENERAL_SENSES = 11;

const SUFFIX = /(tion|sion|ment|ity|ance|ence|ing|ism|ist|er|or|ure|ness|ship|ics|al|ive|ous|ed|s)$/;

/** The indefinite article English uses before `word` ("an amylase", "a unit", "an hour", "an MCQ"). */
export function indefiniteArticle(word: string): 'a' | 'an' {
  if (/^\p{Lu}{2,}\b/u.test(word)) return /^[AEFHILMNORSX]/.test(word) ? 'an' : 'a';
  if (/^(?:hour|honest|honou?r|heir)/i.test(word)) return 'an';
  if (/^(?:uni|use|usu|ut[aei]|eu|ewe|one|once|ur[aeiou])/i.test(word)) return 'a';
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** Rough plural test for English nouns (no tagger): -s but not -ss, -us, -is. */
export function isPlural(word: string): boolean {
  return /[^su']s$/i.test(word) && !/(?:ss|us|is)$/i.test(word);
}

/** How alike a candidate is to the key (higher is better). */
function similarity(key: Span, c: PoolEntry, keyPassage: number): number {
  let s = Math.log(1 + c.count) * 0.5;
  if (c.passages.has(keyPassage)) s += 0.6;
  if (key.kind === 'number') {
    const a = Math.abs(numberValue(key.text));
    const b = Math.abs(numberValue(c.text));
    s += 2 - Math.min(2, Math.abs(Math.log10((a + 1) / (b + 1))));
    return s;
  }
  if (key.kind === 'term') {
    const ka = key.text.toLowerCase().split(/\s+/).pop()!;
    const ca = c.text.split(/\s+/).pop()!;
    if (SUFFIX.exec(ka)?.[1] === SUFFIX.exec(ca)?.[1]) s += 0.8;
    s -= Math.abs(key.text.length - c.text.length) / 12;
    if (c.count < 2) s -= 0.7;
    // A noun in the key's slot wants noun distractors (no tagger: evidence from the material).
    if (key.nounSlot) s += Math.min(1, c.nounHits / 2) * 1.5;
    // Number agreement: a plural key wants plural distractors ("Molecules is the process" reads wrong).
    if (isPlural(ka) === isPlural(ca)) s += 1.5;
  }
  return s;
}

/** The class a pool entry has most often in the material (ties: alphabetical); null when never tagged. */
export function mainClass(c: PoolEntry): string | null {
  const best = [...c.classes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return best ? best[0] : null;
}

/** Matches the key's capitalisation (a key opening the sentence is capitalised; distractors follow). */
export function matchCase(key: Span, text: string): string {
  if (key.kind !== 'term') return text;
  return /^\p{Lu}/u.test(key.text) && !/^\p{Lu}{2,}/u.test(key.text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * Up to `n` distractors for `key` in `sentence` (from passage `keyPassage`), best first.
 * Never returns text equal to the key or to another distractor after normalisation.
 */
export function pickDistractors(pool: DistractorPool, key: Span, sentence: string, keyPassage: number, n: number, seed: number, lexicon?: Lexicon, strict = false): string[] {
  const sentenceStems = stemSet(sentence);
  // The key's kind (WordNet), when known: distractors must be things of the same kind (issue 21 §3).
  const pos = key.kind === 'term' ? lexPos(key.cls) : null;
  const keyKind = lexicon && pos ? lexicon(headWord(key.text), pos) : null;
  const keyStems = stemSet(key.text);
  const sentenceNorm = ` ${normaliseForMatch(sentence)} `;
  const seen = new Set([normaliseForMatch(key.text)]);
  // "a"/"an" before the blank must fit every option, or it points at the key (round 2: "an ___" with one vowel option)
  const article = /\b(a|an)\s+$/i.exec(sentence.slice(Math.max(0, key.start - 4), key.start))?.[1]?.toLowerCase();
  // the slot's grammatical number ("___ are", "a ___"): every option must fit it (issue 39 §2: "Gas … are")
  const slot = key.kind === 'term' && pos === 'noun' ? slotNumber(sentence.slice(0, key.start), sentence.slice(key.end)) : null;
  const keyHead = key.kind === 'term' ? headWord(key.text) : '';
  // a key written lower case in mid-sentence is a common noun: a proper noun ("Nigeria", shown "nigeria") is no option for it
  const keyCommon = key.kind === 'term' && !/^\p{Lu}/u.test(key.text);
  const wholes = pool.wholes ?? new Set<string>();
  const scored: { text: string; score: number }[] = [];
  for (const c of pool[key.kind].values()) {
    if (c.key === key.key || c.shape !== key.shape) continue;
    if (key.kind === 'term' && (c.tokens !== key.tokens || (c.tokens > 1 && c.count < 2))) continue;
    if (!c.norm || sentenceNorm.includes(` ${c.norm} `)) continue;
    if (c.stems.some((s) => keyStems.has(s) || sentenceStems.has(s))) continue;
    if (key.kind === 'number' && numberValue(c.text) === numberValue(key.text)) continue;
    // Same part of speech and form as the key (issue 21): the candidate's usual class in the material must be the key's.
    if (key.kind === 'term' && key.cls && mainClass(c) !== key.cls) continue;
    // Same topic and kind (issue 21 §3): for things (noun keys, names, numbers) a candidate from far away in the material
    // gives the key away; other word classes keep the material's evidence alone.
    const distance = Math.min(...[...c.passages].map((p) => Math.abs(p - keyPassage)));
    let bonus = key.kind !== 'term' || pos === 'noun' ? -Math.min(distance, 6) * 0.3 : 0;
    if (key.kind === 'term' && pos === 'noun') {
      const candKind = lexicon ? lexicon(headWord(c.text), pos) : null;
      const kin = keyKind && candKind ? kinship(keyKind, candKind) : -1;
      // With a lexicon, a word it does not know as a noun is not a thing of any kind ("dietary" aside, "hydrochloric").
      if (lexicon && !candKind) continue;
      // Both known: they must share a kind. A key the lexicon does not know takes candidates from its neighbourhood
      // (two passages) only. Without a lexicon, nearness only scores. Strict (false statements): a sibling or nothing.
      if (strict ? kin < 2 : kin === 0 || (lexicon && kin === -1 && distance > 2)) continue;
      // A noun key's distractors agree with it in number ("capillaries": not "pancreas"); without a lexicon this only scores (similarity).
      if (lexicon && isPluralNoun(headWord(key.text), lexicon) !== isPluralNoun(headWord(c.text), lexicon)) continue;
      // never a synonym, hypernym or hyponym of the key ("centre" for "middle", "change" for "shift"): two right answers
      if (keyKind && candKind && nestedKinds(keyKind, candKind)) continue;
      // of the key's kind and of its topic (issue 39 §2): a kind shared only by lexicographer file must come from near the key
      if (!strict && lexicon && kin < 2 && distance > 1) continue;
      bonus += kin === 2 ? 2.5 : kin === 1 ? 1 : 0;
    } else if (strict) continue;
    if (key.kind === 'name' && (c.count < 2 || /[:;]|\band\b/.test(c.text))) continue;
    // (the rules of issue 39 §2 below need the lexicon's word classes; without it the material's evidence only scores)
    if (key.kind === 'term' && lexicon) {
      const head = headWord(c.text);
      if (slot && pos === 'noun' && (slot === 'plural') !== isPluralNoun(head, lexicon)) continue;
      if (keyCommon && c.midCapital > 0 && c.midLower === 0) continue;
      // a part of the key's word or the key part of its ("brain" / "forebrain"), or a whole the material divides into parts
      if (head.length >= 4 && keyHead.length >= 4 && head !== keyHead && (keyHead.endsWith(head) || head.endsWith(keyHead))) continue;
      if (wholes.has(head.replace(/s$/, ''))) continue;
      if (c.tokens === 1 && GENERAL_DISTRACTORS.has(singular(head))) continue;
    }
    if (article && indefiniteArticle(c.text) !== article) continue;
    // a general word ("form", "life", "set": ten or more senses) fits too many blanks to be a fair wrong answer
    if (lexicon && pos && (lexicon(headWord(c.text), pos)?.senses ?? 0) >= GENERAL_SENSES) continue;
    scored.push({ text: matchCase(key, c.text), score: similarity(key, c, keyPassage) + bonus + tieBreak(seed, c.key) * 0.5 });
  }
  scored.sort((a, b) => b.score - a.score || a.text.localeCompare(b.text));
  const out: string[] = [];
  for (const { text } of scored) {
    const norm = normaliseForMatch(text);
    if (seen.has(norm)) continue;
    seen.add(norm);
    out.push(text);
    if (out.length === n) break;
  }
  return out;
}
