/**
 * The domain's shapes of stored results, as the item analysis and the results exports take
 * them: one attempt (`AttemptRecord`) and one answer (`AnswerRecord`). Each program maps
 * its own store to these at its edge — the hall its SQLite rows (modules/imports/
 * exam-data.ts), the hub its result events (hub/results.ts). Times are epoch ms.
 */
import type { AttemptStatus } from '../attempts.js';
import type { AnswerForGrading } from '../grading/grade.js';
import type { ExamAnalysis } from './item-analysis.js';
import type { SectionScore } from '../grading/section-scores.js';

/** One attempt of an exam; `score` … `grade` are null until it is graded (in progress, disqualified). */
export interface AttemptRecord {
  /** the attempt's id (the key of its answers) */
  id: string;
  studentId: string;
  candidateName: string;
  status: AttemptStatus;
  /** epoch ms */
  startedAt: number;
  /** epoch ms, null until completed */
  completedAt: number | null;
  /** time credited back for stoppages, ms */
  creditedMs: number;
  violations: number;
  score: number | null;
  maxScore: number | null;
  percentage: number | null;
  grade: string | null;
  /** an answered essay still awaits an examiner's approved score */
  pendingReview: boolean;
  /**
   * the ids of the questions this candidate was given, when that is not the whole paper
   * (an exam with sections: their draws and subjects, issue 37); absent or null: every question
   */
  questionIds?: string[] | null;
  /** per-section scores (issue 37 item 5); absent or null when the exam has no sections */
  sectionScores?: SectionScore[] | null;
}

/**
 * One stored answer, as grading takes it (core/grading/grade.ts): the chosen option, the
 * essay text, and `approvedMarks` — the examiner-approved marks of an essay, null until an
 * examiner approved them (docs/design.md §7).
 */
export type AnswerRecord = AnswerForGrading;

/** The item analysis of one exam, named and dated (`generatedAt` ISO 8601). */
export interface ExamAnalysisReport extends ExamAnalysis {
  examId: string;
  examTitle: string;
  generatedAt: string;
}
