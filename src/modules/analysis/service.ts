/**
 * Item analysis of one exam of the caller's workspace (GET /exams/:id/analysis and the
 * "Item analysis" sheet of the results workbook): reads the stored results, builds the
 * response matrix and analyses it. Answers of attempts still in progress are not used
 * (only completed attempts are analysed, and they are always fully flushed).
 */
import type { HallDeps } from '../../hall/deps.js';
import { iso } from '../../platform/clock.js';
import { examAnswerRecords, examAttemptRecords, examWithQuestions } from '../imports/index.js';
import { analyseMatrix } from '../../core/analysis/item-analysis.js';
import type { ExamAnalysisReport } from '../../core/analysis/records.js';
import { buildMatrix } from '../../core/analysis/response-matrix.js';

export type { ExamAnalysisReport };

/** Analyses an exam. @throws NotFound when the exam is outside the workspace */
export function examAnalysis(deps: HallDeps, workspaceId: string, examId: string): ExamAnalysisReport {
  const { exam, questions } = examWithQuestions(deps, workspaceId, examId);
  const matrix = buildMatrix(questions, examAttemptRecords(deps, workspaceId, exam.id), examAnswerRecords(deps, workspaceId, exam.id));
  return { examId: exam.id, examTitle: exam.title, generatedAt: iso(deps.clock.now())!, ...analyseMatrix(matrix) };
}
