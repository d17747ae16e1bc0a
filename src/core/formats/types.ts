/**
 * Shapes shared by the question-bank parsers (Aiken, GIFT, Moodle XML, past-paper
 * Markdown, pasted papers, QTI 3.0) and the spreadsheet reader. Every parser is a pure function
 * `text → ParseResult`; nothing here touches the database.
 *
 * `ImportedQuestion` is the QuestionInput of docs/api-overview.md (the question
 * service validates it again before anything is stored).
 */

export type QuestionType = 'MCQ' | 'TRUE_FALSE' | 'SHORT_ESSAY' | 'LONG_ESSAY';

export interface ImportedOption {
  keyLabel?: string;
  text: string;
  isCorrect: boolean;
}

export interface ImportedRubric {
  name: string;
  totalMarks: number;
  criteria: { id?: string; title: string; maxMarks: number; description?: string }[];
}

/** QuestionInput (docs/api-overview.md). Optional fields are omitted, never null. */
export interface ImportedQuestion {
  prompt: string;
  type: QuestionType;
  marks: number;
  options?: ImportedOption[];
  explanation?: string;
  section?: string;
  minWords?: number;
  maxWords?: number;
  modelAnswer?: string;
  rubric?: ImportedRubric;
  difficulty?: 'simple' | 'intermediate' | 'hard';
  citation?: string;
}

/**
 * Something worth the examiner's attention on a question that was still imported.
 * `index` is the position in `ParseResult.questions`; `line` is the 1-based source line
 * where that question starts.
 */
export interface ImportWarning {
  index?: number;
  line?: number;
  message: string;
}

/**
 * A source item that could not become a question. `index` is the 0-based ordinal of the
 * item in the source (counting every item, imported or not); `line` its 1-based line.
 */
export interface SkippedItem {
  index?: number;
  line?: number;
  reason: string;
}

export interface ParseResult {
  questions: ImportedQuestion[];
  warnings: ImportWarning[];
  skipped: SkippedItem[];
  /** 1-based source line (or spreadsheet row) of each question, parallel to `questions` */
  lines: (number | null)[];
}

/** Question-bank text formats POST /questions/import understands. */
export const BANK_FORMATS = ['aiken', 'gift', 'moodle-xml', 'past-paper', 'pasted-paper', 'qti'] as const;
export type BankFormat = (typeof BANK_FORMATS)[number];

/** Letters used as default option key labels (docs/design.md §6: A, B, C…; at most 10 options). */
export const KEY_LABELS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'] as const;

/** Default essay word bounds (docs/design.md §6). */
export const ESSAY_WORDS = {
  SHORT_ESSAY: { minWords: 20, maxWords: 100 },
  LONG_ESSAY: { minWords: 150, maxWords: 800 },
} as const;

/** A source that cannot be read at all (malformed XML, unknown format). */
export class BankFormatError extends Error {
  constructor(
    message: string,
    /** 1-based line of the problem, when known */
    readonly line?: number,
  ) {
    super(message);
  }
}
