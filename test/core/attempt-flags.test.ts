/**
 * Flags for review kept by the hall (issue 37 item 8, "flags survive a move to another PC"):
 * `PUT /attempts/{id}/flags/{questionId}` with `{flagged}` sets and clears a flag (idempotent),
 * the start/resume response — from another computer too — and `GET /attempts/{id}` with the
 * paper list them as `flagged`, the 10 s poll (`?questions=0`) does not; each attempt has its
 * own; a question of another paper is a 404 QUESTION_NOT_FOUND, a bad body a 400 that changes
 * nothing, a locked attempt a 403 and a submitted one a 409, as for answer saves; OpenAPI
 * documents exactly those refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';
import { sendFrom } from '../security/from-address.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s.close());

async function examWith(n: number, overrides: Record<string, unknown> = {}) {
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id, overrides);
  const qs = await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(n));
  return { e, qs };
}
const flag = (attemptId: string, questionId: string, body: unknown) => api(s.baseUrl).put(`/attempts/${attemptId}/flags/${questionId}`, body);
const flaggedOf = async (attemptId: string) => (await api(s.baseUrl).get(`/attempts/${attemptId}`)).body.flagged as string[];

describe('PUT /attempts/{id}/flags/{questionId}', () => {
  it('sets and clears a flag, idempotently; GET with the paper lists the flags, the poll leaves them out', async () => {
    const { e } = await examWith(4);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'FL-1');
    expect(a.flagged).toEqual([]);
    const [q1, q2, q3] = a.questions.map((q) => q.id);
    const set = await flag(a.attemptId, q3!, { flagged: true });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ questionId: q3, flagged: true });
    expect((await flag(a.attemptId, q1!, { flagged: true })).status).toBe(200);
    expect((await flag(a.attemptId, q1!, { flagged: true })).status).toBe(200);
    expect(await flaggedOf(a.attemptId)).toEqual([q3, q1]);
    const cleared = await flag(a.attemptId, q3!, { flagged: false });
    expect(cleared.body).toEqual({ questionId: q3, flagged: false });
    // clearing a flag that is not set is fine too
    expect((await flag(a.attemptId, q2!, { flagged: false })).status).toBe(200);
    expect(await flaggedOf(a.attemptId)).toEqual([q1]);
    const poll = await api(s.baseUrl).get(`/attempts/${a.attemptId}?questions=0`);
    expect(poll.status).toBe(200);
    expect(poll.body.flagged).toBeUndefined();
    // a flag changes no answer
    expect(poll.body.answers).toEqual([]);
  });

  it('follows the candidate to another computer: the resume from a fresh address lists them', async () => {
    const { e } = await examWith(3);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'FL-2', '4321');
    const q = a.questions[1]!.id;
    expect((await flag(a.attemptId, q, { flagged: true })).status).toBe(200);
    const moved = await sendFrom('127.42.0.9', s.baseUrl, 'POST', '/attempts/start', { accessCode: e.accessCode, studentId: 'FL-2', candidateName: 'Moved', candidatePin: '4321' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ isResumed: true, attemptId: a.attemptId, flagged: [q] });
  });

  it('keeps each attempt’s flags its own; a question of another paper is a 404, a bad body a 400, changing nothing', async () => {
    const { e } = await examWith(3);
    const other = await examWith(2);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'FL-3');
    const b = await startAttempt(s.baseUrl, e.accessCode, 'FL-4');
    const q = a.questions[0]!.id;
    expect((await flag(a.attemptId, q, { flagged: true })).status).toBe(200);
    expect(await flaggedOf(b.attemptId)).toEqual([]);
    const foreign = await flag(a.attemptId, other.qs[0]!.id, { flagged: true });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toContain('application/problem+json');
    expect(foreign.body.code).toBe('QUESTION_NOT_FOUND');
    expect((await flag('att_nobody', q, { flagged: true })).status).toBe(404);
    for (const body of [{}, { flagged: 'yes' }, { flagged: 1 }, { flagged: null }]) {
      const bad = await flag(a.attemptId, a.questions[2]!.id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(bad.body.errors)).toContain('flagged');
    }
    expect(await flaggedOf(a.attemptId)).toEqual([q]);
  });

  it('refuses a locked attempt (403) and a submitted one (409), as answer saves do', async () => {
    const { e } = await examWith(2, { maxTabViolations: 0 });
    const a = await startAttempt(s.baseUrl, e.accessCode, 'FL-5');
    const q = a.questions[0]!.id;
    expect((await api(s.baseUrl).post(`/attempts/${a.attemptId}/telemetry`, { type: 'TAB_SWITCH' })).body.status).toBe('DISQUALIFIED');
    const locked = await flag(a.attemptId, q, { flagged: true });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('DISQUALIFIED');

    const done = await startAttempt(s.baseUrl, e.accessCode, 'FL-6');
    expect((await api(s.baseUrl).post(`/attempts/${done.attemptId}/submit`)).status).toBe(200);
    const late = await flag(done.attemptId, q, { flagged: true });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('ALREADY_SUBMITTED');
  });

  it('is in /openapi.json with exactly its refusals', async () => {
    const doc = (await api(s.baseUrl).get('/openapi.json')).body;
    const op = doc.paths['/attempts/{id}/flags/{questionId}'].put;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '403', '404', '409', '429']);
    expect(op.responses['404'].description).toMatch(/QUESTION_NOT_FOUND/);
    expect(op.responses['409'].description).toMatch(/ALREADY_SUBMITTED.*TIME_OVER/);
    expect(doc.components.schemas.Session.properties.flagged).toBeDefined();
  });
});
