import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { sweepExpired } from '../../src/modules/attempts/sweep.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

const clock = new ManualClock(Date.parse('2026-11-22T09:00:00Z'));
let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer({ clock });
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s.close());

async function examWith(n: number, overrides: Record<string, unknown> = {}) {
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id, overrides);
  const qs = await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(n));
  return { e, qs };
}
const forbidden = ['isCorrect', 'explanation', 'modelAnswer', 'rubric'];
/** Every key anywhere in a JSON value. */
function keysDeep(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keysDeep(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.add(k), keysDeep(x, out));
  return out;
}

describe('POST /attempts/start', () => {
  it('returns the session without any answer key, anywhere', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, [
      ...sampleMcqs(2).map((q) => ({ ...q, explanation: 'because' })),
      { prompt: 'Essay', type: 'SHORT_ESSAY', marks: 2, modelAnswer: 'secret model', rubric: { name: 'r', totalMarks: 2, criteria: [{ title: 'c', maxMarks: 2 }] } },
    ]);
    const r = await api(s.baseUrl).post('/attempts/start', { accessCode: e.accessCode.toLowerCase(), studentId: 'S-1', candidateName: 'Ngozi', candidatePin: '2468' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ isResumed: false, examId: e.id, candidateName: 'Ngozi', violations: 0, maxTabViolations: 3, remainingSeconds: 1800, durableSeq: 0 });
    expect(r.body.attemptId).toMatch(/^att_[0-9A-Za-z]{22}$/);
    const keys = keysDeep(r.body);
    for (const k of forbidden) expect(keys.has(k)).toBe(false);
    expect(JSON.stringify(r.body)).not.toContain('secret model');
    // the spec's option fields plus the server's rendering of the text (issue 26)
    expect(r.body.questions[0].options[0]).toEqual({ id: expect.any(String), keyLabel: 'A', text: expect.any(String), html: expect.any(String) });
    const view = await api(s.baseUrl).get(`/attempts/${r.body.attemptId}`);
    for (const k of forbidden) expect(keysDeep(view.body).has(k)).toBe(false);
  });

  it('maps each refusal to its status and code', async () => {
    const post = (b: Record<string, unknown>) => api(s.baseUrl).post('/attempts/start', { studentId: 'X', candidateName: 'X', candidatePin: '1234', ...b });
    expect((await post({ accessCode: 'NOSUCH' })).body).toMatchObject({ status: 404, code: 'ROOM_NOT_FOUND' });
    const unpublished = await examWith(1, { isPublished: false });
    expect((await post({ accessCode: unpublished.e.accessCode })).body).toMatchObject({ status: 403, code: 'EXAM_NOT_PUBLISHED' });
    const later = await examWith(1, { startsAt: '2026-11-22T10:00:00Z' });
    const notOpen = await post({ accessCode: later.e.accessCode });
    expect(notOpen.body).toMatchObject({ status: 403, code: 'EXAM_NOT_OPEN', opensAt: '2026-11-22T10:00:00.000Z' });
    const closed = await examWith(1, { endsAt: '2026-11-22T08:00:00Z' });
    expect((await post({ accessCode: closed.e.accessCode })).body).toMatchObject({ status: 403, code: 'EXAM_CLOSED' });
    const empty = await createExam(s.baseUrl, ws.apiKey, ws.id);
    expect((await post({ accessCode: empty.accessCode })).body).toMatchObject({ status: 409, code: 'NO_QUESTIONS' });
    const open = await examWith(1);
    expect((await post({ accessCode: open.e.accessCode, candidatePin: '12' })).status).toBe(400);
    expect((await post({ accessCode: open.e.accessCode, studentId: '' })).status).toBe(400);
  });

  it('resumes with the same PIN: same attempt, order and answers; wrong PIN 401; five wrong → 429', async () => {
    const { e } = await examWith(6, { shuffleQuestions: true, shuffleChoices: true });
    const first = await startAttempt(s.baseUrl, e.accessCode, 'R-1', '5555');
    const q0 = first.questions[0]!;
    await api(s.baseUrl).put(`/attempts/${first.attemptId}/answers/${q0.id}`, { optionId: q0.options[2]!.id, seq: 1 });
    const again = await api(s.baseUrl).post('/attempts/start', { accessCode: e.accessCode, studentId: 'R-1', candidateName: 'R', candidatePin: '5555' });
    expect(again.body.isResumed).toBe(true);
    expect(again.body.attemptId).toBe(first.attemptId);
    expect(again.body.questions).toEqual(first.questions);
    expect(again.body.answers).toEqual([{ questionId: q0.id, optionId: q0.options[2]!.id, text: null, seq: 1 }]);
    // keyLabels follow the shown order
    for (const q of again.body.questions) expect(q.options.map((o: { keyLabel: string }) => o.keyLabel)).toEqual(['A', 'B', 'C', 'D']);
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await api(s.baseUrl).post('/attempts/start', { accessCode: e.accessCode, studentId: 'R-1', candidateName: 'R', candidatePin: '9999' })).status);
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes[5]).toBe(429);
  });

  it('shuffles per attempt when asked', async () => {
    const { e } = await examWith(12, { shuffleQuestions: true });
    const a = await startAttempt(s.baseUrl, e.accessCode, 'SH-1');
    const b = await startAttempt(s.baseUrl, e.accessCode, 'SH-2');
    const c = await startAttempt(s.baseUrl, e.accessCode, 'SH-3');
    const orders = new Set([a, b, c].map((x) => x.questions.map((q) => q.id).join()));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('consumes one credit per new attempt, none per resume, and answers 402 when none are left', async () => {
    const poor = await registerWorkspace(s.baseUrl);
    s.deps.sqlite.prepare('UPDATE workspaces SET credits = 1 WHERE id = ?').run(poor.id);
    const e = await createExam(s.baseUrl, poor.apiKey, poor.id);
    await addQuestions(s.baseUrl, poor.apiKey, poor.id, e.id, sampleMcqs(1));
    await startAttempt(s.baseUrl, e.accessCode, 'C-1');
    await startAttempt(s.baseUrl, e.accessCode, 'C-1'); // resume: free
    const r = await api(s.baseUrl).post('/attempts/start', { accessCode: e.accessCode, studentId: 'C-2', candidateName: 'C', candidatePin: '1234' });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe('CREDITS_EXHAUSTED');
    expect((await api(s.baseUrl, poor.apiKey).get('/workspaces/me')).body.credits).toBe(0);
  });
});

