/**
 * Captions as transcripts (issue 7: "captions beat recognition"): SubRip (.srt) and
 * WebVTT (.vtt) cues are parsed and grouped into timed passages cited as mm:ss.
 */
import { formatTimestamp, hasSentenceEnd, type Passage } from '../../core/generation/passage.js';

/** One timed piece of transcript (a caption cue or a recognised word run). */
export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** "01:02:03,456" / "02:03.456" / "2:03" → seconds; NaN when malformed. */
export function parseClock(value: string): number {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?$/.exec(value.trim());
  if (!m) return Number.NaN;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number((m[4] ?? '0').padEnd(3, '0')) / 1000;
}

/** Cues of an SRT or VTT file (tags such as <i> and VTT cue settings removed). */
export function parseCaptions(text: string): TimedText[] {
  const cues: TimedText[] = [];
  const blocks = text.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from, rest] = lines[at]!.split('-->');
    const start = parseClock(from!);
    const end = parseClock((rest ?? '').trim().split(/\s+/)[0] ?? '');
    const body = lines
      .slice(at + 1)
      .join(' ')
      .replace(/<[^>]+>/g, '')
      .replace(/\{\\[^}]*\}/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!Number.isNaN(start) && body) cues.push({ start, end: Number.isNaN(end) ? start : end, text: body });
  }
  return cues;
}

/**
 * Groups timed text into passages cited by their start time: a passage closes at a
 * pause longer than `gapSeconds`, at a sentence end once it has `minWords`, or at
 * `maxWords` words. The items' texts are joined by spaces; when (almost) no item has a
 * sentence's end mark (an unpunctuated track: fewer than 1 in 20, a decimal point none), by
 * newlines, one item per line.
 */
export function timedTextToPassages(items: TimedText[], opts: { gapSeconds?: number; minWords?: number; maxWords?: number } = {}): Passage[] {
  const gap = opts.gapSeconds ?? 2;
  const minWords = opts.minWords ?? 12;
  const maxWords = opts.maxWords ?? 40;
  const out: Passage[] = [];
  let parts: string[] = [];
  let start = 0;
  let last = -Infinity;
  let count = 0;
  // An unpunctuated track (automatic captions, a recogniser's utterances) keeps its cues on lines of their own: they are
  // the only marks of where a spoken clause ends (the generator's spokenSentences, src/core/generation/engine/spoken.ts).
  // A decimal point is no end mark, and a stray mark or two ("e.g.", "Mr.") in a long track does not make it punctuated:
  // fewer than 1 cue in 20 with one is unpunctuated (round 56: one "0.7" had a whole lecture read as sentences).
  const spoken = items.length > 0 && items.filter((item) => hasSentenceEnd(item.text)).length * 20 < items.length;
  const flush = () => {
    const text = spoken ? parts.map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean).join('\n') : parts.join(' ').replace(/\s+/g, ' ').trim();
    if (text) out.push({ text, citation: formatTimestamp(start), startSeconds: start });
    parts = [];
    count = 0;
  };
  for (const item of items) {
    if (parts.length && item.start - last > gap) flush();
    if (!parts.length) start = item.start;
    parts.push(item.text);
    count += item.text.split(/\s+/).length;
    last = item.end;
    if (count >= maxWords || (count >= minWords && /[.?!]["”’)]?$/.test(item.text))) flush();
  }
  flush();
  return out;
}
