/**
 * Pasted papers (issue 21): a paper copied as plain text from a website or a word
 * processor, with numbered questions, lettered options, answers inline ("Answer: C",
 * "Ans: C", "Key - C") or in an answer key at the end, and worked solutions
 * ("Solution", "Explanation", "Working", "Hint" lines, possibly over many lines). What
 * each line is comes from pasted-lines.ts; this module places the lines:
 *
 * - a numbered line starts a question when options follow it (or it is the next number);
 *   its numbering is dropped from the prompt; blank lines inside a stem are kept;
 * - answer and solution lines belong to the question they follow (its `explanation`);
 * - after an answer key heading or a key line, numbered lines add to the solution of the
 *   question with that number;
 * - a line that cannot be placed, page furniture left out and text before the first
 *   question are reported as warnings with their line numbers; nothing is dropped silently.
 */
import { ResultBuilder, comparableText, labelledOptions } from './checks.js';
import { excerpt, textLines } from './aiken.js';
import { answerLine, flat, keyHeading, keyPairs, keyTableHeader, optionLine, pageFurniture, questionStart, solutionLine, splitInlineOptions } from './pasted-lines.js';
import { countNumberedQuestions, optionsFollow, unnumberedStarts } from './pasted-starts.js';
import type { ParseResult } from './types.js';

interface Draft {
  number: number;
  line: number;
  prompt: string[];
  options: string[];
  /** blank line after the last option */
  gap: boolean;
  answer?: { letter?: string; text: string; line: number };
  /** worked-solution blocks (label-less lines after the answer open one too) */
  solution: string[][];
  phase: 'stem' | 'options' | 'answer' | 'solution';
  notes: string[];
}

const quote = (raw: string) => `"${excerpt(raw)}"`;

