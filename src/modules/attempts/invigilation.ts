/**
 * Invigilator actions on attempts (docs/design.md §7, docs/design.md §13): extend time, reinstate a
 * disqualified candidate, force-submit — each audited in the same transaction — and the
 * examiner's views: results, the live monitor, one attempt's marked answers.
 */
import type { HallDeps } from '../../hall/deps.js';
import { Conflict, NotFound } from '../../platform/errors.js';
import { writeAudit } from '../../hall/audit.js';
import { getExamInWorkspace } from '../exams/index.js';
import { attemptPaper, type AttemptState, type Paper } from '../sessions/index.js';
import { countsAsAnswered } from '../answers/index.js';
import { sittingQuestionCount } from '../../core/exams/sections.js';
import { attemptSummary } from './views.js';
import { finalizeAttempt, submitResponse } from './finalize.js';

/** The attempt of the caller's workspace, with its paper. @throws NotFound */
export function attemptInWorkspace(deps: HallDeps, workspaceId: string, attemptId: string): { st: AttemptState; paper: Paper } {
  const st = deps.sessions.attempt(attemptId);
  if (!st || st.row.workspace_id !== workspaceId) throw new NotFound('Attempt');
  return { st, paper: deps.sessions.paper(st.row.exam_id)! };
}

/** The characters String `trim` removes (ECMAScript WhiteSpace and LineTerminator), for SQLite's trim(X, Y). */
const JS_SPACES = 'char(9,10,11,12,13,32,160,5760,8192,8193,8194,8195,8196,8197,8198,8199,8200,8201,8202,8232,8233,8239,8287,12288,65279)';

/**
 * Answered questions of the paper per attempt of an exam, from the stored rows (one
 * grouped query; the rule of answers/index.ts `countsAsAnswered`): exact for an attempt the
 * answer buffer holds no state for, whose every answer is stored.
 */
function storedAnsweredCounts(deps: HallDeps, examId: string): Map<string, number> {
  const rows = deps.sqlite
    .prepare(
      `SELECT a.attempt_id AS id, count(*) AS n FROM answers a JOIN attempts t ON t.id = a.attempt_id WHERE t.exam_id = ? AND a.question_id IN (SELECT id FROM questions WHERE exam_id = t.exam_id) AND (a.option_id IS NOT NULL OR trim(a.text, ${JS_SPACES}) <> '') GROUP BY a.attempt_id`,
    )
    .all(examId) as { id: string; n: number }[];
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Whether a current answer counts as answered (answers/index.ts `countsAsAnswered`). */
const isAnswered = (a: { optionId: string | null; text: string | null }) => countsAsAnswered(a.optionId, a.text);

/**
 * Questions of the paper one attempt has answered, saves not yet flushed included: the
 * answer buffer's count kept as saves arrive (AnswerBuffer.answeredCount), no read of the answers.
 */
function answeredCount(deps: HallDeps, paper: Paper, attemptId: string): number {
  return deps.buffer.answeredCount(attemptId, paper.byId);
}

/**
 * How many questions each candidate of a sectioned exam is given (by studentId; their
 * roster subjects and the sections' draws), computed once per subject combination, so the
 * monitor reads no layouts; undefined for an exam without sections (the whole paper).
 */
function givenCounts(deps: HallDeps, paper: Paper): ((studentId: string) => number) | undefined {
  const sections = paper.sections;
  if (!sections) return undefined;
  const rows = deps.sqlite.prepare('SELECT student_id, subjects_json FROM roster_entries WHERE exam_id = ? AND subjects_json IS NOT NULL').all(paper.exam.id) as { student_id: string; subjects_json: string }[];
  const subjectsOf = new Map(rows.map((r) => [r.student_id, r.subjects_json]));
  const memo = new Map<string, number>();
  return (studentId) => {
    const key = subjectsOf.get(studentId) ?? '';
    let n = memo.get(key);
    if (n === undefined) memo.set(key, (n = sittingQuestionCount(sections, paper.questions, key ? (JSON.parse(key) as string[]) : null)));
    return n;
  };
}

/** Summaries of every attempt of an exam (results table and live monitor). */
export function examAttempts(deps: HallDeps, workspaceId: string, examId: string) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const paper = deps.sessions.paper(exam.id)!;
  const ids = deps.sqlite.prepare('SELECT id FROM attempts WHERE exam_id = ? ORDER BY started_at').all(exam.id) as { id: string }[];
  const stored = storedAnsweredCounts(deps, exam.id);
  const given = givenCounts(deps, paper);
  return ids.map(({ id }) => {
    const st = deps.sessions.attempt(id)!;
    // exact: the buffer's count where it holds the attempt (unflushed saves included), else
    // the stored rows, which then hold every answer. Over the whole paper, also for an exam
    // with sections (its candidates' pages save only their given questions; the deltas
    // count exactly those, monitorRow)
    const n = deps.buffer.holds(id) ? answeredCount(deps, paper, id) : (stored.get(id) ?? 0);
    return attemptSummary(deps, paper, st, n, given?.(st.row.student_id));
  });
}

