/**
 * The paper as grading sees it: questions with their options, answer keys and marks.
 * A plain value (no database row): the hall builds it from its rows (modules/sessions/
 * paper.ts), the hub from the sealed paper's questions (core/sync/messages.ts
 * `SealedQuestion`; hub/paper-copy.ts).
 */

/** One option of an objective question; `isCorrect` is the key. */
export interface PaperOption {
  id: string;
  keyLabel: string;
  text: string;
  isCorrect: boolean;
}

/** One question of the paper; `optionsById` indexes `options`. */
export interface PaperQuestion {
  id: string;
  type: 'MCQ' | 'TRUE_FALSE' | 'SHORT_ESSAY' | 'LONG_ESSAY';
  prompt: string;
  marks: number;
  section: string | null;
  minWords: number | null;
  maxWords: number | null;
  options: PaperOption[];
  optionsById: Map<string, PaperOption>;
  rubric: { name: string; totalMarks: number; criteria: { id: string; title: string; maxMarks: number; description: string }[] } | null;
  modelAnswer: string | null;
}

/** What gradeAttempt needs: the questions in paper order and the maximum score. */
export interface GradablePaper {
  questions: PaperQuestion[];
  byId: Map<string, PaperQuestion>;
  maxScore: number;
}