describe('live answers', () => {
  it('saves single and batch answers; a higher seq wins; durableSeq follows the flush', async () => {
    const { e } = await examWith(3);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'L-1');
    const [q1, q2] = a.questions;
    const put = await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q1!.id}`, { optionId: q1!.options[1]!.id, seq: 2 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ saved: true, seq: 2, durableSeq: 0, remainingSeconds: 1800 });
    // an older replay does not overwrite
    const old = await api(s.baseUrl).post(`/attempts/${a.attemptId}/answers`, { answers: [{ questionId: q1!.id, optionId: q1!.options[0]!.id, seq: 1 }, { questionId: q2!.id, optionId: q2!.options[3]!.id, seq: 3 }] });
    expect(old.body).toMatchObject({ saved: true, applied: 1, durableSeq: 0 });
    await s.deps.buffer.flush();
    const view = await api(s.baseUrl).get(`/attempts/${a.attemptId}`);
    expect(view.body.durableSeq).toBe(3);
    expect(view.body.answers).toEqual(expect.arrayContaining([{ questionId: q1!.id, optionId: q1!.options[1]!.id, text: null, seq: 2 }]));
    // the light poll leaves the paper out but keeps answers and durability
    const light = await api(s.baseUrl).get(`/attempts/${a.attemptId}?questions=0`);
    expect(light.body).not.toHaveProperty('questions');
    expect(light.body).toMatchObject({ durableSeq: 3, status: 'IN_PROGRESS' });
    expect(light.body.answers).toHaveLength(2);
    const rows = s.deps.sqlite.prepare('SELECT question_id, option_id, seq FROM answers WHERE attempt_id = ?').all(a.attemptId);
    expect(rows).toHaveLength(2);
    // without seq the server assigns the next
    const auto = await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q2!.id}`, { optionId: q2!.options[0]!.id });
    expect(auto.body.seq).toBe(4);
  });

  it('rejects answers that do not fit the paper (404 for a question not on it, 400 otherwise) and saves nothing', async () => {
    const { e } = await examWith(2);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'L-2');
    const q = a.questions[0]!;
    // a question that is not on this paper, named in the path, is a resource not found (spec error table)
    const nope = await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/q_nope`, { optionId: q.options[0]!.id });
    expect(nope.status).toBe(404);
    expect(nope.headers.get('content-type')).toBe('application/problem+json');
    expect(nope.body).toMatchObject({ type: '/problems/not-found', status: 404, code: 'QUESTION_NOT_FOUND', detail: 'Question was not found.' });
    expect((await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: 'opt_other' })).status).toBe(400);
    expect((await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { text: 'an essay for an MCQ' })).status).toBe(400);
    const batch = await api(s.baseUrl).post(`/attempts/${a.attemptId}/answers`, { answers: [{ questionId: q.id, optionId: q.options[0]!.id }, { questionId: 'bad' }] });
    expect(batch.status).toBe(400);
    expect((await api(s.baseUrl).get(`/attempts/${a.attemptId}`)).body.answers).toEqual([]);
    expect((await api(s.baseUrl).put(`/attempts/att_doesnotexist/answers/${q.id}`, { optionId: q.options[0]!.id })).status).toBe(404);
  });

  it('limits saves per attempt (429 with RateLimit headers), not per address', async () => {
    const strict = await startTestServer({ config: { CBT_ANSWER_RATE_LIMIT_PER_MIN: 5 } });
    try {
      const w = await registerWorkspace(strict.baseUrl);
      const e = await createExam(strict.baseUrl, w.apiKey, w.id);
      await addQuestions(strict.baseUrl, w.apiKey, w.id, e.id, sampleMcqs(1));
      const a = await startAttempt(strict.baseUrl, e.accessCode, 'RL-1');
      const b = await startAttempt(strict.baseUrl, e.accessCode, 'RL-2');
      const q = a.questions[0]!;
      const codes = [];
      for (let i = 0; i < 6; i++) codes.push(await api(strict.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id }));
      expect(codes.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      // a good save carries no rate-limit headers (issue 26); the refusal does
      expect(codes[0]!.headers.get('ratelimit-policy')).toBeNull();
      const over = codes[5]!;
      expect(over.status).toBe(429);
      expect(over.headers.get('ratelimit-policy')).toBe('"live";q=5;w=60');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.headers.get('ratelimit')).toMatch(/^"live";r=0;t=\d+$/);
      // another candidate behind the same address is unaffected
      expect((await api(strict.baseUrl).put(`/attempts/${b.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id })).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('proctoring', () => {
  it('disqualifies when violations exceed the limit and locks the session (403)', async () => {
    const { e } = await examWith(2, { maxTabViolations: 2 });
    const a = await startAttempt(s.baseUrl, e.accessCode, 'P-1', '1111');
    const t = (type: string) => api(s.baseUrl).post(`/attempts/${a.attemptId}/telemetry`, { type, meta: { action: 'window_blur' } });
    const q0 = a.questions[1]!;
    expect((await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q0.id}`, { optionId: q0.options[2]!.id })).status).toBe(200);
    expect((await t('NETWORK_OFFLINE')).body).toMatchObject({ violations: 0, status: 'IN_PROGRESS' });
    expect((await t('TAB_SWITCH')).body).toMatchObject({ violations: 1, maxTabViolations: 2, status: 'IN_PROGRESS' });
    expect((await t('WINDOW_BLUR')).body).toMatchObject({ violations: 2, status: 'IN_PROGRESS' });
    const third = await t('TAB_SWITCH');
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ violations: 3, status: 'DISQUALIFIED', disqualified: true });
    const q = a.questions[0]!;
    expect((await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id })).status).toBe(403);
    expect((await t('TAB_SWITCH')).status).toBe(403);
    expect((await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`)).status).toBe(403);
    expect((await api(s.baseUrl).get(`/attempts/${a.attemptId}`)).status).toBe(403);
    const resume = await api(s.baseUrl).post('/attempts/start', { accessCode: e.accessCode, studentId: 'P-1', candidateName: 'P', candidatePin: '1111' });
    expect(resume.body).toMatchObject({ status: 403, attemptStatus: 'DISQUALIFIED', code: 'DISQUALIFIED' });
    expect((await api(s.baseUrl).post(`/attempts/${a.attemptId}/telemetry`, { type: 'SCREAMING' })).status).toBe(400);
    // an invigilator reinstates it, with a reason in the audit log
    const k = api(s.baseUrl, ws.apiKey);
    expect((await k.post(`/attempts/${a.attemptId}/reinstate`, {})).status).toBe(400);
    const back = await k.post(`/attempts/${a.attemptId}/reinstate`, { reason: 'Power flicker switched windows' });
    // the reply counts the answer given before the lock (buffer over database)
    expect(back.body).toMatchObject({ status: 'IN_PROGRESS', violations: 0, answered: 1, totalQuestions: 2 });
    expect((await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id })).status).toBe(200);
    const audit = await k.get('/workspaces/me/audit');
    expect(audit.body[0]).toMatchObject({ action: 'attempt.reinstate', targetId: a.attemptId, reason: 'Power flicker switched windows' });
  });

  it('a disqualifying event commits without an fsync on the event loop, and the hall hears of it once it is on disk', async () => {
    const { e } = await examWith(2, { maxTabViolations: 0 });
    const a = await startAttempt(s.baseUrl, e.accessCode, 'P-2', '2222');
    const sqlite = s.deps.sqlite;
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2); // FULL, as configured
    // a pass-through spy on the real connection: the setting when the disqualification is written
    const prepare = sqlite.prepare;
    let whileWriting = -1;
    sqlite.prepare = ((sql: string) => {
      if (sql.includes("status = 'DISQUALIFIED'")) whileWriting = sqlite.pragma('synchronous', { simple: true }) as number;
      return prepare(sql);
    }) as typeof sqlite.prepare;
    const heard: string[] = [];
    const off = s.deps.events.on((ev) => {
      if (ev.kind === 'attempt-disqualified') heard.push(ev.attemptId);
    });
    try {
      const r = api(s.baseUrl).post(`/attempts/${a.attemptId}/telemetry`, { type: 'COPY' });
      // committed (relaxed) at once; announced only after the awaited sync of the WAL
      for (let i = 0; i < 500 && whileWriting === -1; i++) await new Promise((res) => setImmediate(res));
      expect(whileWriting).toBe(1); // NORMAL: the commit did not wait for the disk
      expect(heard).toEqual([]);
      expect((await r).body).toMatchObject({ violations: 1, status: 'DISQUALIFIED', disqualified: true });
      expect(heard).toEqual([a.attemptId]);
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      sqlite.prepare = prepare;
      off();
    }
  });
});

