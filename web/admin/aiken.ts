/**
 * Client-side parser for Aiken-format multiple-choice text, the plain layout examiners
 * type in Word (Moodle's "Aiken format" documentation):
 *
 *     What is the chemical symbol for sodium?
 *     A. So
 *     B) Na
 *     ANSWER: B
 *
 * A question is its prompt lines, two or more options labelled `A.`/`A)` in order, and an
 * `ANSWER: X` line. Blank lines between questions are optional. Used when the server's
 * POST /questions/import is not available, and for the preview before importing.
 */
import type { Question } from './types.js';

export interface AikenError {
  /** 1-based line number in the pasted text */
  line: number;
  message: string;
}

export interface AikenResult {
  questions: Question[];
  errors: AikenError[];
}

const OPTION = /^([A-Za-z])\s*[.)]\s+(.*)$/;
const ANSWER = /^ANSWER\s*:\s*([A-Za-z])\s*$/i;

/** Parses Aiken text into MCQ QuestionInputs (1 mark each) and per-line errors. */
export function parseAiken(text: string, marks = 1): AikenResult {
  const questions: Question[] = [];
  const errors: AikenError[] = [];
  let prompt: string[] = [];
  let options: Array<{ label: string; text: string }> = [];
  let startLine = 0;

  const reset = () => {
    prompt = [];
    options = [];
  };
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const n = i + 1;
    if (!line) {
      // a blank line inside a question is tolerated only between prompt paragraphs
      if (prompt.length && !options.length) prompt.push('');
      return;
    }
    const answer = ANSWER.exec(line);
    if (answer) {
      const label = answer[1]!.toUpperCase();
      if (!prompt.length) errors.push({ line: n, message: 'ANSWER line without a question before it.' });
      else if (options.length < 2) errors.push({ line: n, message: `Question at line ${startLine} needs at least two options.` });
      else if (!options.some((o) => o.label === label)) errors.push({ line: n, message: `Answer ${label} is not one of the options ${options.map((o) => o.label).join(', ')}.` });
      else {
        questions.push({
          type: 'MCQ',
          marks,
          prompt: prompt.join('\n').trim(),
          options: options.map((o) => ({ keyLabel: o.label, text: o.text, isCorrect: o.label === label })),
        });
      }
      reset();
      return;
    }
    const option = prompt.length ? OPTION.exec(line) : null;
    if (option) {
      const label = option[1]!.toUpperCase();
      const expected = String.fromCharCode(65 + options.length);
      if (label !== expected) errors.push({ line: n, message: `Option ${label} found where ${expected} was expected.` });
      options.push({ label, text: option[2]!.trim() });
      return;
    }
    if (options.length) {
      // text after the options that is neither an option nor the answer: the ANSWER line is missing
      errors.push({ line: n, message: `Question at line ${startLine} has no ANSWER line.` });
      reset();
    }
    if (!prompt.length) startLine = n;
    prompt.push(line);
  });
  if (prompt.length) errors.push({ line: startLine, message: `Question at line ${startLine} has no ANSWER line.` });
  return { questions, errors };
}
