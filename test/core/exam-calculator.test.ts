/**
 * The exam's calculator setting (issue 37 item 7): `calculator` is "none" (the default),
 * "basic" or "scientific" on POST /exams, PATCH /exams/{id} and the exam's JSON; anything
 * else is a 400 naming the field and changes nothing; the candidate's start/resume
 * response and its polls carry it, so the page knows whether to offer one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let ws: { id: string; apiKey: string };
beforeAll(async () => {
  s = await startTestServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s.close());

describe('exam calculator setting', () => {
  it('defaults to "none" in the exam JSON (POST and GET /exams/{id})', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    expect(e.calculator).toBe('none');
    const got = await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}`);
    expect(got.status).toBe(200);
    expect(got.body.calculator).toBe('none');
  });

  it('is set on create and changed by PATCH (other settings untouched)', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { calculator: 'basic', maxTabViolations: 5 });
    expect(e.calculator).toBe('basic');
    const p = await k.patch(`/exams/${e.id}`, { calculator: 'scientific' });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ calculator: 'scientific', maxTabViolations: 5 });
    // a PATCH of something else keeps it
    const p2 = await k.patch(`/exams/${e.id}`, { title: 'Physics mock' });
    expect(p2.body.calculator).toBe('scientific');
    expect((await k.patch(`/exams/${e.id}`, { calculator: 'none' })).body.calculator).toBe('none');
    // a duplicate keeps the setting
    await k.patch(`/exams/${e.id}`, { calculator: 'basic' });
    const dup = await k.post(`/exams/${e.id}/duplicate`, {});
    expect(dup.body.calculator).toBe('basic');
  });

  it('refuses any other value with a 400 naming the field, changing nothing', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const bad = await k.post('/exams', { workspaceId: ws.id, title: 'T', durationMins: 10, calculator: 'graphing' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(bad.body.errors)).toContain('calculator');
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { calculator: 'basic' });
    for (const value of ['Scientific', true, 1, null, '']) {
      const r = await k.patch(`/exams/${e.id}`, { calculator: value });
      expect(r.status, String(value)).toBe(400);
      expect(JSON.stringify(r.body.errors)).toContain('calculator');
    }
    expect((await k.get(`/exams/${e.id}`)).body.calculator).toBe('basic');
  });

  it('reaches the candidate in the start, resume and poll responses', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { calculator: 'scientific' });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    const started = await startAttempt(s.baseUrl, e.accessCode, 'CALC-1');
    expect(started.calculator).toBe('scientific');
    const resumed = await startAttempt(s.baseUrl, e.accessCode, 'CALC-1');
    expect(resumed.isResumed).toBe(true);
    expect(resumed.calculator).toBe('scientific');
    // the examiner switches it off mid-exam: the next poll says so
    await k.patch(`/exams/${e.id}`, { calculator: 'none' });
    const poll = await api(s.baseUrl).get(`/attempts/${started.attemptId}?questions=0`);
    expect(poll.status).toBe(200);
    expect(poll.body.calculator).toBe('none');
  });
});
