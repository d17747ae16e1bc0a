/**
 * Where the questions of a pasted paper start (issue 21), and whether a text is one.
 * Numbered papers: a numbered line followed by an option "A". Papers without numbers
 * (Aiken-shaped, but with "Solution:" / "Ans:" / "Key -" lines that Aiken does not know):
 * the first line of the paragraph right above each option "A"; there a worked solution
 * of several lines must be followed by a blank line before the next question.
 */
import { textLines } from './aiken.js';
import { answerLine, keyHeading, keyPairs, optionLine, pageFurniture, questionStart, solutionLine } from './pasted-lines.js';

/**
 * True when option "A" follows line `i` before a question with a higher number, an
 * answer or solution line, or 40 lines. Lists numbered inside a stem (restarting at 1,
 * or in roman numerals that look like options I., V., X.) do not stop the search; with `strict` (inside a worked solution, whose steps may be
 * numbered) a line with the same number stops it too.
 */
export function optionsFollow(lines: string[], i: number, number: number, strict = false): boolean {
  for (let j = i + 1; j < Math.min(lines.length, i + 41); j++) {
    const l = lines[j]!;
    if (!l.trim() || pageFurniture(l)) continue;
    const opt = optionLine(l);
    if (opt?.letter === 'A') return true;
    if (opt) continue; // "I. They alter…", "II. …": statements numbered in roman inside a stem
    const q = questionStart(l);
    if ((q && (q.number > number || (strict && q.number === number))) || answerLine(l) || solutionLine(l) || keyHeading(l) || keyPairs(l)) return false;
  }
  return false;
}

/** Number of question lines in `text` that are followed by options (the detector's signal). */
export function countNumberedQuestions(text: string): number {
  const lines = textLines(text);
  return lines.filter((l, i) => {
    const q = questionStart(l);
    return q !== null && !keyPairs(l) && optionsFollow(lines, i, q.number);
  }).length;
}

/**
 * Line indexes (0-based) where the questions of a paper without numbers start: the top
 * of the run of text lines right above each option "A" (stopped by a blank line, an
 * answer, solution, option, heading or furniture line).
 */
export function unnumberedStarts(lines: string[]): Set<number> {
  const starts = new Set<number>();
  const stops = (l: string) => !l.trim() || pageFurniture(l) || answerLine(l) !== null || solutionLine(l) !== null || optionLine(l) !== null || keyHeading(l);
  lines.forEach((l, j) => {
    if (optionLine(l)?.letter !== 'A') return;
    let k = j - 1;
    while (k >= 0 && !stops(lines[k]!)) k--;
    if (k + 1 < j) starts.add(k + 1);
  });
  return starts;
}

const STRICT_AIKEN_ANSWER = /^\s*ANSWER\s*:\s*[A-J]\s*$/i;

/**
 * True when a text is a pasted paper: a numbered question followed by options, or
 * questions without numbers that carry answer or solution lines Aiken does not know
 * ("Solution: …", "Ans: C", "Key - C"). Plain Aiken stays Aiken.
 */
export function looksLikePastedPaper(text: string): boolean {
  if (countNumberedQuestions(text) > 0) return true;
  const lines = textLines(text);
  if (!unnumberedStarts(lines).size) return false;
  return lines.some((l) => solutionLine(l) !== null || (answerLine(l) !== null && !STRICT_AIKEN_ANSWER.test(l)));
}