/** Joins lines: each trimmed, runs of blank lines collapsed to one, outer blanks removed. */
function joinLines(lines: string[]): string {
  return lines.map((l) => l.trim()).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Parses a pasted paper into MCQ questions (1 mark each).
 * Skipped with the reason (and warned): a question without an answer (inline or in the
 * key), an answer naming no option, fewer than two options, an empty stem.
 */
export function parsePastedPaper(text: string): ParseResult {
  const out = new ResultBuilder();
  const lines = textLines(text);
  const drafts: Draft[] = [];
  const byNumber = new Map<number, Draft>();
  const key = new Map<number, { letter: string; line: number }>();
  let d: Draft | null = null;
  let keyMode = false;
  let keyEntry: Draft | null = null;
  let pendingAnswer = false;
  const preamble: number[] = [];
  // a paper without numbered questions: they start above each option "A"
  const unnumbered = countNumberedQuestions(text) === 0 ? unnumberedStarts(lines) : null;

  const unplaced = (raw: string, lineNo: number, where: string) => out.note(`Line ${lineNo} ${quote(raw)} ${where}; it was left out.`, lineNo);
  const addSolution = (q: Draft, label: string, textAfter: string) => {
    q.solution.push(label === 'hint' ? [`Hint: ${textAfter}`.trim()] : textAfter ? [textAfter] : []);
  };
  const addKey = (number: number, letter: string, lineNo: number) => {
    if (!byNumber.has(number)) return out.note(`Line ${lineNo}: the answer key gives ${letter} for question ${number}, but the paper has no question ${number}.`, lineNo);
    const had = key.get(number);
    if (had && had.letter !== letter) out.note(`Line ${lineNo}: the answer key gives question ${number} twice (${had.letter} on line ${had.line}, ${letter}); the first was kept.`, lineNo);
    if (!had) key.set(number, { letter, line: lineNo });
  };

  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    if (!raw.trim()) {
      if (keyMode) keyEntry?.solution.at(-1)?.push('');
      else if (d?.phase === 'stem') d.prompt.push('');
      else if (d?.phase === 'options') d.gap = true;
      else if (d) d.solution.at(-1)?.push('');
      return;
    }
    if (pageFurniture(raw)) return out.note(`Line ${lineNo} ${quote(raw)} was left out as page furniture.`, lineNo);
    if (drafts.length && (keyHeading(raw) || keyTableHeader(raw)) && !(d?.phase === 'options' && /^(answer|key) ?:?$/i.test(flat(raw)))) {
      keyMode = true;
      keyEntry = null;
      return;
    }
    const pairs = drafts.length && (keyMode || d?.phase !== 'stem') ? keyPairs(raw) : null;
    if (pairs) {
      keyMode = true;
      for (const p of pairs) addKey(p.number, p.letter, lineNo);
      keyEntry = pairs.length === 1 ? (byNumber.get(pairs[0]!.number) ?? null) : null;
      keyEntry?.solution.push([]);
      return;
    }
    if (unnumbered?.has(i)) {
      const n = drafts.length + 1;
      d = { number: n, line: lineNo, prompt: [raw.trim()], options: [], gap: false, solution: [], phase: 'stem', notes: [] };
      drafts.push(d);
      byNumber.set(n, d);
      keyMode = false;
      pendingAnswer = false;
      return;
    }
    const qs = unnumbered ? null : questionStart(raw);
    if (keyMode) {
      const sol = solutionLine(raw);
      if (qs && byNumber.has(qs.number)) {
        keyEntry = byNumber.get(qs.number)!;
        const kv = /^[(\[]?([A-J])[)\]]?(?: ?[.:\-–—)] ?| |$)(.*)$/.exec(qs.text);
        let rest = qs.text;
        if (kv && !keyEntry.answer && !key.has(qs.number)) {
          addKey(qs.number, kv[1]!, lineNo);
          rest = kv[2]!.trim();
        }
        keyEntry.solution.push(rest ? [rest] : []);
        return;
      }
      if (qs && !optionsFollow(lines, i, qs.number)) return unplaced(raw, lineNo, `names question ${qs.number}, which the paper does not have`);
      if (!qs) {
        if (!keyEntry) return unplaced(raw, lineNo, 'comes after the answer key but belongs to no question');
        if (sol) addSolution(keyEntry, sol.label, sol.text);
        else (keyEntry.solution.at(-1) ?? (keyEntry.solution[0] = [])).push(raw.trim());
        return;
      }
      keyMode = false; // more questions after a key
      keyEntry = null;
    }
    const last: Draft | null = drafts.at(-1) ?? null;
    const next = last !== null && qs !== null && qs.number === last.number + 1;
    const accept = qs && (d && (d.phase === 'answer' || d.phase === 'solution') ? optionsFollow(lines, i, qs.number, true) : optionsFollow(lines, i, qs.number) || next);
    if (qs && accept) {
      if (last && qs.number !== last.number + 1) out.note(`Question numbers jump from ${last.number} to ${qs.number}.`, lineNo);
      if (byNumber.has(qs.number)) out.note(`Question ${qs.number} appears twice (lines ${byNumber.get(qs.number)!.line} and ${lineNo}); an answer key entry goes to the first.`, lineNo);
      d = { number: qs.number, line: lineNo, prompt: qs.text ? [qs.text] : [], options: [], gap: false, solution: [], phase: 'stem', notes: [] };
      drafts.push(d);
      if (!byNumber.has(qs.number)) byNumber.set(qs.number, d);
      pendingAnswer = false;
      return;
    }
    if (!d) {
      preamble.push(lineNo);
      return;
    }
    placeInQuestion(d, raw, lineNo);
  });

  /** A line inside question `q` (not a numbered question line). */
  function placeInQuestion(q: Draft, raw: string, lineNo: number): void {
    const opt = optionLine(raw);
    if (q.phase === 'stem' || q.phase === 'options') {
      if (opt && opt.letter === String.fromCharCode(65 + q.options.length)) {
        q.options.push(...splitInlineOptions(opt).slice(0, 10 - q.options.length));
        q.phase = 'options';
        q.gap = false;
        return;
      }
      if (q.phase === 'stem' && !answerLine(raw)) {
        q.prompt.push(raw.trim());
        return;
      }
    }
    const ans = answerLine(raw);
    if (pendingAnswer) {
      pendingAnswer = false;
      const letter = /^[(\[]?([A-Ja-j])[)\]]?\.?$/.exec(flat(raw));
      if (letter && !q.answer) return void (q.answer = { letter: letter[1]!.toUpperCase(), text: raw.trim(), line: lineNo }, q.phase = 'answer');
    }
    if (ans) {
      if (q.answer) return unplaced(raw, lineNo, `is a second answer for question ${q.number} (the answer on line ${q.answer.line} was kept)`);
      q.answer = { ...ans, line: lineNo };
      if (q.phase !== 'solution') q.phase = 'answer';
      if (ans.rest) q.solution.push([ans.rest]);
      return;
    }
    if (q.phase === 'options' && /^(answer|ans|key) ?:?$/i.test(flat(raw))) {
      pendingAnswer = true;
      return;
    }
    const sol = solutionLine(raw);
    if (sol && q.phase !== 'stem') {
      q.phase = 'solution';
      addSolution(q, sol.label, sol.text);
      return;
    }
    if (q.phase === 'options') {
      if (opt) return unplaced(raw, lineNo, `is option ${opt.letter} of question ${q.number}, which expected option ${String.fromCharCode(65 + q.options.length)} here`);
      if (!q.gap) q.options[q.options.length - 1] += `\n${raw.trim()}`; // an option running onto a second line
      else unplaced(raw, lineNo, `follows the options of question ${q.number} after a blank line and is neither an option nor an answer`);
      return;
    }
    if (q.phase === 'answer' && !q.solution.length) {
      q.solution.push([]);
      q.notes.push(`Line ${lineNo} ${quote(raw)} follows the answer of question ${q.number} without a "Solution:" or "Explanation:" label; it was kept as the question's explanation.`);
    }
    (q.solution.at(-1) ?? (q.solution[0] = [])).push(raw.trim());
  }

  if (preamble.length) {
    const first = drafts[0];
    out.note(`Lines ${preamble[0]}–${preamble.at(-1)} come before the first question${first ? ` (${first.number}, line ${first.line})` : ''} and were not imported (title, instructions).`, preamble[0]);
  }
  for (const q of drafts) finish(q);
  return out.result;

  function finish(q: Draft): void {
    const prompt = joinLines(q.prompt);
    const fromKey = key.get(q.number);
    if (q.answer?.letter && fromKey && fromKey.letter !== q.answer.letter && byNumber.get(q.number) === q) {
      q.notes.push(`Question ${q.number}: the answer line says ${q.answer.letter} but the answer key (line ${fromKey.line}) says ${fromKey.letter}; the answer line was kept.`);
    }
    const answer = q.answer ?? (fromKey && byNumber.get(q.number) === q ? { letter: fromKey.letter, text: fromKey.letter, line: fromKey.line } : undefined);
    const label = `question ${q.number}`;
    if (!prompt) return out.skip(`${label} has no question text`, q.line);
    if (q.options.length < 2) return out.skip(`${label} needs at least two options, found ${q.options.length}`, q.line);
    if (!answer) {
      out.skip(`missing answer: ${label} has no answer line and no answer key entry`, q.line);
      return out.note(`Question ${q.number} ("${excerpt(prompt)}") has a missing answer; it was skipped.`, q.line);
    }
    const idx = answer.letter ? answer.letter.charCodeAt(0) - 65 : q.options.findIndex((o) => comparableText(o).toLowerCase() === comparableText(answer.text).toLowerCase());
    if (idx < 0 || idx >= q.options.length) {
      out.skip(`${label}: answer "${answer.text}" (line ${answer.line}) does not name one of its options A–${String.fromCharCode(64 + q.options.length)}`, q.line);
      return out.note(`Question ${q.number}: the answer "${answer.text}" on line ${answer.line} names no option; the question was skipped.`, answer.line);
    }
    const explanation = q.solution.map(joinLines).filter(Boolean).join('\n\n');
    out.add({ type: 'MCQ', prompt, marks: 1, options: labelledOptions(q.options.map((o) => o.trim()), idx), ...(explanation ? { explanation } : {}) }, q.line, q.notes);
  }
}
