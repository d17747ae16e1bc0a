/**
 * Finds facts for questions: which sentence, which span of it as the answer, and which
 * distractors. Single facts serve the simple tier; groups of sentences sharing a key
 * term serve the intermediate tier (two sentences, same or neighbouring passages) and
 * the hard tier (sentences from different, distant passages). Every sentence and key is
 * used at most once per request, and passages are visited in turn so questions spread
 * over the whole material.
 */
import { contentStems, isContentWord, stemSet } from '../text/nlp.js';
import { tagSentence, type TaggedWord } from '../text/pos.js';
import { tieBreak } from '../text/seed.js';
import { buildPool, GENERAL_NOUNS, GENERAL_SENSES, pickDistractors, type DistractorPool } from './distractors.js';
import { headWord } from './lexicon.js';
import type { Lexicon } from './lexicon.js';
import type { Fact } from './objective.js';
import type { MaterialIndex, SourceSentence } from './sentences.js';
import { EXAMPLE_SENTENCE } from './sentence-patterns.js';
import { extractSpans, numberValue, type Span } from './spans.js';

/**
 * True when a passage opens with a heading line of its own (a slide's title, a section's
 * heading): a short first line, capitalised, without a sentence's end, followed by more lines.
 */
export function opensWithHeading(text: string): boolean {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/^\s*#{1,6}\s+/, '').trim()).filter(Boolean);
  const first = lines[0] ?? '';
  return lines.length >= 2 && /^\p{Lu}/u.test(first) && first.split(/\s+/).length <= 10 && !/[.;:!]$/.test(first);
}

function countStems(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of contentStems(text)) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Quantifiers the tagger calls adjectives: they do not make a noun phrase a fixed term. */
/** Nouns that follow "in"/"at"/"on"/"as" in idioms of English ("in theory", "at least", "as a result"): no subject's term. */
const IDIOM_NOUNS = /^(?:theory|practice|general|addition|fact|particular|least|result|behalf|return|respect|terms|order|case|effect|principle|turn|time|place|short|sum)$/i;
const QUANTIFIER = /^(?:several|many|few|most|some|various|numerous|certain|other|each|every|all|both|more|less|much)$/i;

/**
 * True when a noun or adjective sits right next to the span (only spaces or a hyphen between):
 * the span is part of a longer noun phrase, which gives the blank away ("The alimentary ___").
 */
export function splitsPhrase(sentence: string, span: Span): boolean {
  const tags = tagSentence(sentence);
  const prev = [...tags].reverse().find((w) => w.end <= span.start);
  const next = tags.find((w) => w.start >= span.end);
  const glued = (w: TaggedWord | undefined, gap: string) =>
    w !== undefined && /^[\s-]+$/.test(gap) && /^(?:NOUN|PROPN|ADJ)$/.test(w.pos) && isContentWord(w.text.toLowerCase()) && !QUANTIFIER.test(w.text);
  return glued(prev, prev ? sentence.slice(prev.end, span.start) : '') || glued(next, next ? sentence.slice(span.end, next.start) : '');
}

/** A fact (or group of facts sharing one answer) with distractors for it. */
export interface FactCandidate {
  facts: Fact[];
  distractors: string[];
}

/** Stateful finder over one material; `used*` prevent repeats within a request. */
export class FactFinder {
  readonly pool: DistractorPool;
  readonly usedSentences = new Set<number>();
  readonly usedKeys = new Set<string>();
  private readonly passageUses = new Map<number, number>();
  private readonly spansOf = new Map<number, Span[]>();
  private readonly occurrences = new Map<string, Fact[]>();
  /** The material's text, lower case, one space between words (for counting phrases). */
  private readonly text: string;
  /** Blanks refused as unfair, by reason, counted once per sentence (reported in the run's warnings). */
  readonly refused = new Map<string, Set<number>>();

