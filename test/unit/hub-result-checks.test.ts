/**
 * The hub's checks of a hall's result (src/hub/result-checks.ts) and the release proof
 * (src/core/sync/release-proof.ts), pure: what may follow a result of an attempt (the
 * hall's own regrade and reinstatement, nothing else), the window's edges with the 15-minute
 * slack, the hub's grading of essays by the hall's rule, and a proof bound to one package.
 */
import { describe, expect, it } from 'vitest';
import type { Paper, ResultEvent } from '../../src/core/sync/messages.js';
import { newReleaseCode, parseReleaseCode } from '../../src/core/sync/release-code.js';
import { releaseProof, verifyReleaseProof } from '../../src/core/sync/release-proof.js';
import { gradablePaper, type HubPaperCopy } from '../../src/hub/paper-copy.js';
import { checkFollowUp, checkResult, gradeEvent, RESULT_CLOCK_SLACK_MS } from '../../src/hub/result-checks.js';

const paper: Paper = {
  kind: 'hallcbt.paper.v1',
  examId: 'hex_1',
  title: 'Mock',
  durationMins: 30,
  startsAt: '2026-11-25T09:00:00.000Z',
  endsAt: '2026-11-25T11:00:00.000Z',
  settings: { maxTabViolations: 3, shuffleQuestions: false, shuffleChoices: false, showResultAfter: true },
  questions: [
    { id: 'q1', prompt: 'Two and two?', type: 'MCQ', marks: 2, options: [{ id: 'o1', keyLabel: 'A', text: '4', isCorrect: true }, { id: 'o2', keyLabel: 'B', text: '5', isCorrect: false }], explanation: null, section: null, minWords: null, maxWords: null, modelAnswer: null, rubric: null },
    { id: 'q2', prompt: 'Explain.', type: 'SHORT_ESSAY', marks: 4, options: [], explanation: null, section: null, minWords: null, maxWords: null, modelAnswer: null, rubric: null },
  ],
  roster: [{ studentId: 'S1', candidateName: 'Ada', pin: '1234' }],
};
const copy: HubPaperCopy = { packageId: 'pkg_1', gradable: gradablePaper(paper), roster: new Map([['S1', 'Ada']]), startsAt: Date.parse(paper.startsAt), endsAt: Date.parse(paper.endsAt!), durationMins: 30 };
const now = Date.parse('2026-11-25T10:00:00Z');

function ev(over: Partial<ResultEvent> = {}, attempt: Partial<ResultEvent['attempt']> = {}): ResultEvent {
  return {
    eventId: 'e1', type: 'exam.attempt.completed', packageId: 'pkg_1', examId: 'hex_1', createdAt: '2026-11-25T09:30:00.000Z',
    ...over,
    attempt: {
      attemptId: 'a1', studentId: 'S1', candidateName: 'Ada', status: 'COMPLETED', startedAt: '2026-11-25T09:01:00.000Z', completedAt: '2026-11-25T09:30:00.000Z', disqualifiedAt: null,
      creditedMs: 0, violations: 0, score: 2, maxScore: 6, percentage: 33.33, grade: 'F9', pendingReview: true,
      answers: [{ questionId: 'q1', optionId: 'o1', text: null, awardedMarks: 2, reviewed: false }, { questionId: 'q2', optionId: null, text: 'Because.', awardedMarks: null, reviewed: false }],
      audit: [],
      ...attempt,
    },
  };
}

