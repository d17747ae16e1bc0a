/**
 * The columns of a question spreadsheet (docs/design.md §6): Type, Prompt, Marks, Option A …
 * Option F (up to Option J, since a question may have 10 options), Correct,
 * Explanation, Section, MinWords, MaxWords, ModelAnswer — plus Rubric (a JSON
 * rubric, HallCBT's own addition so that an exported exam re-imports unchanged).
 * Headers are matched case- and space-insensitively ("option a", "Min words",
 * "MODEL_ANSWER" all work) with a few common aliases; other columns are ignored.
 */

export type ColumnKey =
  | 'type'
  | 'prompt'
  | 'marks'
  | 'correct'
  | 'explanation'
  | 'section'
  | 'minWords'
  | 'maxWords'
  | 'modelAnswer'
  | 'rubric'
  | `option${OptionLetter}`;

export const OPTION_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'] as const;
export type OptionLetter = (typeof OPTION_LETTERS)[number];

/** Header text written by our template and exports, per column. */
export const COLUMN_TITLES: Record<ColumnKey, string> = {
  type: 'Type',
  prompt: 'Prompt',
  marks: 'Marks',
  correct: 'Correct',
  explanation: 'Explanation',
  section: 'Section',
  minWords: 'MinWords',
  maxWords: 'MaxWords',
  modelAnswer: 'ModelAnswer',
  rubric: 'Rubric',
  ...(Object.fromEntries(OPTION_LETTERS.map((l) => [`option${l}`, `Option ${l}`])) as Record<`option${OptionLetter}`, string>),
};

const ALIASES: Record<string, ColumnKey> = {
  type: 'type',
  questiontype: 'type',
  prompt: 'prompt',
  question: 'prompt',
  questiontext: 'prompt',
  marks: 'marks',
  mark: 'marks',
  points: 'marks',
  correct: 'correct',
  correctanswer: 'correct',
  correctoption: 'correct',
  answer: 'correct',
  answerkey: 'correct',
  key: 'correct',
  explanation: 'explanation',
  feedback: 'explanation',
  section: 'section',
  minwords: 'minWords',
  maxwords: 'maxWords',
  modelanswer: 'modelAnswer',
  rubric: 'rubric',
};

/** "Option B" / "option_b" / "OPTIONB" → "optionb"; "Min Words" → "minwords". */
export function normaliseHeader(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The column a header names, or null for a column we ignore. */
export function columnForHeader(text: string): ColumnKey | null {
  const n = normaliseHeader(text);
  const opt = /^(?:option|choice)([a-j])$/.exec(n);
  if (opt) return `option${opt[1]!.toUpperCase() as OptionLetter}`;
  return ALIASES[n] ?? null;
}

/** Column order of our template and exports (options A–F at least, more when needed). */
export function exportColumns(optionCount: number, withRubric: boolean): ColumnKey[] {
  const n = Math.min(Math.max(optionCount, 6), OPTION_LETTERS.length);
  return [
    'type',
    'prompt',
    'marks',
    ...OPTION_LETTERS.slice(0, n).map((l) => `option${l}` as const),
    'correct',
    'explanation',
    'section',
    'minWords',
    'maxWords',
    'modelAnswer',
    ...(withRubric ? (['rubric'] as const) : []),
  ];
}

/** Spreadsheet type names → our question types (upper-cased, non-letters as "_"). */
export const TYPE_ALIASES: Record<string, 'MCQ' | 'TRUE_FALSE' | 'SHORT_ESSAY' | 'LONG_ESSAY'> = {
  MCQ: 'MCQ',
  MULTIPLE_CHOICE: 'MCQ',
  OBJECTIVE: 'MCQ',
  TRUE_FALSE: 'TRUE_FALSE',
  TRUEFALSE: 'TRUE_FALSE',
  TRUE_OR_FALSE: 'TRUE_FALSE',
  TF: 'TRUE_FALSE',
  T_F: 'TRUE_FALSE',
  SHORT_ESSAY: 'SHORT_ESSAY',
  SHORT_ANSWER: 'SHORT_ESSAY',
  SHORT: 'SHORT_ESSAY',
  LONG_ESSAY: 'LONG_ESSAY',
  ESSAY: 'LONG_ESSAY',
  LONG: 'LONG_ESSAY',
};
