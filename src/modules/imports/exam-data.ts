/**
 * Read side of the exports and item analysis: an exam's questions, attempts and
 * stored answers, each read with a prepared statement scoped by workspace_id
 * (docs/design.md §13: every query is scoped by the caller's workspace).
 *
 * Answers are read from the database. Answers of attempts still IN_PROGRESS may sit in
 * the in-memory buffer for up to CBT_FLUSH_INTERVAL_MS, so results exports show flushed
 * answers; completed attempts are always fully flushed (finalize flushes in the same
 * transaction that completes the attempt).
 *
 * This is the one place the hall maps its attempt and answer rows to the domain's result
 * shapes (core/analysis/records.ts) that the analysis and the exports take.
 */
import type { HallDeps } from '../../hall/deps.js';
import { getExamInWorkspace } from '../exams/index.js';
import { serializeQuestion } from '../questions/index.js';
import type { AnswerRow, AttemptRow, ExamRow, QuestionRow } from '../../db/rows.js';
import type { StoredQuestion } from '../../core/questions/schemas.js';
import { parseLayout, sectionedLayoutSql } from '../../core/exams/layout-codec.js';
import type { AnswerRecord, AttemptRecord } from '../../core/analysis/records.js';

export type { AnswerRecord, AttemptRecord } from '../../core/analysis/records.js';

/** The attempt columns the results read, and its layout when it was laid out by sections. */
type ResultAttemptRow = Pick<AttemptRow, 'id' | 'student_id' | 'candidate_name' | 'status' | 'started_at' | 'completed_at' | 'credited_ms' | 'violations' | 'score' | 'max_score' | 'percentage' | 'grade' | 'pending_review' | 'section_scores_json'> & {
  sectioned_layout: string | null;
};
/** The answer columns the results read. */
type ResultAnswerRow = Pick<AnswerRow, 'attempt_id' | 'question_id' | 'option_id' | 'text' | 'awarded_marks' | 'review_json'>;

/**
 * The hall's edge between its rows and the domain's result shapes (core/analysis/records.ts):
 * an attempt row as an {@link AttemptRecord} (`pending_review` 0/1 → boolean).
 */
function attemptRecord(r: ResultAttemptRow): AttemptRecord {
  return {
    id: r.id,
    studentId: r.student_id,
    candidateName: r.candidate_name,
    status: r.status,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    creditedMs: r.credited_ms,
    violations: r.violations,
    score: r.score,
    maxScore: r.max_score,
    percentage: r.percentage,
    grade: r.grade,
    pendingReview: Boolean(r.pending_review),
    // a sectioned layout is the candidate's whole paper (sessions/paper.ts): the questions they were given
    questionIds: r.sectioned_layout ? parseLayout(r.sectioned_layout).map((l) => l.questionId) : null,
    sectionScores: r.section_scores_json ? JSON.parse(r.section_scores_json) : null,
  };
}

/**
 * An answer row as an {@link AnswerRecord}: `awarded_marks` counts as approved only once an
 * examiner's review is stored (`review_json` set; docs/design.md §7), as finalize grades it.
 */
function answerRecord(r: ResultAnswerRow): AnswerRecord {
  return { questionId: r.question_id, optionId: r.option_id, text: r.text, approvedMarks: r.review_json ? r.awarded_marks : null };
}

/** The exam (of this workspace) with its questions in position order. @throws NotFound */
export function examWithQuestions(deps: HallDeps, workspaceId: string, examId: string): { exam: ExamRow; questions: StoredQuestion[] } {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const rows = deps.sqlite.prepare('SELECT * FROM questions WHERE exam_id = ? AND workspace_id = ? ORDER BY position, id').all(exam.id, workspaceId) as QuestionRow[];
  return { exam, questions: rows.map(serializeQuestion) };
}

/**
 * Attempts of an exam in start order (the order of GET /exams/:id/attempts), with the
 * questions each was given when its layout was laid out by sections (issue 37; only those
 * layouts are read and parsed).
 */
export function examAttemptRecords(deps: HallDeps, workspaceId: string, examId: string): AttemptRecord[] {
  const rows = deps.sqlite
    .prepare(
      `SELECT t.id, t.student_id, t.candidate_name, t.status, t.started_at, t.completed_at, t.credited_ms, t.violations,
              t.score, t.max_score, t.percentage, t.grade, t.pending_review, t.section_scores_json,
              CASE WHEN ${sectionedLayoutSql('l.layout_json')} THEN l.layout_json END AS sectioned_layout
         FROM attempts t LEFT JOIN attempt_layouts l ON l.attempt_id = t.id
        WHERE t.exam_id = ? AND t.workspace_id = ? ORDER BY t.started_at, t.id`,
    )
    .all(examId, workspaceId) as ResultAttemptRow[];
  return rows.map(attemptRecord);
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
    .all(examId, workspaceId) as ResultAnswerRow[];
  const out = new Map<string, Map<string, AnswerRecord>>();
  for (const r of rows) {
    let m = out.get(r.attempt_id);
    if (!m) out.set(r.attempt_id, (m = new Map()));
    m.set(r.question_id, answerRecord(r));
  }
  return out;
}