  constructor(readonly index: MaterialIndex, readonly seed: number, readonly lexicon?: Lexicon) {
    this.text = ` ${index.passages.map((p) => p.text).join(' ').toLowerCase().replace(/[^\p{L}\p{N}'’]+/gu, ' ')} `;
    this.pool = buildPool(index);
    for (const s of index.sentences.filter((x) => x.usable)) {
      for (const span of this.spans(s)) {
        if (span.kind === 'number') continue;
        const list = this.occurrences.get(span.key) ?? [];
        if (!list.some((f) => f.sentence.idx === s.idx)) list.push({ sentence: s, span });
        this.occurrences.set(span.key, list);
      }
    }
  }

  /** Whether `key` (a term span's key) is an acceptable answer span in some usable sentence of the material. */
  isTerm(key: string): boolean {
    return this.occurrences.has(key);
  }

  private refuse(reason: string, s: SourceSentence): void {
    const set = this.refused.get(reason) ?? new Set<number>();
    set.add(s.idx);
    this.refused.set(reason, set);
  }

  /** How often `phrase` (words) occurs in the material. */
  private count(phrase: string): number {
    const p = ` ${phrase.toLowerCase().replace(/[^\p{L}\p{N}'’]+/gu, ' ').trim()} `;
    let n = 0;
    for (let at = this.text.indexOf(p); at >= 0; at = this.text.indexOf(p, at + 1)) n++;
    return n;
  }