/**
 * One attempt's monitor row, built alone (the monitor stream's deltas, monitor-feed.ts):
 * answers counted by the answer buffer as saves arrive (saves not yet flushed included; no
 * read of the answers) over the questions the candidate was given — the paper's, or for an
 * exam with sections their layout's (a save names any question of the paper, saves.ts, so
 * the count is taken within the layout).
 */
export function monitorRow(deps: HallDeps, paper: Paper, st: AttemptState) {
  if (!paper.sections) return attemptSummary(deps, paper, st, answeredCount(deps, paper, st.row.id));
  const given = deps.sessions.layout(st.row.id).map((l) => l.questionId);
  return attemptSummary(deps, paper, st, deps.buffer.answeredCount(st.row.id, new Set(given)), given.length);
}

/**
 * Roster candidates of an exam who have no attempt (issue 36: the invigilator sees the
 * whole room): listed by the monitor as "not started" while the exam window is open and
 * "absent" after it. A preview (reading the instructions) is not an attempt. An exam
 * without a roster has nobody to miss: [].
 * @returns `[{ studentId, candidateName }]` in the roster's order (student ID)
 */
export function absentCandidates(deps: HallDeps, examId: string): { studentId: string; candidateName: string }[] {
  return deps.sqlite
    .prepare('SELECT r.student_id AS studentId, r.candidate_name AS candidateName FROM roster_entries r WHERE r.exam_id = ? AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.exam_id = r.exam_id AND a.student_id = r.student_id) ORDER BY r.student_id')
    .all(examId) as { studentId: string; candidateName: string }[];
}

/** POST /attempts/:id/extend: grants `minutes` extra to one candidate. */
export function extendTime(deps: HallDeps, workspaceId: string, attemptId: string, minutes: number, reason: string) {
  const { st, paper } = attemptInWorkspace(deps, workspaceId, attemptId);
  if (st.row.status !== 'IN_PROGRESS') throw new Conflict(`Only an attempt in progress can get more time (this one is ${st.row.status}).`);
  const now = deps.clock.now();
  deps.sqlite.transaction(() => {
    deps.sqlite.prepare('UPDATE attempts SET extra_seconds = extra_seconds + ? WHERE id = ?').run(Math.round(minutes * 60), attemptId);
    writeAudit(deps.sqlite, { workspaceId, action: 'attempt.extend', targetType: 'attempt', targetId: attemptId, reason, detail: { minutes }, at: now });
  })();
  const fresh = deps.sessions.reloadAttempt(attemptId)!;
  deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId });
  return attemptSummary(deps, paper, fresh, answeredCount(deps, paper, attemptId));
}

