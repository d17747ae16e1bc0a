/**
 * One spreadsheet row (its cell texts by column) → a QuestionInput, or the row's
 * errors. Rules (docs/design.md §6 and the template's Instructions sheet):
 * - Type: MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY (or an alias such as "True/False",
 *   "Essay"); empty means MCQ when options are filled.
 * - Marks: a number > 0; empty means 1.
 * - MCQ: Option A, Option B … filled without gaps (2–10); Correct names one filled
 *   option by its letter.
 * - TRUE_FALSE: options default to True / False; Correct is True/False (or T/F) or a letter.
 * - Essays: no options; MinWords/MaxWords default to 20/100 (short) and 150/800 (long);
 *   Correct is ignored.
 * - Rubric: JSON `{name, totalMarks, criteria: [{title, maxMarks, …}]}` (optional).
 */
import { COLUMN_TITLES, OPTION_LETTERS, TYPE_ALIASES, type ColumnKey } from './columns.js';
import { ESSAY_WORDS, type ImportedQuestion, type QuestionType } from '../types.js';

/** A per-cell problem: Excel row number (1-based), column title, message. */
export interface SheetError {
  row: number;
  column: string | null;
  message: string;
}

export type RowValues = Partial<Record<ColumnKey, string>>;

const title = (k: ColumnKey) => COLUMN_TITLES[k];

function parseType(raw: string, hasOptions: boolean): QuestionType | null {
  if (!raw) return hasOptions ? 'MCQ' : null;
  return TYPE_ALIASES[raw.toUpperCase().replace(/[^A-Z]+/g, '_').replace(/^_|_$/g, '')] ?? null;
}

function parseCount(raw: string | undefined, key: ColumnKey, row: number, errors: SheetError[]): number | undefined {
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    errors.push({ row, column: title(key), message: `${title(key)} must be a whole number of words, got "${raw}".` });
    return undefined;
  }
  return n;
}

/**
 * Converts a row. @param row the Excel row number, used in errors
 * @returns `{question}` or `{errors}` (never both)
 */
export function rowToQuestion(v: RowValues, row: number): { question: ImportedQuestion } | { errors: SheetError[] } {
  const errors: SheetError[] = [];
  const err = (key: ColumnKey | null, message: string) => errors.push({ row, column: key ? title(key) : null, message });

  const optionTexts = OPTION_LETTERS.map((l) => v[`option${l}`] ?? '');
  const lastFilled = optionTexts.reduce((last, t, i) => (t ? i : last), -1);
  const gap = optionTexts.findIndex((t, i) => !t && i < lastFilled);
  if (gap >= 0) err(`option${OPTION_LETTERS[gap]!}`, `Option ${OPTION_LETTERS[gap]} is empty but a later option is filled; fill the options from Option A without gaps.`);
  const options = optionTexts.slice(0, lastFilled + 1);

  const type = parseType(v.type ?? '', options.length > 0);
  if (!type) err('type', v.type ? `Type "${v.type}" is not one of MCQ, TRUE_FALSE, SHORT_ESSAY, LONG_ESSAY.` : 'Type is empty and no options are filled.');
  const prompt = v.prompt ?? '';
  if (!prompt) err('prompt', 'Prompt is empty.');

  let marks = 1;
  if (v.marks) {
    marks = Number(v.marks);
    if (!Number.isFinite(marks) || marks <= 0) err('marks', `Marks must be a number greater than 0, got "${v.marks}".`);
  }

  let rubric: ImportedQuestion['rubric'];
  if (v.rubric) {
    try {
      rubric = JSON.parse(v.rubric) as ImportedQuestion['rubric'];
    } catch {
      err('rubric', 'Rubric must be JSON such as {"name": "…", "totalMarks": 10, "criteria": [{"title": "…", "maxMarks": 10}]}.');
    }
  }

  const common = {
    prompt,
    marks,
    ...(v.explanation ? { explanation: v.explanation } : {}),
    ...(v.section ? { section: v.section } : {}),
  };
  let question: ImportedQuestion | null = null;

  if (type === 'MCQ' || type === 'TRUE_FALSE') {
    const texts = type === 'TRUE_FALSE' && options.length === 0 ? ['True', 'False'] : options;
    const correct = correctIndex(type, v.correct ?? '', texts);
    if (type === 'MCQ' && texts.length < 2) err('optionB', `An MCQ needs at least two options (Option A and Option B); found ${texts.length}.`);
    if (type === 'TRUE_FALSE' && texts.length !== 2) err('optionC', 'A TRUE_FALSE question has exactly two options (True and False).');
    if (typeof correct === 'string') err('correct', correct);
    else if (!errors.length) {
      question = { ...common, type, options: texts.map((text, i) => ({ keyLabel: OPTION_LETTERS[i]!, text, isCorrect: i === correct })) };
    }
  } else if (type) {
    if (options.length) err('optionA', `${type} questions have no options; clear Option A… or change the Type.`);
    const minWords = parseCount(v.minWords, 'minWords', row, errors) ?? ESSAY_WORDS[type].minWords;
    const maxWords = parseCount(v.maxWords, 'maxWords', row, errors) ?? ESSAY_WORDS[type].maxWords;
    if (!errors.length) {
      question = { ...common, type, minWords, maxWords, ...(v.modelAnswer ? { modelAnswer: v.modelAnswer } : {}), ...(rubric ? { rubric } : {}) };
    }
  }
  return question && !errors.length ? { question } : { errors };
}

/** Index of the correct option, or an error message for the Correct column. */
function correctIndex(type: QuestionType, raw: string, texts: string[]): number | string {
  const r = raw.trim();
  const range = `A–${OPTION_LETTERS[Math.max(texts.length - 1, 0)]}`;
  if (!r) return `Correct is empty: give the letter of the right option (${range}).`;
  const letter = /^(?:option\s*)?([A-J])$/i.exec(r);
  if (letter) {
    const i = letter[1]!.toUpperCase().charCodeAt(0) - 65;
    return i < texts.length ? i : `Correct is "${r}" but Option ${letter[1]!.toUpperCase()} is empty (filled: ${range}).`;
  }
  if (type === 'TRUE_FALSE' && /^(true|t|yes|false|f|no)$/i.test(r)) {
    const want = /^(true|t|yes)$/i.test(r) ? 'true' : 'false';
    const i = texts.findIndex((t) => t.trim().toLowerCase() === want);
    if (i >= 0) return i;
  }
  if (/[,;/ ]/.test(r)) return `Correct is "${r}": give exactly one letter (an MCQ has exactly one correct option).`;
  return type === 'TRUE_FALSE' ? `Correct must be True or False (or A/B), got "${r}".` : `Correct must be the letter of one of the options (${range}), got "${r}".`;
}
