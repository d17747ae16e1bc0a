/**
 * What the hub checks of a hall's result event before it stores it (docs/hub.md, "Trust
 * model"; docs/decisions.md, "The hub recomputes every result"): the candidate is on the
 * package's roster, every time lies in the paper's window (with a clock slack), a later event
 * of an attempt may only be what the hall's own rules produce (an essay regrade, or an event
 * after a disqualification), and the score is the hub's own computation from the answers
 * with the shared grading (src/core/grading), whatever the hall claims. Pure: no I/O.
 */
import { gradeAttempt, type AnswerForGrading } from '../core/grading/grade.js';
import { sectionScores, type SectionScore } from '../core/grading/section-scores.js';
import { sittingSections } from '../core/exams/sections.js';
import type { GradablePaper, PaperQuestion } from '../core/grading/paper.js';
import type { ResultEvent } from '../core/sync/messages.js';
import type { HubPaperCopy } from './paper-copy.js';
import { sittingProblem } from './sitting-check.js';

/**
 * Clock slack on every time a hall reports: its requests may be 5 minutes off the hub's
 * clock (auth.ts) and an attempt may end 30 s after the paper's end (the hall's grace), so
 * 15 minutes leaves room for both and still refuses an event dated a day, or a century, off.
 */
export const RESULT_CLOCK_SLACK_MS = 15 * 60_000;

/** Why an event is refused: `status` is the single route's HTTP status, `code` the problem's code. */
export interface Refusal {
  status: 404 | 409 | 422;
  code: string;
  reason: string;
}

/** The hub's result of one event, and the hall's claim when it differs. */
export interface HubGrade {
  score: number;
  maxScore: number;
  percentage: number;
  grade: string;
  pendingReview: boolean;
  /** questionId → marks the hub awards, for objective questions and reviewed essays (an essay awaiting review has none) */
  marks: Record<string, number>;
  /** per section, the hub's own (a paper with sections), else null */
  sectionScores: SectionScore[] | null;
  /** the hall's figures when any differs from the hub's, else null */
  hallClaim: Pick<ResultEvent['attempt'], 'score' | 'maxScore' | 'percentage' | 'grade' | 'pendingReview' | 'sectionScores'> | null;
}

/**
 * The paper one attempt is graded on: the whole paper, or for a paper with sections the
 * questions the candidate was given (`givenQuestionIds`, checked by checkResult; without
 * them, their sections' questions — the sitting checkResult allowed), in paper order.
 */
function sittingPaper(paper: HubPaperCopy, a: ResultEvent['attempt']): GradablePaper {
  const sections = paper.sections ?? [];
  if (!sections.length) return paper.gradable;
  const given = a.givenQuestionIds ? new Set(a.givenQuestionIds) : null;
  const sat = new Set(sittingSections(sections, paper.subjects?.get(a.studentId) ?? null).map((s) => s.name));
  const questions = paper.gradable.questions.filter((q): q is PaperQuestion => (given ? given.has(q.id) : q.section !== null && sat.has(q.section)));
  return { questions, byId: new Map(questions.map((q) => [q.id, q])), maxScore: questions.reduce((n, q) => n + q.marks, 0) };
}

const sameSections = (x: SectionScore[] | undefined, y: SectionScore[] | null) =>
  x === undefined || (y !== null && x.length === y.length && x.every((s, i) => s.section === y[i]!.section && close(s.score, y[i]!.score, 0.005) && close(s.maxScore, y[i]!.maxScore, 0.005)));

const refuse = (status: Refusal['status'], code: string, reason: string): Refusal => ({ status, code, reason });

/**
 * The candidate and every time of the event against the paper: on its roster; started no
 * earlier than the start and no later than the end (± slack); ended after it started and
 * by the end (+ slack); nothing dated past `now` + slack; the event not dated before the start.
 * @param now the hub's clock, epoch ms
 * @returns null when it passes, else why not
 */
export function checkResult(paper: HubPaperCopy, e: ResultEvent, now: number): Refusal | null {
  const a = e.attempt;
  if (!paper.roster.has(a.studentId)) return refuse(422, 'CANDIDATE_NOT_ON_ROSTER', `Candidate ${a.studentId} is not on this paper’s roster.`);
  const S = RESULT_CLOCK_SLACK_MS;
  const started = Date.parse(a.startedAt);
  const created = Date.parse(e.createdAt);
  const endIso = a.completedAt ?? a.disqualifiedAt;
  const ended = endIso === null ? null : Date.parse(endIso);
  if ((a.status === 'COMPLETED' && a.completedAt === null) || (a.status === 'DISQUALIFIED' && a.disqualifiedAt === null)) return refuse(422, 'RESULT_TIME_MISSING', `A ${a.status.toLowerCase()} attempt must say when.`);
  if (Math.max(started, created, ended ?? 0) > now + S) return refuse(422, 'RESULT_IN_FUTURE', 'The event is dated in the future (more than 15 minutes past the hub’s clock).');
  if (started < paper.startsAt - S) return refuse(422, 'RESULT_OUTSIDE_WINDOW', 'The attempt started before the paper opened.');
  if (paper.endsAt !== null && started > paper.endsAt + S) return refuse(422, 'RESULT_OUTSIDE_WINDOW', 'The attempt started after the paper closed.');
  if (ended !== null && ended < started) return refuse(422, 'RESULT_OUTSIDE_WINDOW', 'The attempt ended before it started.');
  if (ended !== null && paper.endsAt !== null && ended > paper.endsAt + S) return refuse(422, 'RESULT_OUTSIDE_WINDOW', 'The attempt ended after the paper closed.');
  if (created < started - S) return refuse(422, 'RESULT_OUTSIDE_WINDOW', 'The event is dated before the attempt started.');
  const sitting = paper.sections?.length ? sittingProblem(paper.sections, paper.gradable.questions, paper.subjects?.get(a.studentId) ?? null, a.givenQuestionIds) : null;
  if (sitting) return refuse(422, 'SITTING_NOT_ALLOWED', sitting);
  return null;
}

