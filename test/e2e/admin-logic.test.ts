/**
 * The admin page's pure logic, run in Node: the Aiken parser behind bulk paste, rubric
 * mark splitting, hall-local ↔ UTC conversion of exam windows, the server-sent-events
 * parser of the live monitor and its alert bookkeeping, and the time-sync check. (The
 * browser tests in admin-authoring, admin-hall and admin-clock cover the same code
 * through the page.)
 */
import { describe, expect, it } from 'vitest';
import { parseAiken } from '../../web/admin/aiken.js';
import { criteriaTotal, splitMarks } from '../../web/admin/rubric.js';
import { localInputToUtcIso, utcIsoToLocalInput } from '../../web/admin/time.js';
import { SseParser } from '../../web/admin/sse.js';
import { MonitorState } from '../../web/admin/monitor-state.js';
import { CHECK_EVERY_MS, MAX_SKEW_MS, RELEASE_DATE, clockProblem, clockWarningText } from '../../web/admin/clock-check.js';
import type { AttemptSummary, MonitorSnapshot } from '../../web/admin/types.js';

describe('parseAiken', () => {
  it('reads prompts, A./B) options and the answer letter', () => {
    const { questions, errors } = parseAiken('What is $2^3$?\nA. 6\nB. 8\nANSWER: B\n\nPick C\nspanning two lines\nA) x\nB) y\nC) z\nANSWER: c\n');
    expect(errors).toEqual([]);
    expect(questions).toHaveLength(2);
    expect(questions[0]).toMatchObject({ type: 'MCQ', marks: 1, prompt: 'What is $2^3$?' });
    expect(questions[0]!.options!.map((o) => o.isCorrect)).toEqual([false, true]);
    expect(questions[1]!.prompt).toBe('Pick C\nspanning two lines');
    expect(questions[1]!.options!.find((o) => o.isCorrect)!.text).toBe('z');
  });

  it('reports a missing ANSWER line, an unknown answer letter and out-of-order options with line numbers', () => {
    const { questions, errors } = parseAiken('Q1\nA. a\nB. b\nQ2\nA. a\nC. c\nANSWER: D\nQ3\nA. a\nB. b');
    expect(questions).toHaveLength(0);
    expect(errors).toEqual([
      { line: 4, message: 'Question at line 1 has no ANSWER line.' },
      { line: 6, message: 'Option C found where B was expected.' },
      { line: 7, message: 'Answer D is not one of the options A, C.' },
      { line: 8, message: 'Question at line 8 has no ANSWER line.' },
    ]);
  });
});

describe('splitMarks', () => {
  it('splits in half marks summing exactly to the total', () => {
    expect(splitMarks([40, 30, 20, 10], 10)).toEqual([4, 3, 2, 1]);
    const odd = splitMarks([1, 1, 1], 5);
    expect(odd.reduce((a, b) => a + b, 0)).toBe(5);
    expect(odd.every((m) => (m * 2) % 1 === 0)).toBe(true);
    expect(criteriaTotal(splitMarks([3, 2], 2.25).map((maxMarks) => ({ title: 'x', maxMarks })))).toBe(2.25);
    expect(splitMarks([0, 0], 4)).toEqual([0, 0]);
  });
});

describe('exam window time conversion', () => {
  it('treats picker values as hall-local time and stores UTC', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Africa/Lagos'; // UTC+1, no daylight saving
    try {
      expect(localInputToUtcIso('2025-06-02T09:30')).toBe('2025-06-02T08:30:00.000Z');
      expect(utcIsoToLocalInput('2025-06-02T08:30:00.000Z')).toBe('2025-06-02T09:30');
      expect(localInputToUtcIso('')).toBeNull();
      expect(() => localInputToUtcIso('tomorrow')).toThrow();
    } finally {
      process.env.TZ = tz;
    }
  });
});

describe('SseParser', () => {
  it('dispatches named events with multi-line data across chunk boundaries and skips comments', () => {
    const got: Array<[string, string]> = [];
    const p = new SseParser((e, d) => got.push([e, d]));
    p.feed(': keep-alive\n\nevent: snap');
    p.feed('shot\ndata: {"a":\ndata: 1}\r');
    p.feed('\n\r\ndata: plain\n\nretry: 2500\n');
    expect(got).toEqual([['snapshot', '{"a":\n1}'], ['message', 'plain']]);
    expect(p.retryMs).toBe(2500);
  });
});

