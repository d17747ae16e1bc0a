/**
 * Aiken format (Moodle Docs, "Aiken format"): a question's text, then options each on a
 * line starting with a capital letter and "." or ")", then `ANSWER: <letter>`.
 * Examiners write it in Word or a text editor, so this reader is forgiving: the
 * question text may span several lines, blank lines between questions are optional,
 * and "answer:" may be in any case.
 */
import { ResultBuilder, labelledOptions } from './checks.js';
import type { ParseResult } from './types.js';

const OPTION = /^\s*([A-J])\s*[.)]\s+(.*\S)\s*$/;
const ANSWER = /^\s*answer\s*:\s*(\S*)\s*$/i;

/** Splits text into lines without BOM or CR. */
export function textLines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
}

interface Draft {
  line: number;
  prompt: string[];
  options: string[];
  /** a blank line came after the last option (the next text starts a new question) */
  gap: boolean;
}

/**
 * Parses Aiken text into MCQ questions (1 mark each).
 * Questions without an ANSWER line, with an answer letter that names no option, or
 * with fewer than two options are skipped with the reason (and a warning for a
 * missing answer).
 */
export function parseAiken(text: string): ParseResult {
  const out = new ResultBuilder();
  let d: Draft | null = null;

  const finishWithoutAnswer = (draft: Draft) => {
    const reason = draft.options.length ? 'missing answer: no "ANSWER:" line after the options' : 'no options and no "ANSWER:" line';
    out.skip(reason, draft.line);
    if (draft.options.length) out.note(`Question "${excerpt(draft.prompt.join(' '))}" has a missing answer; it was skipped.`, draft.line);
  };

  textLines(text).forEach((raw, i) => {
    const lineNo = i + 1;
    if (!raw.trim()) {
      if (d?.options.length) d.gap = true;
      return;
    }
    const answer = ANSWER.exec(raw);
    if (answer && !d) {
      out.note(`An "${raw.trim()}" line with no question before it was ignored.`, lineNo);
      return;
    }
    if (answer && d) {
      const letter = (answer[1] ?? '').toUpperCase();
      const idx = letter.length === 1 ? letter.charCodeAt(0) - 65 : -1;
      if (d.options.length < 2) out.skip(`needs at least two options before "ANSWER:", found ${d.options.length}`, d.line);
      else if (idx < 0 || idx >= d.options.length) out.skip(`answer "${answer[1]}" does not name one of the options A–${String.fromCharCode(64 + d.options.length)}`, d.line);
      else out.add({ type: 'MCQ', prompt: d.prompt.join('\n').trim(), marks: 1, options: labelledOptions(d.options, idx) }, d.line);
      d = null;
      return;
    }
    const opt = OPTION.exec(raw);
    if (d && opt && d.prompt.length && opt[1] === String.fromCharCode(65 + d.options.length)) {
      d.options.push(opt[2]!);
      d.gap = false;
      return;
    }
    if (d && d.options.length && !d.gap) {
      // an option that runs onto a second line
      d.options[d.options.length - 1] += `\n${raw.trim()}`;
      return;
    }
    if (d && d.options.length) finishWithoutAnswer(d);
    if (!d || d.options.length) d = { line: lineNo, prompt: [], options: [], gap: false };
    d.prompt.push(raw.trimEnd());
  });
  if (d) finishWithoutAnswer(d);
  return out.result;
}

/** First 60 characters of a text on one line, for messages. */
export function excerpt(text: string, max = 60): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
