/**
 * Answer spans: the pieces of a sentence a question can blank out or alter, in three
 * kinds so that distractors can be "of the same kind" (issue 7): numbers (with their
 * format: year, percent, currency, …), names (capitalised runs, acronyms, codes such as
 * "IAS 16") and terms (runs of one to three content words).
 */
import { isContentWord, isStopWord, stem, tokenize, type Token } from '../text/nlp.js';
import { spanClass } from '../text/pos.js';

export type SpanKind = 'number' | 'name' | 'term';

/** A span of a sentence. `key` identifies it across the material (stems for terms). */
export interface Span {
  text: string;
  start: number;
  end: number;
  kind: SpanKind;
  key: string;
  /** Number format or name shape; distractors must share it where possible. */
  shape: string;
  tokens: number;
  /** True when the span sits where a noun phrase goes (after a determiner or preposition, or before a verb like "is"). */
  nounSlot: boolean;
  /** Word class of the span's head from the POS tagger ("N", "V:ed", "A", …); null for numbers and names. */
  cls: string | null;
}

const UNIT = /^(?:million|billion|thousand|percent|per\s?cent|kg|km|cm|mm|g|years?|months?|weeks?|days?|hours?|minutes?|seconds?|metres?|meters?|litres?|grams?|kilograms?|tonnes?|degrees?|volts?|amperes?|amps?|ohms?|watts?|hertz|joules?|newtons?|naira|kobo|dollars?|pounds?)$/i;
const CODE = /^[A-Z]{2,6}$/;
const CONNECTOR = /^(?:of|and|for|the|de|in|on|&)$/;

/** Format of a number token (used to keep numeric distractors comparable). */
export function numberShape(text: string): string {
  const unit = /\s(\S+)$/.exec(text)?.[1]?.toLowerCase().replace(/s$/, '');
  const core = text.split(/\s/)[0]!;
  if (/%$/.test(core) || unit === 'percent') return 'percent';
  const prefix = /^([^\d]+)\d/.exec(core)?.[1];
  if (prefix) return `currency:${prefix}${unit ? `:${unit}` : ''}`;
  if (/^(?:1[5-9]|20)\d\d$/.test(core) && !unit) return 'year';
  const base = core.includes('.') ? 'decimal' : core.includes(',') || Number(core) >= 10000 ? 'grouped' : 'int';
  return unit ? `${base}:${unit}` : base;
}

/** Numeric value of a number span (NaN when it has none). */
export function numberValue(text: string): number {
  const m = /(\d[\d,]*(?:\.\d+)?)/.exec(text);
  return m ? Number(m[1]!.replace(/,/g, '')) : Number.NaN;
}

const NOUN_BEFORE = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'its', 'their', 'his', 'her', 'our', 'your', 'each', 'every', 'any', 'some', 'such', 'of', 'in', 'on', 'for', 'with', 'by', 'from', 'between', 'about', 'under', 'into', 'through', 'called', 'as']);
const NOUN_AFTER = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'of', 'can', 'may', 'will', 'should', 'must', 'refers', 'means', 'involves', 'includes']);

/** Adverbs (-ly) and participles (-ed) make poor answers and distractors; no tagger, so by suffix. */
const NOT_NOUNISH = /^(?!(?:need|seed|speed|feed|creed|greed|hundred|family|supply|apply|reply|assembly|monopoly|july|italy|anomaly|ally|rally|jelly|belly)$)\p{L}{3,}(?:ed|ly)$/iu;

const isCap = (t: Token) => /^\p{Lu}/u.test(t.text);
const hasDigit = (t: Token) => /\d/.test(t.text);

