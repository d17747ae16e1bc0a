/**
 * Issue 20 item 3: problem details never let an extension member overwrite RFC 7807's
 * own members. A disqualified (locked) attempt is refused on every candidate route with
 * `status` = the HTTP status number (403) and the attempt's state in `attemptStatus`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Forbidden, RESERVED_PROBLEM_MEMBERS, toProblem } from '../../src/platform/errors.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('problem details of a locked attempt', () => {
  it('answer PUT, batch, telemetry, submit, resume and GET all answer 403 with status 403 and attemptStatus', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { maxTabViolations: 0 });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    const a = await startAttempt(s.baseUrl, e.accessCode, 'L-1', '1357');
    const c = api(s.baseUrl);
    const dq = await c.post(`/attempts/${a.attemptId}/telemetry`, { type: 'TAB_SWITCH', meta: { action: 'window_blur' } });
    expect(dq.body).toMatchObject({ status: 'DISQUALIFIED', disqualified: true });
    const q = a.questions[0]!;
    const refusals = {
      'PUT answer': await c.put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id, seq: 1 }),
      'POST answers (batch)': await c.post(`/attempts/${a.attemptId}/answers`, { answers: [{ questionId: q.id, optionId: q.options[0]!.id, seq: 2 }] }),
      'POST telemetry': await c.post(`/attempts/${a.attemptId}/telemetry`, { type: 'TAB_SWITCH', meta: { action: 'window_blur' } }),
      'POST submit': await c.post(`/attempts/${a.attemptId}/submit`),
      'POST start (resume)': await c.post('/attempts/start', { accessCode: e.accessCode, studentId: 'L-1', candidateName: 'L', candidatePin: '1357' }),
      'GET attempt': await c.get(`/attempts/${a.attemptId}`),
    };
    for (const [route, r] of Object.entries(refusals)) {
      expect({ route, httpStatus: r.status, contentType: r.headers.get('content-type') }).toEqual({ route, httpStatus: 403, contentType: 'application/problem+json' });
      expect({ route, ...r.body }).toMatchObject({ route, type: '/problems/forbidden', title: 'Forbidden', status: 403, code: 'DISQUALIFIED', attemptStatus: 'DISQUALIFIED' });
      expect(typeof r.body.detail).toBe('string');
      expect(r.body.instance).toMatch(/^\/attempts\//);
    }
  });
});

describe('the error helper', () => {
  it('refuses an extension member named like a reserved member, even through an untyped path', () => {
    for (const k of RESERVED_PROBLEM_MEMBERS) {
      const extra = { [k]: 'X' } as Record<string, unknown>;
      expect(() => new Forbidden('locked', extra as never), k).toThrow(TypeError);
      expect(() => new ApiError(409, 'conflict', 'Conflict', 'd', extra as never), k).toThrow(TypeError);
    }
  });

  it('writes the reserved members after the extensions', () => {
    const err = new Forbidden('locked', { code: 'X' });
    // simulate an extension that got past the constructor (e.g. mutated afterwards)
    (err.extra as Record<string, unknown>).status = 'DISQUALIFIED';
    (err.extra as Record<string, unknown>).title = 'other';
    const body = toProblem(err, '/x', 'r1');
    expect(body).toMatchObject({ type: '/problems/forbidden', title: 'Forbidden', status: 403, detail: 'locked', instance: '/x', requestId: 'r1', code: 'X' });
  });
});
