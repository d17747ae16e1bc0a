/**
 * Examiner review of essay answers (issue 7 "Examiner workflow", docs/design.md §7/§10): the
 * review queue of an exam, and approving (or adjusting) a score per rubric criterion,
 * which re-scores the completed attempt (percentage and grade recomputed), writes an
 * audit row and queues `exam.attempt.regraded` — all in one transaction.
 * Recommended scores come from POST /api/cbt/ai/grade-essay; the examiner decides. The
 * score itself is checked by the core (core/grading/essay-score.ts); this file stores it
 * on the attempt (routes: modules/grading/routes.ts). Checking an approval and writing it
 * are apart, so a group approval (calibrated-review.ts) checks all before writing any.
 */
import type { HallDeps } from '../../hall/deps.js';
import { Conflict, NotFound, ValidationError } from '../../platform/errors.js';
import { writeAudit } from '../../hall/audit.js';
import { iso } from '../../platform/clock.js';
import { essayScore, type EssayScoreInput } from '../../core/grading/essay-score.js';
import { getExamInWorkspace } from '../exams/index.js';
import { attemptInWorkspace, storeGrade, recordAttemptEvent } from '../attempts/index.js';
import type { AttemptRow } from '../../db/rows.js';
import type { Paper } from '../sessions/index.js';

const words = (t: string) => (t.trim() ? t.trim().split(/\s+/).length : 0);