/** All answer spans of one sentence. */
export function extractSpans(sentence: string): Span[] {
  const toks = tokenize(sentence);
  const spans: Span[] = [];
  const inName = new Set<number>();
  const make = (from: number, to: number, kind: SpanKind, key: string, shape: string): Span => ({
    text: sentence.slice(toks[from]!.start, toks[to]!.end),
    start: toks[from]!.start,
    end: toks[to]!.end,
    kind,
    key,
    shape,
    tokens: to - from + 1,
    // Head of a noun phrase: after a determiner/preposition with no noun following it, or before "is", "of", ….
    nounSlot:
      (NOUN_BEFORE.has(toks[from - 1]?.text.toLowerCase() ?? '') && !isContentWord(toks[to + 1]?.text.toLowerCase() ?? '')) ||
      NOUN_AFTER.has(toks[to + 1]?.text.toLowerCase() ?? ''),
    cls: kind === 'term' ? spanClass(sentence, toks[from]!.start, toks[to]!.end) : null,
  });
  // Names: capitalised runs (connectors inside), acronyms, and code + number ("IAS 16").
  for (let i = 0; i < toks.length; i++) {
    if (!isCap(toks[i]!) || hasDigit(toks[i]!)) continue;
    let j = i;
    while (j + 1 < toks.length) {
      const next = toks[j + 1]!;
      if (isCap(next) && !hasDigit(next)) j++;
      else if (hasDigit(next) && CODE.test(toks[j]!.text) && /^\d+$/.test(next.text)) j++;
      else if (CONNECTOR.test(next.text) && j + 2 < toks.length && isCap(toks[j + 2]!) && !hasDigit(toks[j + 2]!)) j += 2;
      else break;
    }
    let from = i;
    while (from <= j && isStopWord(toks[from]!.text)) from++;
    const capCount = toks.slice(from, j + 1).filter((t) => isCap(t) && !isStopWord(t.text)).length;
    const atStart = from === 0 || (i === 0 && from > 0);
    const acronym = from === j && CODE.test(toks[from]!.text);
    const capWords = toks.slice(from, j + 1).filter((t) => !CONNECTOR.test(t.text)).map((t) => t.text.toLowerCase());
    const repeated = new Set(capWords).size < capWords.length;
    if (from <= j && capCount > 0 && !repeated && (!atStart || capCount >= 2 || acronym)) {
      const text = sentence.slice(toks[from]!.start, toks[j]!.end);
      const shape = /\d$/.test(text) ? 'code' : acronym ? 'acronym' : `words:${Math.min(3, capCount)}`;
      spans.push(make(from, j, 'name', text.toLowerCase(), shape));
      for (let k = from; k <= j; k++) inName.add(k);
    }
    i = j;
  }
  // Numbers (with a following unit word), unless part of a name.
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (!hasDigit(t) || inName.has(i) || /\d(?:st|nd|rd|th)$/i.test(t.text) || /^\p{L}{2,}\d/u.test(t.text)) continue;
    const withUnit = i + 1 < toks.length && UNIT.test(toks[i + 1]!.text);
    const span = make(i, withUnit ? i + 1 : i, 'number', '', '');
    span.key = span.text.toLowerCase();
    span.shape = numberShape(span.text);
    spans.push(span);
  }
  // Terms: runs of content words outside names, and their sub-runs of one to three words.
  let run: number[] = [];
  const flush = () => {
    for (let a = 0; a < run.length; a++) {
      for (let b = a; b < Math.min(run.length, a + 3); b++) {
        const from = run[a]!;
        const to = run[b]!;
        const key = toks.slice(from, to + 1).map((t) => stem(t.text)).join(' ');
        if (new Set(key.split(' ')).size < to - from + 1) continue;
        spans.push(make(from, to, 'term', key, `words:${to - from + 1}`));
      }
    }
    run = [];
  };
  toks.forEach((t, i) => {
    const gapOk = run.length === 0 || /^[\s-]*$/.test(sentence.slice(toks[run[run.length - 1]!]!.end, t.start));
    const termWord = !inName.has(i) && !hasDigit(t) && isContentWord(t.text.toLowerCase()) && !NOT_NOUNISH.test(t.text);
    if (termWord && gapOk) run.push(i);
    else {
      flush();
      if (termWord) run.push(i);
    }
  });
  flush();
  return spans;
}
