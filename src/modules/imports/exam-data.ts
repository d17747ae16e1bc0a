/**
 * Read side of the exports and item analysis: an exam's questions, attempts and
 * stored answers, each read with a prepared statement scoped by workspace_id
 * (docs/design.md §13: every query is scoped by the caller's workspace).
 *
 * Answers are read from the database. Answers of attempts still IN_PROGRESS may sit in
 * the in-memory buffer for up to CBT_FLUSH_INTERVAL_MS, so results exports show flushed
 * answers; completed attempts are always fully flushed (finalize flushes in the same
 * transaction that completes the attempt).
 */
import type { HallDeps } from '../../hall/deps.js';
import { getExamInWorkspace } from '../exams/service.js';
import { serializeQuestion } from '../questions/service.js';
import type { ExamRow, QuestionRow } from '../../db/rows.js';
import type { StoredQuestion } from '../../core/questions/schemas.js';
import type { AnswerRecord, AttemptRecord } from '../../core/analysis/records.js';

export type { AnswerRecord, AttemptRecord } from '../../core/analysis/records.js';

/** The exam (of this workspace) with its questions in position order. @throws NotFound */
export function examWithQuestions(deps: HallDeps, workspaceId: string, examId: string): { exam: ExamRow; questions: StoredQuestion[] } {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const rows = deps.sqlite.prepare('SELECT * FROM questions WHERE exam_id = ? AND workspace_id = ? ORDER BY position, id').all(exam.id, workspaceId) as QuestionRow[];
  return { exam, questions: rows.map(serializeQuestion) };
}

/** Attempts of an exam in start order (the order of GET /exams/:id/attempts). */
export function examAttemptRecords(deps: HallDeps, workspaceId: string, examId: string): AttemptRecord[] {
  return deps.sqlite
    .prepare(
      `SELECT id, student_id, candidate_name, status, started_at, completed_at, disqualified_at, credited_ms, violations,
              score, max_score, percentage, grade, pending_review
         FROM attempts WHERE exam_id = ? AND workspace_id = ? ORDER BY started_at, id`,
    )
    .all(examId, workspaceId) as AttemptRecord[];
}

/** The exam's roster candidates (student ID and name, by student ID), for the results' ABSENT rows. */
export function listRosterNames(deps: HallDeps, workspaceId: string, examId: string): { studentId: string; candidateName: string }[] {
  return deps.sqlite
    .prepare('SELECT student_id AS studentId, candidate_name AS candidateName FROM roster_entries WHERE exam_id = ? AND workspace_id = ? ORDER BY student_id')
    .all(examId, workspaceId) as { studentId: string; candidateName: string }[];
}

/** Stored answers of every attempt of an exam, by attempt id then question id. */
export function examAnswerRecords(deps: HallDeps, workspaceId: string, examId: string): Map<string, Map<string, AnswerRecord>> {
  const rows = deps.sqlite
    .prepare(
      `SELECT a.attempt_id, a.question_id, a.option_id, a.text, a.awarded_marks, a.review_json
         FROM answers a JOIN attempts t ON t.id = a.attempt_id
        WHERE t.exam_id = ? AND t.workspace_id = ?`,
    )
    .all(examId, workspaceId) as AnswerRecord[];
  const out = new Map<string, Map<string, AnswerRecord>>();
  for (const r of rows) {
    let m = out.get(r.attempt_id);
    if (!m) out.set(r.attempt_id, (m = new Map()));
    m.set(r.question_id, r);
  }
  return out;
}