/** POST /attempts/:id/reinstate: a disqualified attempt goes back in progress with violations reset. */
export function reinstate(deps: HallDeps, workspaceId: string, attemptId: string, reason: string) {
  const { st, paper } = attemptInWorkspace(deps, workspaceId, attemptId);
  if (st.row.status !== 'DISQUALIFIED') throw new Conflict(`Only a disqualified attempt can be reinstated (this one is ${st.row.status}).`);
  const now = deps.clock.now();
  deps.sqlite.transaction(() => {
    // the time it spent locked is credited back
    const locked = Math.max(0, now - (st.row.disqualified_at ?? now));
    deps.sqlite.prepare("UPDATE attempts SET status = 'IN_PROGRESS', violations = 0, disqualified_at = NULL, lock_reason = NULL, credited_ms = credited_ms + ? WHERE id = ?").run(locked, attemptId);
    writeAudit(deps.sqlite, { workspaceId, action: 'attempt.reinstate', targetType: 'attempt', targetId: attemptId, reason, detail: { violations: st.row.violations, lockedMs: locked, lockReason: st.row.lock_reason }, at: now });
  })();
  const fresh = deps.sessions.reloadAttempt(attemptId)!;
  deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId });
  return attemptSummary(deps, paper, fresh, answeredCount(deps, paper, attemptId));
}

/** POST /attempts/:id/force-submit: finalizes now (auto-submitted) and audits. */
export function forceSubmit(deps: HallDeps, workspaceId: string, attemptId: string, reason: string) {
  const { st, paper } = attemptInWorkspace(deps, workspaceId, attemptId);
  if (st.row.status !== 'IN_PROGRESS') throw new Conflict(`Only an attempt in progress can be force-submitted (this one is ${st.row.status}).`);
  const row = finalizeAttempt(deps, attemptId, { autoSubmitted: true });
  writeAudit(deps.sqlite, { workspaceId, action: 'attempt.force_submit', targetType: 'attempt', targetId: attemptId, reason, at: deps.clock.now() });
  return submitResponse(paper, { row });
}

/**
 * GET /attempts/:id/result: the examiner's view with every answer marked — of the questions
 * the candidate was given (all, or their sections' questions, each with the section it
 * was given under), and `sectionScores` when the exam has sections (issue 37 item 5).
 */
export function attemptResult(deps: HallDeps, workspaceId: string, attemptId: string) {
  const { st, paper } = attemptInWorkspace(deps, workspaceId, attemptId);
  const layout = deps.sessions.layout(attemptId);
  const given = attemptPaper(paper, layout).questions;
  const answers = deps.buffer.answersFor(attemptId, given.map((q) => q.id));
  const stored = new Map(
    (deps.sqlite.prepare('SELECT question_id, awarded_marks, review_json FROM answers WHERE attempt_id = ?').all(attemptId) as { question_id: string; awarded_marks: number | null; review_json: string | null }[]).map((r) => [r.question_id, r]),
  );
  const byQ = new Map(answers.map((a) => [a.questionId, a]));
  const labels = new Map(layout.map((l) => [l.questionId, l.optionIds]));
  const sections = new Map(layout.map((l) => [l.questionId, l.section]));
  const rows = given.map((q) => {
    const a = byQ.get(q.id);
    const shown = labels.get(q.id) ?? q.options.map((o) => o.id);
    const idx = a?.optionId ? shown.indexOf(a.optionId) : -1;
    const s = stored.get(q.id);
    return {
      questionId: q.id,
      type: q.type,
      marks: q.marks,
      section: sections.get(q.id) ?? q.section,
      optionId: a?.optionId ?? null,
      keyLabel: idx >= 0 ? 'ABCDEFGHIJ'[idx]! : null,
      text: a?.text ?? null,
      isCorrect: q.type === 'MCQ' || q.type === 'TRUE_FALSE' ? (a?.optionId ? q.optionsById.get(a.optionId)?.isCorrect === true : false) : null,
      awardedMarks: s?.awarded_marks ?? null,
      review: s?.review_json ? JSON.parse(s.review_json) : null,
    };
  });
  return { ...attemptSummary(deps, paper, st, answers.filter(isAnswered).length, given.length), examId: paper.exam.id, examTitle: paper.exam.title, answers: rows };
}