const choices = (e: ResultEvent) =>
  JSON.stringify(
    e.attempt.answers
      .map((x) => [x.questionId, x.optionId, x.text ?? null])
      .sort((p, q) => String(p[0]).localeCompare(String(q[0]))),
  );

/**
 * A later event (another event id) of an attempt the hub already holds, against the newest
 * one held: after a completion or a regrade only a regrade with the same candidate, times and
 * answers may follow (the hall's essay review changes essay marks only); after a
 * disqualification the attempt may have been reinstated, so a later event of the same
 * candidate and start may follow. Anything else is a second result and is refused.
 * @returns null when it may follow, else why not (409)
 */
export function checkFollowUp(prior: ResultEvent, e: ResultEvent): Refusal | null {
  const p = prior.attempt;
  const a = e.attempt;
  const second = (why: string) => refuse(409, 'SECOND_RESULT', `The hub already holds a result for attempt ${a.attemptId} (event ${prior.eventId}): ${why}`);
  if (e.packageId !== prior.packageId || a.studentId !== p.studentId || a.startedAt !== p.startedAt) return second('this event names another package, candidate or start.');
  if (prior.type === 'exam.attempt.disqualified') return Date.parse(e.createdAt) >= Date.parse(prior.createdAt) ? null : second('this event is older than the disqualification.');
  if (e.type !== 'exam.attempt.regraded') return second('only an essay regrade may follow a completed attempt.');
  if (a.status !== p.status || a.completedAt !== p.completedAt) return second('a regrade cannot change the attempt’s status or times.');
  if (choices(e) !== choices(prior)) return second('a regrade cannot change the answers.');
  return null;
}

const close = (x: number, y: number, eps: number) => Math.abs(x - y) <= eps;

/**
 * The hub's own result of the event (src/core/grading): objective answers against the
 * package's keys (the hall's awarded marks ignored); an essay counts the marks the hall's
 * examiner approved (`reviewed`), bounded by the question's marks, and is pending until then
 * — the hall's rule. A disqualified attempt scores 0 (F9), as the hall reports it.
 */
export function gradeEvent(paper: HubPaperCopy, e: ResultEvent): HubGrade {
  const a = e.attempt;
  const answers: AnswerForGrading[] = a.answers.map((x) => ({ questionId: x.questionId, optionId: x.optionId, text: x.text, approvedMarks: x.reviewed ? x.awardedMarks : null }));
  const gradable = sittingPaper(paper, a);
  const r = gradeAttempt(gradable, answers);
  const sections = paper.sections?.length ? sectionScores(paper.sections.map((s) => s.name), disqualifiedScores(a, r.perQuestion), (id) => gradable.byId.get(id)!.section ?? '', (id) => gradable.byId.get(id)!.marks) : null;
  const reviewed = new Set(a.answers.filter((x) => x.reviewed).map((x) => x.questionId));
  const disqualified = a.status === 'DISQUALIFIED';
  const mine = disqualified ? { score: 0, maxScore: r.maxScore, percentage: 0, grade: 'F9', pendingReview: false } : { score: r.score, maxScore: r.maxScore, percentage: r.percentage, grade: r.grade, pendingReview: r.pendingReview };
  const differs =
    !close(a.score, mine.score, 0.005) ||
    !close(a.percentage, mine.percentage, 0.01) ||
    a.grade !== mine.grade ||
    a.pendingReview !== mine.pendingReview ||
    // a disqualified attempt is never graded on the hall, which reports its maximum as 0
    (!disqualified && !close(a.maxScore, mine.maxScore, 0.005)) ||
    (!disqualified && !sameSections(a.sectionScores, sections));
  return {
    ...mine,
    sectionScores: sections,
    // decided marks only: objective questions and essays the hall's examiner reviewed
    marks: Object.fromEntries(r.perQuestion.filter((q) => q.isCorrect !== null || reviewed.has(q.questionId)).map((q) => [q.questionId, q.awardedMarks])),
    hallClaim: differs ? { score: a.score, maxScore: a.maxScore, percentage: a.percentage, grade: a.grade, pendingReview: a.pendingReview, ...(a.sectionScores ? { sectionScores: a.sectionScores } : {}) } : null,
  };
}

/** A disqualified attempt scores 0 in every section too (F9); else the graded questions as they are. */
function disqualifiedScores(a: ResultEvent['attempt'], graded: { questionId: string; awardedMarks: number; isCorrect: boolean | null }[]) {
  return a.status === 'DISQUALIFIED' ? graded.map((g) => ({ ...g, awardedMarks: 0 })) : graded;
}