describe('the hub’s result checks', () => {
  it('grades by the package’s keys and the hall’s essay rule, keeping a differing claim', () => {
    expect(gradeEvent(copy, ev())).toMatchObject({ score: 2, maxScore: 6, percentage: 33.33, grade: 'F9', pendingReview: true, marks: { q1: 2 }, hallClaim: null });
    const reviewed = ev({}, { answers: [{ questionId: 'q1', optionId: 'o1', text: null, awardedMarks: 2, reviewed: false }, { questionId: 'q2', optionId: null, text: 'Because.', awardedMarks: 40, reviewed: true }], score: 42 });
    expect(gradeEvent(copy, reviewed)).toMatchObject({ score: 6, pendingReview: false, marks: { q1: 2, q2: 4 }, hallClaim: { score: 42 } });
    expect(gradeEvent(copy, ev({}, { status: 'DISQUALIFIED', completedAt: null, disqualifiedAt: '2026-11-25T09:20:00.000Z', score: 0, maxScore: 0, percentage: 0, pendingReview: false }))).toMatchObject({ score: 0, grade: 'F9', hallClaim: null });
  });

  it('takes times within the window and the slack, and refuses them beyond', () => {
    expect(checkResult(copy, ev(), now)).toBeNull();
    const slack = RESULT_CLOCK_SLACK_MS;
    expect(checkResult(copy, ev({}, { startedAt: new Date(copy.startsAt - slack + 1000).toISOString() }), now)).toBeNull();
    expect(checkResult(copy, ev({}, { startedAt: new Date(copy.startsAt - slack - 1000).toISOString() }), now)?.code).toBe('RESULT_OUTSIDE_WINDOW');
    expect(checkResult(copy, ev({}, { completedAt: '2026-11-25T09:00:30.000Z' }), now)?.reason).toMatch(/ended before it started/);
    expect(checkResult(copy, ev({ createdAt: new Date(now + slack + 1000).toISOString() }), now)?.code).toBe('RESULT_IN_FUTURE');
    expect(checkResult(copy, ev({}, { studentId: 'S2' }), now)?.code).toBe('CANDIDATE_NOT_ON_ROSTER');
    // a regrade days after the paper closed is fine, if not dated past the hub's clock
    expect(checkResult(copy, ev({ type: 'exam.attempt.regraded', createdAt: '2026-11-28T09:00:00.000Z' }), Date.parse('2026-11-28T09:05:00Z'))).toBeNull();
  });

  it('lets only the hall’s own follow-ups through: a regrade of essay marks, an event after a disqualification', () => {
    const regrade = ev({ eventId: 'e2', type: 'exam.attempt.regraded', createdAt: '2026-11-25T10:00:00.000Z' }, { answers: [{ questionId: 'q1', optionId: 'o1', text: null, awardedMarks: 2, reviewed: false }, { questionId: 'q2', optionId: null, text: 'Because.', awardedMarks: 3, reviewed: true }] });
    expect(checkFollowUp(ev(), regrade)).toBeNull();
    expect(checkFollowUp(ev(), ev({ eventId: 'e2' }))?.code).toBe('SECOND_RESULT');
    expect(checkFollowUp(ev(), { ...regrade, attempt: { ...regrade.attempt, answers: [{ questionId: 'q1', optionId: 'o2', text: null, awardedMarks: 0, reviewed: false }] } })?.reason).toMatch(/cannot change the answers/);
    expect(checkFollowUp(ev(), { ...regrade, attempt: { ...regrade.attempt, studentId: 'S9' } })?.code).toBe('SECOND_RESULT');
    const dq = ev({ eventId: 'e0', type: 'exam.attempt.disqualified', createdAt: '2026-11-25T09:10:00.000Z' }, { status: 'DISQUALIFIED', completedAt: null, disqualifiedAt: '2026-11-25T09:10:00.000Z' });
    expect(checkFollowUp(dq, ev())).toBeNull(); // reinstated, then completed
    expect(checkFollowUp(dq, ev({ createdAt: '2026-11-25T09:05:00.000Z' }))?.code).toBe('SECOND_RESULT');
  });
});

describe('the release proof', () => {
  it('verifies for the code, hall and package it was made for, and for nothing else', () => {
    const code = parseReleaseCode(newReleaseCode());
    const other = parseReleaseCode(newReleaseCode());
    if (!code.ok || !other.ok) throw new Error('release code does not parse');
    const proof = releaseProof(code.code, 'hall_1', 'pkg_1');
    expect(proof).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyReleaseProof(proof, code.code, 'hall_1', 'pkg_1')).toBe(true);
    expect(verifyReleaseProof(proof, other.code, 'hall_1', 'pkg_1')).toBe(false);
    expect(verifyReleaseProof(proof, code.code, 'hall_2', 'pkg_1')).toBe(false);
    expect(verifyReleaseProof(proof, code.code, 'hall_1', 'pkg_2')).toBe(false);
    expect(verifyReleaseProof('short', code.code, 'hall_1', 'pkg_1')).toBe(false);
  });
});
