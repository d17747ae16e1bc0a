/**
 * Calibrated review of one essay question of an exam (issue 39 §1; docs/decisions.md,
 * "The review screen marks one question at a time, calibrated"): every submitted
 * script of the question goes to the calibrated engine (POST /api/cbt/ai/grade-essays'
 * `gradeBatch`, in a job process) with the marks the examiner has already approved as
 * `examinerScore`; the answer is the scripts to mark first and a recommendation per
 * unapproved script. A group of approvals (the high-confidence recommendations the
 * examiner has read) is stored in one transaction, each re-grading its attempt and
 * audited on its own, exactly as the single approval (essay-review.ts).
 */
import type { HallDeps } from '../../hall/deps.js';
import { NotFound, ValidationError, type FieldError } from '../../platform/errors.js';
import { getExamInWorkspace } from '../exams/index.js';
import type { GenerationService } from '../generation/index.js';
import type { PaperQuestion } from '../../core/grading/paper.js';
import { announceEssayApproval, approvalResult, checkEssayApproval, writeEssayApproval, type ApproveInput } from './essay-review.js';

const words = (t: string) => (t.trim() ? t.trim().split(/\s+/).length : 0);

/** The essay question `questionId` of the caller's exam `examId`, with the exam's paper. @throws NotFound */
function essayQuestion(deps: HallDeps, workspaceId: string, examId: string, questionId: string): { examId: string; q: PaperQuestion } {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const q = deps.sessions.paper(exam.id)!.byId.get(questionId);
  if (!q || (q.type !== 'SHORT_ESSAY' && q.type !== 'LONG_ESSAY')) throw new NotFound('Essay question of this exam');
  return { examId: exam.id, q };
}

/** The rubric's criteria as the engine takes them; a question without a rubric is one criterion "overall" worth its marks (as the review page does). */
function criteriaOf(q: PaperQuestion) {
  const criteria = q.rubric?.criteria ?? [];
  const sum = criteria.reduce((s, c) => s + c.maxMarks, 0);
  if (!criteria.length || Math.abs(sum - q.marks) > 1e-9) return [{ id: 'overall', title: 'Overall quality', maxMarks: q.marks }];
  return criteria.map((c) => ({ id: c.id, title: c.title, maxMarks: c.maxMarks, ...(c.description ? { description: c.description } : {}) }));
}

/**
 * The review screen's data for one essay question: `scripts` (every completed attempt
 * that answered it, in order of submission: attemptId, studentId, candidateName,
 * wordCount, awardedMarks — null until approved), `markFirst` (attempt ids to mark next,
 * most informative first) and `recommendations` (one per unapproved script: totalScore
 * and criteriaScores in half marks, confidence high|medium|low, calibrated). No script:
 * empty lists, and the engine is not asked.
 * @throws NotFound (exam outside the workspace, or not an essay question of it)
 */
export async function questionRecommendations(deps: HallDeps, generation: Pick<GenerationService, 'gradeBatch'>, workspaceId: string, examId: string, questionId: string) {
  const { examId: id, q } = essayQuestion(deps, workspaceId, examId, questionId);
  const rows = deps.sqlite
    .prepare(
      `SELECT t.id AS attempt_id, t.student_id, t.candidate_name, a.text, a.awarded_marks, a.review_json
       FROM attempts t JOIN answers a ON a.attempt_id = t.id
       WHERE t.exam_id = ? AND a.question_id = ? AND t.status = 'COMPLETED' AND a.text IS NOT NULL AND trim(a.text) <> ''
       ORDER BY t.completed_at, t.id`,
    )
    .all(id, q.id) as { attempt_id: string; student_id: string; candidate_name: string; text: string; awarded_marks: number | null; review_json: string | null }[];
  const approved = (r: (typeof rows)[number]) => (r.review_json && r.awarded_marks !== null ? Math.min(q.marks, r.awarded_marks) : null);
  const scripts = rows.map((r) => ({ attemptId: r.attempt_id, studentId: r.student_id, candidateName: r.candidate_name, wordCount: words(r.text), awardedMarks: approved(r) }));
  const head = { success: true as const, examId: id, questionId: q.id, maxMarks: q.marks, scripts };
  if (!rows.length) return { ...head, engine: null, markFirst: [] as string[], recommendations: [] };
  // The whole question in one batch, however many scripts: the 500-script cap is the HTTP body's, not the engine's.
  const out = await generation.gradeBatch({
    questionPrompt: q.prompt,
    modelAnswer: q.modelAnswer?.trim() || q.prompt,
    rubricCriteria: criteriaOf(q),
    maxMarks: q.marks,
    ...(q.minWords ? { minWords: q.minWords } : {}),
    ...(q.maxWords ? { maxWords: q.maxWords } : {}),
    scripts: rows.map((r) => {
      const mark = approved(r);
      return { id: r.attempt_id, studentResponse: r.text, ...(mark === null ? {} : { examinerScore: mark }) };
    }),
  });
  const recommendations = out.recommendations.map(({ id: attemptId, ...rec }) => ({ attemptId, ...rec }));
  return { ...head, engine: out.engine, markFirst: out.markFirst, recommendations };
}

/** One approval of a group: the attempt and its marks, as the single approval takes them. */
export interface GroupApproval extends Omit<ApproveInput, 'reason'> {
  attemptId: string;
}

/**
 * Approves several scripts of one essay question at once (e.g. the high-confidence
 * recommendations the examiner has read): every approval is checked first, so a bad
 * one changes nothing; then all are written in one transaction, each re-grading its
 * attempt, with its own audit row (`essay.approve`, detail `group: n`) and its own
 * `exam.attempt.regraded` event. Returns `{ approved, results: [{attemptId, questionId,
 * awardedMarks, score, maxScore, percentage, grade, pendingReview}] }`.
 * @throws NotFound (exam, question, or an attempt not of this exam), Conflict (not submitted, unanswered), ValidationError (repeated attempt, bad marks: paths `approvals.i.…`)
 */
export function approveEssayGroup(deps: HallDeps, workspaceId: string, examId: string, questionId: string, body: { approvals: GroupApproval[]; reason?: string }) {
  const { examId: id, q } = essayQuestion(deps, workspaceId, examId, questionId);
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  const checked = body.approvals.map(({ attemptId, ...marks }, i) => {
    if (seen.has(attemptId)) errors.push({ index: i, path: `approvals.${i}.attemptId`, message: `attempt ${attemptId} appears twice` });
    seen.add(attemptId);
    const input: ApproveInput = { ...marks, ...(body.reason ? { reason: body.reason } : {}) };
    try {
      const c = checkEssayApproval(deps, workspaceId, attemptId, q.id, input);
      if (c.examId !== id) throw new NotFound(`Attempt ${attemptId} of this exam`);
      return { attemptId, input, ...c };
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const fields = (err.extra.errors as FieldError[] | undefined) ?? [];
      errors.push(...fields.map((f) => ({ ...f, index: i, path: `approvals.${i}.${f.path as string}` })));
      return null;
    }
  });
  if (errors.length) throw new ValidationError('Some approvals are invalid; none was stored.', errors);
  const now = deps.clock.now();
  const written = deps.sqlite.transaction(() =>
    checked.map((c) => ({ c: c!, ...writeEssayApproval(deps, workspaceId, c!.paper, c!.attemptId, q.id, c!.input, c!.total, now, { group: checked.length }) })),
  )();
  for (const w of written) announceEssayApproval(deps, id, w.c.attemptId, w.eventId);
  return { approved: written.length, results: written.map((w) => approvalResult(w.c.attemptId, q.id, w.c.total, w.row)) };
}
