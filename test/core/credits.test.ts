/**
 * Credits a centre can top up offline (issue 36 item 1): the hall operator lists the
 * workspaces with their credits and adds credits to one (POST /system/workspaces/{id}/credits);
 * a workspace key gets 403, no credential 401, a bad amount 400, an unknown workspace 404;
 * each top-up is an audit row of the workspace with its note. GET /workspaces/me tells the
 * examiner which exams' rosters have more waiting candidates than credits left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let op: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  op = { 'x-operator-key': rotateOperatorCredential(s.dataDir) };
});
afterAll(() => s.close());

describe('POST /system/workspaces/{id}/credits', () => {
  it('adds credits for the operator, with the note in the workspace audit log', async () => {
    const ws = await registerWorkspace(s.baseUrl, { name: 'Unity Tutorial Centre' });
    const r = await api(s.baseUrl).post(`/system/workspaces/${ws.id}/credits`, { add: 70, note: 'Paid cash, receipt 0042' }, op);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id: ws.id, credits: 100 });
    expect((await api(s.baseUrl, ws.apiKey).get('/workspaces/me')).body.credits).toBe(100);
    const audit = await api(s.baseUrl, ws.apiKey).get('/workspaces/me/audit');
    expect(audit.body[0]).toMatchObject({ action: 'credits.add', targetType: 'workspace', targetId: ws.id, reason: 'Paid cash, receipt 0042', detail: { add: 70, credits: 100, by: 'operator' } });
    // the Bearer form of the credential works too
    const bearer = await api(s.baseUrl).post(`/system/workspaces/${ws.id}/credits`, { add: 1, note: '' }, { authorization: `Bearer ${op['x-operator-key']}` });
    expect(bearer.body.credits).toBe(101);
  });

  it('refuses a workspace API key (403), no credential (401), a bad amount (400) and an unknown workspace (404), changing nothing', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const url = `/system/workspaces/${ws.id}/credits`;
    const key = await api(s.baseUrl, ws.apiKey).post(url, { add: 5, note: 'my own credits' });
    expect(key.status).toBe(403);
    expect(key.headers.get('content-type')).toContain('application/problem+json');
    const none = await api(s.baseUrl).post(url, { add: 5, note: 'x' });
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    for (const bad of [{ add: 0, note: 'x' }, { add: -5, note: 'x' }, { add: 100_001, note: 'x' }, { add: 2.5, note: 'x' }, { add: '5', note: 'x' }, { note: 'x' }, { add: 5, note: 'n'.repeat(201) }]) {
      const r = await api(s.baseUrl).post(url, bad, op);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body).toMatchObject({ type: '/problems/validation-error', status: 400 });
    }
    const unknown = await api(s.baseUrl).post('/system/workspaces/ws_doesNotExist/credits', { add: 5, note: 'x' }, op);
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toBe('/problems/not-found');
    expect((await api(s.baseUrl, ws.apiKey).get('/workspaces/me')).body.credits).toBe(30);
    const audit = await api(s.baseUrl, ws.apiKey).get('/workspaces/me/audit');
    expect(audit.body.filter((a: { action: string }) => a.action === 'credits.add')).toEqual([]);
  });

  it('lets the 31st candidate start after a top-up (402 before)', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    for (let i = 1; i <= 30; i++) await startAttempt(s.baseUrl, e.accessCode, `C-${i}`);
    await expect(startAttempt(s.baseUrl, e.accessCode, 'C-31')).rejects.toThrow(/402/);
    expect((await api(s.baseUrl).post(`/system/workspaces/${ws.id}/credits`, { add: 10, note: 'term two' }, op)).body.credits).toBe(10);
    await startAttempt(s.baseUrl, e.accessCode, 'C-31');
    expect((await api(s.baseUrl, ws.apiKey).get('/workspaces/me')).body.credits).toBe(9);
  }, 60_000);
});

describe('GET /system/workspaces', () => {
  it('lists every workspace with its credits for the operator only', async () => {
    const ws = await registerWorkspace(s.baseUrl, { name: 'Kano Study Centre' });
    const r = await api(s.baseUrl).get('/system/workspaces', op);
    expect(r.status).toBe(200);
    expect(r.body.workspaces).toEqual(expect.arrayContaining([expect.objectContaining({ id: ws.id, name: 'Kano Study Centre', credits: 30, type: 'STANDALONE_HALL' })]));
    expect((await api(s.baseUrl, ws.apiKey).get('/system/workspaces')).status).toBe(403);
    expect((await api(s.baseUrl).get('/system/workspaces')).status).toBe(401);
  });
});

describe('GET /workspaces/me: candidates waiting on rosters', () => {
  it('names the exams whose roster has more candidates without an attempt than credits left', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'JAMB mock' });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const candidates = Array.from({ length: 32 }, (_, i) => ({ studentId: `R-${i + 1}`, candidateName: `Roster ${i + 1}` }));
    const added = await api(s.baseUrl, ws.apiKey).post(`/exams/${e.id}/roster`, { candidates });
    expect(added.status).toBe(201);
    await startAttempt(s.baseUrl, e.accessCode, 'R-1', added.body.candidates[0].pin);
    const me = (await api(s.baseUrl, ws.apiKey).get('/workspaces/me')).body;
    expect(me.credits).toBe(29);
    expect(me.rosterWaiting).toEqual([{ examId: e.id, title: 'JAMB mock', waiting: 31 }]);
  });
});