describe('MonitorState', () => {
  const attempt = (over: Partial<AttemptSummary>): AttemptSummary => ({
    attemptId: 'att_1', studentId: 'S1', candidateName: 'Ada', status: 'IN_PROGRESS', startedAt: '2025-01-01T09:00:00.000Z', completedAt: null,
    remainingSeconds: 600, answered: 0, totalQuestions: 5, lastSeenAt: '2025-01-01T09:00:00.000Z', lastSavedAt: null, clientAddress: '10.0.0.5',
    violations: 0, maxTabViolations: 3, score: null, maxScore: null, percentage: null, grade: null, pendingReview: false, autoSubmitted: false, extraSeconds: 0, ...over,
  });
  const snap = (serverTime: string, attempts: AttemptSummary[]): MonitorSnapshot => ({
    exam: { id: 'ex_1', title: 'T', accessCode: 'ABC234', durationMins: 10, startsAt: null, endsAt: null, isPublished: true, isPaused: false }, serverTime, attempts,
  });

  it('raises a disqualification once, an unseen alert after 60 s, and ticks remaining time locally', () => {
    const s = new MonitorState();
    const t0 = Date.parse('2025-01-01T09:00:10.000Z');
    expect(s.apply(snap('2025-01-01T09:00:10.000Z', [attempt({})]), t0)).toEqual([]);
    expect(s.remaining(s.snapshot!.attempts[0]!, t0 + 5_000)).toBe(595);
    const dq = s.apply(snap('2025-01-01T09:00:20.000Z', [attempt({ status: 'DISQUALIFIED' })]), t0 + 10_000);
    expect(dq.map((a) => a.kind)).toEqual(['disqualified']);
    expect(s.raise({ kind: 'disqualified', attemptId: 'att_1', candidateName: 'Ada' })).toBeNull();
    s.apply(snap('2025-01-01T09:00:20.000Z', [attempt({ attemptId: 'att_2', candidateName: 'Bo' })]), t0 + 10_000);
    expect(s.checkUnseen(t0 + 49_000)).toEqual([]);
    expect(s.checkUnseen(t0 + 51_000).map((a) => [a.kind, a.candidateName])).toEqual([['unseen', 'Bo']]);
    expect(s.checkUnseen(t0 + 52_000)).toEqual([]);
  });
});

describe('clockProblem', () => {
  const now = Date.parse('2027-03-01T09:00:00.000Z');
  const at = (ms: number) => new Date(ms).toISOString();

  it('passes clocks within 2 minutes, allowing for half the round trip', () => {
    expect(clockProblem(at(now), now, now)).toBeNull();
    expect(clockProblem(at(now + MAX_SKEW_MS), now, now)).toBeNull();
    expect(clockProblem(at(now - MAX_SKEW_MS), now, now)).toBeNull();
    // a slow reply: the server read its clock somewhere in the 10 s the request took
    expect(clockProblem(at(now + MAX_SKEW_MS + 4_000), now - 5_000, now + 5_000)).toBeNull();
    expect(clockProblem(at(now + MAX_SKEW_MS + 6_000), now - 5_000, now + 5_000)?.kind).toBe('skew');
    expect(CHECK_EVERY_MS).toBeLessThanOrEqual(5 * 60_000);
  });

  it('flags a difference of more than 2 minutes either way, and says which clock reads what', () => {
    expect(clockProblem(at(now + MAX_SKEW_MS + 1_000), now, now)).toEqual({ kind: 'skew', serverMs: now + MAX_SKEW_MS + 1_000, browserMs: now });
    const slow = clockProblem(at(now - 10 * 60_000), now, now)!;
    expect(slow.kind).toBe('skew');
    const text = clockWarningText(slow);
    expect(text).toMatch(/^The hall machine's clock reads .+ but this computer reads .+\. Exam timing uses the server clock; set the correct time before starting an exam \(see docs\/operations\.md\)\.$/);
  });

  it('flags a server clock earlier than the release even when this computer agrees with it (a flat CMOS battery)', () => {
    const cmos = Date.parse('2001-01-01T00:03:00.000Z');
    const p = clockProblem(at(cmos), cmos, cmos)!;
    expect(p.kind).toBe('before-release');
    const text = clockWarningText(p);
    expect(text).toMatch(/before this version of HallCBT was released/);
    expect(text).not.toMatch(/this computer reads/);
    expect(clockWarningText(clockProblem(at(cmos), now, now)!)).toMatch(/; this computer reads .*2027/);
    expect(clockProblem(at(Date.parse(RELEASE_DATE) + 1), Date.parse(RELEASE_DATE), Date.parse(RELEASE_DATE))).toBeNull();
  });

  it('ignores a reading it cannot parse', () => {
    expect(clockProblem('not a time', now, now)).toBeNull();
  });
});
