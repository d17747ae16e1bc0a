/**
 * The Markdown past-paper layout of the West African papers in
 * `../shared/fixtures/real/*.md` (see that folder's README):
 *
 *     **12.** prompt (may run on over several lines, may hold `*(See image: url)*`)
 *        A) option
 *        B) option …
 *        **Answer: C**
 *        *Explanation: text that may span many lines, ending with an asterisk*
 *
 * Anything before the first `**N.**` (title, instructions, rules) is ignored. HTML
 * `<sup>`/`<sub>` is kept as written: the Markdown renderer shows it and sanitises it.
 */
import { ResultBuilder, labelledOptions } from './checks.js';
import { excerpt, textLines } from './aiken.js';
import type { ParseResult } from './types.js';

const QUESTION = /^\s*\*\*(\d+)\.\*\*\s*(.*)$/;
const OPTION = /^\s*([A-J])\)\s*(.*)$/;
const ANSWER = /^\s*\*\*\s*answer\s*:\s*([^*]*?)\s*\*\*\s*$/i;
const EXPLANATION = /^\s*\*explanation\s*:\s*(.*)$/i;

interface Draft {
  number: number;
  line: number;
  prompt: string[];
  options: string[];
  answer?: string;
  explanation?: string[];
  /** the explanation's closing asterisk was seen */
  closed: boolean;
}

/** Drops one closing `*` (italics end) from a line, if it has one that is not `**`. */
function closingAsterisk(line: string): string | null {
  const t = line.trimEnd();
  return t.endsWith('*') && !t.endsWith('**') ? t.slice(0, -1) : null;
}

/** Joins explanation lines: trailing spaces trimmed, 3+ line breaks collapsed to a paragraph break. */
function joinExplanation(lines: string[]): string {
  return lines
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n[ \t]*(\n[ \t]*){2,}/g, '\n\n')
    .trim();
}

/**
 * Parses a past paper into MCQ questions (1 mark each).
 * Skipped (with the reason): a question without an answer line (also warned as a
 * missing answer), an answer letter that names no option, fewer than two options.
 */
export function parsePastPaperMarkdown(text: string): ParseResult {
  const out = new ResultBuilder();
  let d: Draft | null = null;
  let lastNumber = 0;

  const finish = (q: Draft) => {
    const prompt = q.prompt.join('\n').trim();
    const extra: string[] = [];
    if (q.explanation && !q.closed) extra.push(`The explanation of question ${q.number} has no closing "*"; it was taken up to the next question.`);
    if (q.answer === undefined) {
      out.skip(`missing answer: question ${q.number} has no "**Answer: X**" line`, q.line);
      out.note(`Question ${q.number} ("${excerpt(prompt)}") has a missing answer; it was skipped.`, q.line);
      return;
    }
    const idx = q.answer.length === 1 ? q.answer.toUpperCase().charCodeAt(0) - 65 : -1;
    if (q.options.length < 2) return out.skip(`question ${q.number} needs at least two options, found ${q.options.length}`, q.line);
    if (idx < 0 || idx >= q.options.length) return out.skip(`question ${q.number}: answer "${q.answer}" does not name one of its options`, q.line);
    const explanation = q.explanation ? joinExplanation(q.explanation) : '';
    out.add(
      { type: 'MCQ', prompt, marks: 1, options: labelledOptions(q.options, idx), ...(explanation ? { explanation } : {}) },
      q.line,
      extra,
    );
  };

  textLines(text).forEach((raw, i) => {
    const lineNo = i + 1;
    const qm = QUESTION.exec(raw);
    if (qm) {
      if (d) finish(d);
      const number = Number(qm[1]);
      if (lastNumber && number !== lastNumber + 1) out.note(`Question numbers jump from ${lastNumber} to ${number}.`, lineNo);
      lastNumber = number;
      d = { number, line: lineNo, prompt: [qm[2]!.trim()], options: [], closed: false };
      return;
    }
    if (!d) return; // title, instructions, rules before the first question
    if (d.explanation && !d.closed) {
      const end = closingAsterisk(raw);
      d.explanation.push(end ?? raw);
      if (end !== null) d.closed = true;
      return;
    }
    if (!raw.trim()) return;
    const am = ANSWER.exec(raw);
    if (am) {
      d.answer = am[1]!.trim();
      return;
    }
    const em = EXPLANATION.exec(raw);
    if (em && d.answer !== undefined) {
      const end = closingAsterisk(em[1]!);
      d.explanation = [end ?? em[1]!];
      d.closed = end !== null;
      return;
    }
    const om = OPTION.exec(raw);
    if (om && d.answer === undefined && om[1] === String.fromCharCode(65 + d.options.length)) {
      d.options.push(om[2]!.trim());
      return;
    }
    if (d.answer !== undefined) {
      out.note(`Line ignored after the answer of question ${d.number}: "${excerpt(raw)}"`, lineNo);
    } else if (d.options.length) {
      d.options[d.options.length - 1] += `\n${raw.trim()}`;
    } else {
      d.prompt.push(raw.trim());
    }
  });
  if (d) finish(d);
  return out.result;
}
