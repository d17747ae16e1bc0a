/**
 * Completing an attempt (docs/api-overview.md, "POST /attempts/:id/submit", docs/design.md §7/§8): flush its
 * buffered answers, grade, store the result and write the `exam.attempt.completed`
 * outbox row — all in one transaction, so a crash leaves either nothing or all of it.
 * Idempotent: a completed attempt returns its stored result and writes no second event.
 * Shared by the candidate's submit, the expiry sweep and an invigilator's force-submit.
 */
import type { HallDeps } from '../../hall/deps.js';
import { Forbidden, NotFound } from '../../platform/errors.js';
import { recordAttemptEvent } from './attempt-events.js';
import { gradeAttempt, type AnswerForGrading } from '../../core/grading/grade.js';
import { attemptPaper, type Paper, type AttemptState } from '../sessions/index.js';
import { sectionScores } from '../../core/grading/section-scores.js';
import type { AttemptRow } from '../../db/rows.js';
import { resultFields } from './views.js';

/** Reads an attempt's stored answers for grading (essay marks count only once approved). */
export function answersForGrading(deps: HallDeps, attemptId: string): AnswerForGrading[] {
  const rows = deps.sqlite.prepare('SELECT question_id, option_id, text, awarded_marks, review_json FROM answers WHERE attempt_id = ?').all(attemptId) as {
    question_id: string; option_id: string | null; text: string | null; awarded_marks: number | null; review_json: string | null;
  }[];
  return rows.map((r) => ({ questionId: r.question_id, optionId: r.option_id, text: r.text, approvedMarks: r.review_json ? r.awarded_marks : null }));
}

/**
 * Grades and stores the result of an attempt inside the caller's transaction
 * (used by finalize and by essay re-grading): on the questions the attempt was given
 * (its layout: the whole paper, or its sections' questions), with per-section scores when
 * the exam has sections (issue 37 item 5; each question counted under the section it was
 * given under).
 */
export function storeGrade(deps: HallDeps, paper: Paper, attemptId: string): ReturnType<typeof gradeAttempt> {
  const layout = deps.sessions.layout(attemptId);
  const gradable = attemptPaper(paper, layout);
  const result = gradeAttempt(gradable, answersForGrading(deps, attemptId));
  let sections: string | null = null;
  if (paper.sections) {
    const givenUnder = new Map(layout.map((l) => [l.questionId, l.section]));
    const sectionOf = (id: string) => givenUnder.get(id) ?? gradable.byId.get(id)!.section ?? '';
    sections = JSON.stringify(sectionScores(paper.sections.map((s) => s.name), result.perQuestion, sectionOf, (id) => gradable.byId.get(id)!.marks));
  }
  const upd = deps.sqlite.prepare('UPDATE answers SET awarded_marks = ? WHERE attempt_id = ? AND question_id = ? AND review_json IS NULL');
  for (const q of result.perQuestion) if (q.isCorrect !== null) upd.run(q.awardedMarks, attemptId, q.questionId);
  deps.sqlite
    .prepare('UPDATE attempts SET score = ?, max_score = ?, percentage = ?, grade = ?, pending_review = ?, section_scores_json = ? WHERE id = ?')
    .run(result.score, result.maxScore, result.percentage, result.grade, result.pendingReview ? 1 : 0, sections, attemptId);
  return result;
}

/**
 * Finalizes an attempt.
 * @param how.autoSubmitted true for the expiry sweep and force-submit
 * @throws NotFound, Forbidden (disqualified)
 */
export function finalizeAttempt(deps: HallDeps, attemptId: string, how: { autoSubmitted: boolean }): AttemptRow {
  const st = deps.sessions.attempt(attemptId);
  if (!st) throw new NotFound('Attempt');
  if (st.row.status === 'COMPLETED') return st.row;
  if (st.row.status === 'DISQUALIFIED') throw new Forbidden('This attempt was disqualified for proctoring violations and is locked.', { code: 'DISQUALIFIED', attemptStatus: 'DISQUALIFIED' });
  const paper = deps.sessions.paper(st.row.exam_id)!;
  const now = deps.clock.now();
  let eventId: string | null = null;
  deps.sqlite.transaction(() => {
    // re-check inside the transaction: a concurrent finalize may have won
    const cur = deps.sqlite.prepare('SELECT status FROM attempts WHERE id = ?').get(attemptId) as { status: string };
    if (cur.status !== 'IN_PROGRESS') return;
    deps.buffer.flushAttempt(attemptId);
    deps.sqlite
      .prepare("UPDATE attempts SET status = 'COMPLETED', completed_at = ?, auto_submitted = ?, last_seen_at = ?, last_saved_at = ? WHERE id = ?")
      .run(now, how.autoSubmitted ? 1 : 0, st.lastSeenAt, st.lastSavedAt, attemptId);
    storeGrade(deps, paper, attemptId);
    const completed = deps.sqlite.prepare('SELECT * FROM attempts WHERE id = ?').get(attemptId) as AttemptRow;
    eventId = recordAttemptEvent(deps.sqlite, paper, completed, 'exam.attempt.completed', now);
  })();
  const fresh = deps.sessions.reloadAttempt(attemptId)!;
  deps.buffer.release(attemptId);
  deps.events.emit({ kind: 'attempt-changed', examId: fresh.row.exam_id, attemptId });
  if (eventId) deps.events.emit({ kind: 'outbox-written', eventId });
  return fresh.row;
}

/** The submit response body (score fields only when the exam shows results). */
export function submitResponse(paper: Paper, st: AttemptState | { row: AttemptRow }) {
  const r = resultFields(st.row);
  return { ...r, showResult: !!paper.exam.show_result_after };
}