describe('submit and the clock', () => {
  it('grades deterministically, is idempotent, and refuses later saves', async () => {
    const { e } = await examWith(4);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'G-1');
    // sampleMcqs keys are option A; answer 3 of 4 right
    const answers = a.questions.map((q, i) => ({ questionId: q.id, optionId: q.options[i === 3 ? 1 : 0]!.id }));
    const r = await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`, { answers });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ attemptId: a.attemptId, score: 3, maxScore: 4, percentage: 75, grade: 'A1', status: 'COMPLETED', pendingReview: false });
    const again = await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`);
    expect(again.body).toEqual(r.body);
    const events = s.deps.sqlite.prepare("SELECT count(*) AS n FROM outbox_events WHERE type = 'exam.attempt.completed' AND body LIKE ?").get(`%${a.attemptId}%`) as { n: number };
    expect(events.n).toBe(1);
    expect((await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${a.questions[0]!.id}`, { optionId: a.questions[0]!.options[0]!.id })).status).toBe(409);
    const resume = await api(s.baseUrl).post('/attempts/start', { accessCode: e.accessCode, studentId: 'G-1', candidateName: 'G', candidatePin: '1234' });
    expect(resume.body).toMatchObject({ status: 409, code: 'ALREADY_SUBMITTED' });
  });

  it('counts down on the server clock, honours pause, extension and the window', async () => {
    const { e } = await examWith(1, { durationMins: 10 });
    const a = await startAttempt(s.baseUrl, e.accessCode, 'T-1');
    const remaining = async () => (await api(s.baseUrl).get(`/attempts/${a.attemptId}`)).body.remainingSeconds;
    clock.advance(60_000);
    expect(await remaining()).toBe(540);
    const k = api(s.baseUrl, ws.apiKey);
    expect((await k.post(`/exams/${e.id}/pause`, { reason: 'Power failure in block B' })).body.isPaused).toBe(true);
    clock.advance(120_000);
    expect(await remaining()).toBe(540);
    await k.post(`/exams/${e.id}/resume`, { reason: 'Power back' });
    clock.advance(30_000);
    expect(await remaining()).toBe(510);
    const q = a.questions[0]!;
    expect((await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id })).status).toBe(200);
    const ext = await k.post(`/attempts/${a.attemptId}/extend`, { minutes: 5, reason: 'Late start' });
    expect(ext.body.extraSeconds).toBe(300);
    // the reply counts the answer, flushed or not (buffer over database)
    expect(ext.body).toMatchObject({ answered: 1, totalQuestions: 1 });
    expect(await remaining()).toBe(810);
    // an endsAt sooner than the duration caps the time
    await k.patch(`/exams/${e.id}`, { endsAt: new Date(clock.now() + 100_000).toISOString() });
    expect(await remaining()).toBe(100);
  });

  it('auto-submits after time and grace, refusing saves more than 30 s late (409)', async () => {
    const { e } = await examWith(2, { durationMins: 1 });
    const a = await startAttempt(s.baseUrl, e.accessCode, 'X-1');
    const q = a.questions[0]!;
    await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id });
    clock.advance(75_000); // 15 s late: still accepted
    const late = await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${a.questions[1]!.id}`, { optionId: a.questions[1]!.options[0]!.id });
    expect(late.status).toBe(200);
    expect(late.body.remainingSeconds).toBe(0);
    expect(sweepExpired(s.deps)).not.toContain(a.attemptId);
    clock.advance(20_000);
    const tooLate = await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[1]!.id });
    expect(tooLate.status).toBe(409);
    expect(sweepExpired(s.deps)).toContain(a.attemptId);
    const res = await api(s.baseUrl, ws.apiKey).get(`/attempts/${a.attemptId}/result`);
    expect(res.body).toMatchObject({ status: 'COMPLETED', autoSubmitted: true, score: 2, grade: 'A1' });
  });

  it('lets an invigilator force-submit, audited', async () => {
    const { e } = await examWith(2);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'F-1');
    const k = api(s.baseUrl, ws.apiKey);
    const r = await k.post(`/attempts/${a.attemptId}/force-submit`, { reason: 'Candidate left the hall' });
    expect(r.body).toMatchObject({ status: 'COMPLETED', score: 0, grade: 'F9' });
    const list = await k.get(`/exams/${e.id}/attempts`);
    expect(list.body[0]).toMatchObject({ attemptId: a.attemptId, status: 'COMPLETED', autoSubmitted: true, totalQuestions: 2 });
    const other = await registerWorkspace(s.baseUrl);
    expect((await api(s.baseUrl, other.apiKey).post(`/attempts/${a.attemptId}/force-submit`, { reason: 'x' })).status).toBe(404);
  });

  it('holds essays for review: pendingReview and 0 marks until approved', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, [...sampleMcqs(1), { prompt: 'Explain photosynthesis.', type: 'SHORT_ESSAY', marks: 4 }]);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'E-1');
    const essay = a.questions.find((q) => q.type === 'SHORT_ESSAY')!;
    const mcq = a.questions.find((q) => q.type === 'MCQ')!;
    await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${essay.id}`, { text: 'Plants use light to make sugar from carbon dioxide and water.' });
    const r = await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`, { answers: [{ questionId: mcq.id, optionId: mcq.options[0]!.id }] });
    expect(r.body).toMatchObject({ score: 1, maxScore: 5, percentage: 20, grade: 'F9', pendingReview: true });
  });
});