  /**
   * True when the blank sits in a fixed phrase the rest of the sentence gives away (round 2: "Ohm's ___", "statement of
   * ___"): right after a possessive, or joined by "of" to a word it goes with in most of its uses in the material.
   */
  fixedPhrase(s: SourceSentence, span: Span): boolean {
    const before = s.text.slice(0, span.start);
    if (/\p{L}['’]s?\s+$/u.test(before)) return true;
    // an idiom of English, not of the subject ("In ___, future needs …": round 2 item 5; "party to a ___": round 3 item 13)
    if (/\b(?:in|at|on|as)\s+$/i.test(before) && IDIOM_NOUNS.test(span.text)) return true;
    if (/\b(?:party|parties)\s+to\s+(?:an?|the)?\s*$/i.test(before)) return true;
    const left = /(\p{L}{3,})\s+of\s+(?:the\s+)?$/u.exec(before);
    const right = /^\s+of\s+(?:the\s+)?(\p{L}{3,})/u.exec(s.text.slice(span.end));
    const key = this.count(span.text);
    for (const phrase of [left ? `${left[0]}${span.text}` : null, right ? `${span.text}${right[0]}` : null]) {
      if (!phrase) continue;
      const n = this.count(phrase);
      if (n >= 2 && n >= 0.6 * key) return true;
    }
    return false;
  }

  /** Whether WordNet knows `text` only as a place (noun.location, lexicographer file 15), or does not know a capitalised word at all. */
  isPlace(text: string): boolean {
    if (!/^\p{Lu}\p{Ll}/u.test(text) || !this.lexicon) return false;
    const k = this.lexicon(headWord(text), 'noun');
    return k === null ? text.split(/\s+/).length === 1 : k.lexFiles.size === 1 && k.lexFiles.has(15);
  }

  /** Acceptable answer spans of a sentence, best first. */
  spans(s: SourceSentence): Span[] {
    const cached = this.spansOf.get(s.idx);
    if (cached) return cached;
    const w = (stem: string) => this.index.weight.get(stem) ?? 0;
    const sentenceWeights = [...s.stems].map(w).sort((a, b) => a - b);
    const median = sentenceWeights[Math.floor(sentenceWeights.length / 2)] ?? 0;
    const scored: { span: Span; score: number }[] = [];
    const sentenceCounts = countStems(s.text);
    for (const span of extractSpans(s.text)) {
      const spanCounts = countStems(span.text);
      const stems = [...spanCounts.keys()];
      // A key whose stem also occurs outside the blank would give itself away.
      if (stems.some((x) => (sentenceCounts.get(x) ?? 0) > spanCounts.get(x)!)) continue;
      if (stems.length > s.stems.size / 2) continue;
      let score: number;
      // A blank inside a noun phrase ("The alimentary ___", "blood ___ of the villi") is given away by its neighbour.
      if (span.kind === 'term' && splitsPhrase(s.text, span)) continue;
      if (span.kind === 'number') {
        const v = numberValue(span.text);
        // A bare number means nothing without its unit or kind (issue 21 §3: no trivial number blanks).
        if (!(v >= 2) || /^(?:int|decimal|grouped)$/.test(span.shape)) continue;
        score = median * 0.8;
      } else {
        if (!stems.length) continue;
        // Only nouns, verbs and adjectives make keys (the tagger's class of the span's head).
        // Only nouns make keys (the tagger's class of the span's head): a verb or adjective blank gets distractors nobody would pick.
        if (span.kind === 'term' && (!span.cls || !span.cls.startsWith('N'))) continue;
        // A general word ("system", "part", "statement") is a poor thing to ask for: the blank fits many answers.
        if (span.kind === 'term' && span.tokens === 1 && GENERAL_NOUNS.has(span.text.toLowerCase().replace(/s$/, ''))) continue;
        const mean = stems.reduce((a, x) => a + w(x), 0) / stems.length;
        if (span.kind === 'term' && (mean < median || span.text.split(/\s+/).some((t) => t.length < 3))) continue;
        // A multi-word term must recur in the material to count as a term at all.
        const entry = span.kind === 'term' ? this.pool.term.get(span.key) : undefined;
        if (entry && span.tokens > 1 && entry.count < 2) continue;
        // A term never seen in a noun slot is probably an adjective or verb: a poor answer.
        if (entry && !span.nounSlot && entry.nounHits === 0) continue;
        // A name must recur to be a name of the subject (not table debris such as "Trend Seasonal").
        if (span.kind === 'name' && ((this.pool.name.get(span.key)?.count ?? 0) < 2 || /\band\b/.test(span.text))) continue;
        if (span.kind === 'term' && span.tokens === 1 && this.lexicon && (this.lexicon(headWord(span.text), 'noun')?.senses ?? 0) >= GENERAL_SENSES) {
          this.refuse('a general word as the answer', s);
          continue;
        }
        // a place the sentence mentions in passing ("in ___, urea is produced at Onne": round 3 items 5 and 40)
        if (/\b(?:in|at|from|to|across|throughout)\s+$/i.test(s.text.slice(0, span.start)) && this.isPlace(span.text)) {
          this.refuse('a place mentioned in passing', s);
          continue;
        }
        // an illustrative word of an example ("A ___ who wants a phone but has no money …", "for example, a ___"): the
        // example's actor is no content to recall (issue 39 §2, round 4 item 15)
        if (/^\s+who\b/i.test(s.text.slice(span.end)) || /\b(?:for example|for instance|e\.g\.|say|suppose|imagine)\s*,?\s*(?:a|an|the|that)?\s*$/i.test(s.text.slice(0, span.start))) {
          this.refuse('an illustrative word of an example', s);
          continue;
        }
        if (this.fixedPhrase(s, span)) {
          this.refuse('a fixed phrase that gives the blank away', s);
          continue;
        }
        score = span.kind === 'name' ? mean * 1.1 + 0.2 : mean * (span.tokens === 2 ? 1.15 : 1) * (span.nounSlot ? 1.3 : 1);
      }
      scored.push({ span, score: score + tieBreak(this.seed, `${s.idx}:${span.start}:${span.end}`) * 0.01 });
    }
    const out = scored.sort((a, b) => b.score - a.score).map((x) => x.span);
    this.spansOf.set(s.idx, out);
    return out;
  }

  /** Marks a candidate's sentences, key and passages as used. */
  take(c: FactCandidate): FactCandidate {
    for (const f of c.facts) {
      this.usedSentences.add(f.sentence.idx);
      this.passageUses.set(f.sentence.passageIndex, (this.passageUses.get(f.sentence.passageIndex) ?? 0) + 1);
    }
    this.usedKeys.add(c.facts[0]!.span.key);
    return c;
  }

  /** Unused usable sentences, best first, favouring passages used least so far. */
  private ranked(): SourceSentence[] {
    const uses = (s: SourceSentence) => this.passageUses.get(s.passageIndex) ?? 0;
    return this.index.sentences
      .filter((s) => s.usable && !this.usedSentences.has(s.idx) && !EXAMPLE_SENTENCE.test(s.text))
      .sort((a, b) => b.score / (1 + uses(b)) - a.score / (1 + uses(a)) || a.idx - b.idx);
  }

  /** The next single fact with at least `minDistractors` distractors (up to `want`), or null. */
  single(want: number, minDistractors: number): FactCandidate | null {
    for (const s of this.ranked().slice(0, 400)) {
      for (const span of this.spans(s).slice(0, 4)) {
        if (this.usedKeys.has(span.key)) continue;
        const distractors = pickDistractors(this.pool, span, s.text, s.passageIndex, want, this.seed, this.lexicon);
        if (distractors.length >= minDistractors) return this.take({ facts: [{ sentence: s, span }], distractors });
      }
    }
    return null;
  }

  /**
   * The next single fact (no distractors) whose sentence `accept` maps to a value, e.g. a
   * believable false form of it; returns the fact, marked used, with that value, or null.
   */
  singleWhere<T>(accept: (s: SourceSentence) => T | null): { candidate: FactCandidate; value: T } | null {
    for (const s of this.ranked().slice(0, 400)) {
      const span = this.spans(s).slice(0, 4).find((x) => !this.usedKeys.has(x.key));
      if (!span) continue;
      const value = accept(s);
      if (value !== null) return { candidate: this.take({ facts: [{ sentence: s, span }], distractors: [] }), value };
    }
    return null;
  }

  /**
   * The next group of `size` sentences sharing one key: `near` = same or adjacent
   * passages (intermediate); otherwise distinct passages, at least two apart when the
   * material has three or more passages (hard).
   */
  group(size: number, near: boolean, want: number, minDistractors: number): FactCandidate | null {
    return this.groupWhere(size, near, want, minDistractors, () => true)?.candidate ?? null;
  }

  /**
   * As `group`, the next group that `accept` maps to a value (e.g. the statement of it that has a believable false
   * form); returns the group, marked used, with that value, or null.
   */
  groupWhere<T>(size: number, near: boolean, want: number, minDistractors: number, accept: (facts: Fact[]) => T | null): { candidate: FactCandidate; value: T } | null {
    const keys = [...this.occurrences.entries()]
      .filter(([key, list]) => !this.usedKeys.has(key) && list.length >= size)
      .map(([key, list]) => ({ key, list, w: list[0]!.span.text.length > 2 ? [...stemSet(list[0]!.span.text)].reduce((a, x) => a + (this.index.weight.get(x) ?? 0), 0) : 0 }))
      .sort((a, b) => b.w - a.w || a.key.localeCompare(b.key));
    const spread = this.index.passages.length >= 3 ? 2 : 1;
    const headed = this.index.passages.map((p) => opensWithHeading(p.text));
    for (const { list } of keys.slice(0, 300)) {
      const free = list.filter((f) => !this.usedSentences.has(f.sentence.idx)).sort((a, b) => b.sentence.score - a.sentence.score);
      const chosen: Fact[] = [];
      for (const f of free) {
        const sameSurface = !chosen.length || f.span.text.toLowerCase() === chosen[0]!.span.text.toLowerCase();
        const ok = sameSurface && chosen.every((c) => {
          const d = Math.abs(c.sentence.passageIndex - f.sentence.passageIndex);
          // two sections under headings of their own (two slides: "The Clifford Constitution, 1922", "The Richards
          // Constitution, 1946") each set their statements in their own context: side by side and unnamed, they read as a
          // contradiction (issue 39 §2, round 5 item 6)
          if (near && d === 1 && (headed[c.sentence.passageIndex] || headed[f.sentence.passageIndex])) return false;
          return near ? d <= 1 : d >= spread;
        });
        if (ok) chosen.push(f);
        if (chosen.length === size) break;
      }
      if (chosen.length < size) continue;
      const joined = chosen.map((f) => f.sentence.text).join(' ');
      const distractors = want > 0 ? pickDistractors(this.pool, chosen[0]!.span, joined, chosen[0]!.sentence.passageIndex, want, this.seed, this.lexicon) : [];
      if (distractors.length < minDistractors) continue;
      const value = accept(chosen);
      if (value !== null) return { candidate: this.take({ facts: chosen, distractors }), value };
    }
    return null;
  }
}