/** Essay answers of an exam's completed attempts; `status` filters pending or reviewed, `questionId` (when given) one question's. */
export function essayQueue(deps: HallDeps, workspaceId: string, examId: string, status: 'pending' | 'reviewed' | 'all', questionId?: string) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const paper = deps.sessions.paper(exam.id)!;
  const essays = paper.questions.filter((q) => (q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY') && (!questionId || q.id === questionId));
  if (!essays.length) return [];
  const rows = deps.sqlite
    .prepare(
      `SELECT t.id AS attempt_id, t.student_id, t.candidate_name, t.completed_at, a.question_id, a.text, a.awarded_marks, a.review_json
       FROM attempts t JOIN answers a ON a.attempt_id = t.id
       WHERE t.exam_id = ? AND t.status = 'COMPLETED' AND a.text IS NOT NULL AND trim(a.text) <> ''
       ORDER BY t.completed_at, t.id`,
    )
    .all(exam.id) as { attempt_id: string; student_id: string; candidate_name: string; completed_at: number; question_id: string; text: string; awarded_marks: number | null; review_json: string | null }[];
  const byId = new Map(essays.map((q) => [q.id, q]));
  return rows
    .filter((r) => byId.has(r.question_id))
    .filter((r) => status === 'all' || (status === 'pending' ? !r.review_json : !!r.review_json))
    .map((r) => {
      const q = byId.get(r.question_id)!;
      return {
        attemptId: r.attempt_id,
        studentId: r.student_id,
        candidateName: r.candidate_name,
        completedAt: iso(r.completed_at),
        questionId: q.id,
        prompt: q.prompt,
        marks: q.marks,
        minWords: q.minWords,
        maxWords: q.maxWords,
        modelAnswer: q.modelAnswer,
        rubric: q.rubric,
        text: r.text,
        wordCount: words(r.text),
        review: r.review_json ? { ...JSON.parse(r.review_json), awardedMarks: r.awarded_marks } : null,
      };
    });
}

export interface ApproveInput extends EssayScoreInput {
  feedback?: string;
  reason?: string;
  /** the engine's recommendation the examiner started from, kept for the record */
  recommended?: unknown;
}

/**
 * Checks one approval before anything is written: the attempt is the caller's, submitted
 * and answered this essay question, and the marks are valid for it (core/grading/essay-score.ts).
 * Returns the attempt's paper and the total awarded (half marks).
 * @throws NotFound (attempt, or essay question of it), Conflict (not submitted, no answer), ValidationError
 */
export function checkEssayApproval(deps: HallDeps, workspaceId: string, attemptId: string, questionId: string, input: ApproveInput): { paper: Paper; examId: string; total: number } {
  const { st, paper } = attemptInWorkspace(deps, workspaceId, attemptId);
  const q = paper.byId.get(questionId);
  if (!q || (q.type !== 'SHORT_ESSAY' && q.type !== 'LONG_ESSAY')) throw new NotFound('Essay question of this attempt');
  if (st.row.status !== 'COMPLETED') throw new Conflict('Essays are reviewed once the attempt is submitted.');
  const ans = deps.sqlite.prepare('SELECT text FROM answers WHERE attempt_id = ? AND question_id = ?').get(attemptId, questionId) as { text: string | null } | undefined;
  if (!ans?.text?.trim()) throw new Conflict('The candidate did not answer this question; there is nothing to review.');
  const verdict = essayScore(q, input);
  if (!verdict.ok) throw new ValidationError(verdict.detail, verdict.errors);
  return { paper, examId: st.row.exam_id, total: verdict.total };
}

/**
 * Writes one checked approval; call inside the caller's transaction. Stores the marks and
 * the review on the answer, re-grades the attempt, writes the audit row `essay.approve`
 * (`detail` adds to its questionId and awardedMarks) and queues `exam.attempt.regraded`.
 * Returns the re-graded attempt row and the event's id.
 */
export function writeEssayApproval(deps: HallDeps, workspaceId: string, paper: Paper, attemptId: string, questionId: string, input: ApproveInput, total: number, now: number, detail: Record<string, unknown> = {}): { row: AttemptRow; eventId: string } {
  const review = { criteriaScores: input.criteriaScores ?? null, feedback: input.feedback ?? null, reviewedAt: iso(now), recommended: input.recommended ?? null };
  deps.sqlite.prepare('UPDATE answers SET awarded_marks = ?, review_json = ? WHERE attempt_id = ? AND question_id = ?').run(total, JSON.stringify(review), attemptId, questionId);
  storeGrade(deps, paper, attemptId);
  const row = deps.sqlite.prepare('SELECT * FROM attempts WHERE id = ?').get(attemptId) as AttemptRow;
  writeAudit(deps.sqlite, { workspaceId, action: 'essay.approve', targetType: 'attempt', targetId: attemptId, reason: input.reason ?? null, detail: { questionId, awardedMarks: total, ...detail }, at: now });
  return { row, eventId: recordAttemptEvent(deps.sqlite, paper, row, 'exam.attempt.regraded', now) };
}

/** After the commit: the session cache re-reads the attempt, the monitor and the outbox hear of it. */
export function announceEssayApproval(deps: HallDeps, examId: string, attemptId: string, eventId: string): void {
  deps.sessions.reloadAttempt(attemptId);
  deps.events.emit({ kind: 'attempt-changed', examId, attemptId });
  deps.events.emit({ kind: 'outbox-written', eventId });
}

/** An approval's outcome as the routes return it. */
export function approvalResult(attemptId: string, questionId: string, total: number, row: AttemptRow) {
  return { attemptId, questionId, awardedMarks: total, score: row.score, maxScore: row.max_score, percentage: row.percentage, grade: row.grade, pendingReview: !!row.pending_review };
}

/**
 * Approves an essay score: criteria scores (each within its maxMarks) or a total `score`
 * (within the question's marks), half-mark steps allowed (core/grading/essay-score.ts).
 * Re-grades the attempt, audited, in one transaction.
 * @throws NotFound, Conflict (attempt not completed, no answer), ValidationError
 */
export function approveEssayScore(deps: HallDeps, workspaceId: string, attemptId: string, questionId: string, input: ApproveInput) {
  const { paper, total } = checkEssayApproval(deps, workspaceId, attemptId, questionId, input);
  const now = deps.clock.now();
  const written = deps.sqlite.transaction(() => writeEssayApproval(deps, workspaceId, paper, attemptId, questionId, input, total, now))();
  announceEssayApproval(deps, paper.exam.id, attemptId, written.eventId);
  return approvalResult(attemptId, questionId, total, written.row);
}
