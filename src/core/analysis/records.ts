/**
 * Plain shapes of stored results, as the hall's database reads them (snake_case columns)
 * and as the item analysis and the results exports take them. Times are epoch ms.
 */
import type { ExamAnalysis } from './item-analysis.js';

/** One attempt of an exam. `pending_review` is 0 or 1. */
export interface AttemptRecord {
  id: string;
  student_id: string;
  candidate_name: string;
  status: 'IN_PROGRESS' | 'COMPLETED' | 'DISQUALIFIED';
  started_at: number;
  completed_at: number | null;
  disqualified_at: number | null;
  credited_ms: number;
  violations: number;
  score: number | null;
  max_score: number | null;
  percentage: number | null;
  grade: string | null;
  pending_review: number;
}

/** One stored answer; `review_json` is set once an examiner approved an essay score. */
export interface AnswerRecord {
  attempt_id: string;
  question_id: string;
  option_id: string | null;
  text: string | null;
  awarded_marks: number | null;
  review_json: string | null;
}

/** The item analysis of one exam, named and dated (`generatedAt` ISO 8601). */
export interface ExamAnalysisReport extends ExamAnalysis {
  examId: string;
  examTitle: string;
  generatedAt: string;
}
