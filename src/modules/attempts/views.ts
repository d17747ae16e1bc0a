/**
 * Response shapes of attempts: the candidate session view (never an answer key) and
 * the invigilator's attempt summary.
 */
import type { HallDeps } from '../../hall/deps.js';
import { iso } from '../../platform/clock.js';
import { candidateQuestionsJson, layoutSections, type AttemptState, type Paper } from '../sessions/index.js';
import type { SectionScore } from '../../core/grading/section-scores.js';
import type { MathForm } from '../../core/rich-text.js';
import { remainingMs, remainingSeconds } from './timer.js';
import { flaggedQuestions } from './flags.js';
import { storedSectionScores } from './stored-section-scores.js';

/** Result fields of a finished attempt (`sectionScores` only when its exam has sections). */
export function resultFields(a: AttemptState['row']) {
  const sectionScores = storedSectionScores(a);
  return {
    attemptId: a.id,
    score: a.score ?? 0,
    maxScore: a.max_score ?? 0,
    percentage: a.percentage ?? 0,
    grade: a.grade ?? 'F9',
    status: a.status,
    completedAt: iso(a.completed_at ?? a.disqualified_at)!,
    pendingReview: !!a.pending_review,
    ...(sectionScores ? { sectionScores } : {}),
  };
}

/**
 * The candidate's view (start/resume and GET /attempts/:id); `form`: how the questions' maths
 * is written (`?math=`). With questions, `questions` is a RawJson: send it with
 * platform/compress.ts `compressedJson`, which writes it in place.
 */
export function sessionView(deps: HallDeps, paper: Paper, st: AttemptState, isResumed: boolean, withQuestions = true, form: MathForm = 'html') {
  const a = st.row;
  const exam = paper.exam;
  // the questions as JSON bytes written once per question version (sessions/paper-json.ts); send with compressedJson
  const layout = withQuestions ? deps.sessions.layout(a.id) : null;
  const questions = layout ? candidateQuestionsJson(paper, layout, form) : null;
  // the candidate's sections in order, with their questions (issue 37 item 4); none without sections
  const sections = layout ? layoutSections(paper, layout) : null;
  const view: Record<string, unknown> = {
    isResumed,
    attemptId: a.id,
    examId: exam.id,
    examTitle: exam.title,
    candidateName: a.candidate_name,
    studentId: a.student_id,
    status: a.status,
    remainingSeconds: a.status === 'IN_PROGRESS' ? remainingSeconds(exam, a, deps.clock.now()) : 0,
    durationMins: exam.duration_mins,
    // only for a candidate with access arrangements: every other candidate's start stays as
    // small as before (the paper's bytes on the wire: test/core/paper-size.test.ts)
    ...(a.extra_time_percent || a.extra_time_mins ? { extraTimePercent: a.extra_time_percent, extraTimeMins: a.extra_time_mins } : {}),
    violations: a.violations,
    maxTabViolations: exam.max_tab_violations,
    showResultAfter: !!exam.show_result_after,
    calculator: exam.calculator,
    isPaused: exam.paused_at !== null,
    startedAt: iso(a.started_at),
    durableSeq: deps.buffer.durableSeq(a.id),
    answers: deps.buffer.answersFor(a.id, questions ? questions.ids : paper.byId.keys()),
  };
  if (paper.seb) view.safeExamBrowser = { quitUrl: paper.seb.quitUrl };
  if (a.lock_reason) view.lockReason = a.lock_reason;
  // a light poll (?questions=0) leaves the paper out: the page already has it
  if (questions) view.questions = questions.json;
  if (sections) view.sections = sections;
  // with the paper (start, resume, reload): the questions flagged for review, from any computer
  // (a new attempt has none: nobody knew its id before this response)
  if (questions) view.flagged = isResumed ? flaggedQuestions(deps, a.id, paper) : [];
  if (a.status === 'COMPLETED') {
    view.completedAt = iso(a.completed_at);
    if (exam.show_result_after) Object.assign(view, resultFields(a), { status: a.status });
  }
  return view;
}

/**
 * One row of the invigilator's monitor / results table; `totalQuestions`: the questions the
 * candidate was given, when not the whole paper (an exam with sections).
 */
export function attemptSummary(deps: HallDeps, paper: Paper, st: AttemptState, answered: number, totalQuestions = paper.questions.length) {
  const a = st.row;
  const now = deps.clock.now();
  const running = a.status === 'IN_PROGRESS';
  return {
    attemptId: a.id,
    studentId: a.student_id,
    candidateName: a.candidate_name,
    status: a.status,
    startedAt: iso(a.started_at)!,
    completedAt: iso(a.completed_at),
    disqualifiedAt: iso(a.disqualified_at),
    lockReason: a.lock_reason,
    /** Safe Exam Browser: whether this seat's last judged request passed the exam's checks (null: not required / not seen yet) */
    sebValid: paper.seb ? st.sebValid : null,
    /** the two checks of that request: Config Key (the client has the configuration) and Browser Exam Key (a registered SEB build) */
    sebCheck: paper.seb ? st.sebCheck : null,
    remainingSeconds: running ? remainingSeconds(paper.exam, a, now) : 0,
    /** when this candidate's own time runs out if the clock runs on — a fixed instant, past during the grace (null: not in progress, or the exam is paused) */
    timeUpAt: running && paper.exam.paused_at === null ? iso(now + remainingMs(paper.exam, a, now))! : null,
    answered,
    totalQuestions,
    lastSeenAt: iso(st.lastSeenAt),
    lastSavedAt: iso(st.lastSavedAt),
    /** the computer the candidate was last seen at */
    clientAddress: a.client_address,
    /** the computer (seat) that started the attempt: in an open room it used that seat's start */
    seatAddress: a.seat_address,
    violations: a.violations,
    maxTabViolations: paper.exam.max_tab_violations,
    score: a.score,
    maxScore: a.max_score,
    percentage: a.percentage,
    grade: a.grade,
    /** per-section scores (issue 37 item 5); null when the exam has no sections or the attempt is not graded */
    sectionScores: storedSectionScores(a),
    pendingReview: !!a.pending_review,
    autoSubmitted: !!a.auto_submitted,
    extraSeconds: a.extra_seconds,
    /** access arrangements from the roster (timer.ts allowedMs) */
    extraTimePercent: a.extra_time_percent,
    extraTimeMins: a.extra_time_mins,
    timeTakenSeconds: a.completed_at ? Math.max(0, Math.round((a.completed_at - a.started_at - a.credited_ms) / 1000)) : null,
  };
}
