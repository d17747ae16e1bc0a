import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerWorkspace, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ config: { CBT_PROVISIONING_TOKEN: 'prov-token-123' } });
});
afterAll(() => s.close());

describe('POST /workspaces/standalone', () => {
  it('registers with 30 credits, an API key and a webhook secret', async () => {
    const r = await api(s.baseUrl).post('/workspaces/standalone', { name: 'Lagos Hall', ownerName: 'Ada', email: 'Ada@Example.com', webhookUrl: 'https://example.com/hook' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Lagos Hall', type: 'STANDALONE_HALL', credits: 30 });
    expect(r.body.id).toMatch(/^ws_/);
    expect(r.body.apiKey).toMatch(/^cbt_[0-9A-Za-z]{32,}$/);
    expect(r.body.webhookSecret).toBeTruthy();
    expect(r.headers.get('x-cbt-api-version')).toBe('1.2.0');
    // e-mails are unique case-insensitively
    const dup = await api(s.baseUrl).post('/workspaces/standalone', { name: 'X', ownerName: 'Y', email: 'ada@example.COM', webhookUrl: 'https://example.com/h' });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toContain('application/problem+json');
  });

  it('rejects invalid input with a 400 problem listing the fields', async () => {
    const r = await api(s.baseUrl).post('/workspaces/standalone', { name: '', email: 'not-an-email', webhookUrl: 'ftp://x' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ type: '/problems/validation-error', status: 400, instance: '/workspaces/standalone' });
    const paths = r.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'ownerName', 'email', 'webhookUrl']));
  });
});

describe('API key authentication', () => {
  it('accepts the key in either header and rejects missing or wrong keys with 401', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const bearer = await api(s.baseUrl).get('/workspaces/me', { authorization: `Bearer ${ws.apiKey}` });
    expect(bearer.status).toBe(200);
    expect(bearer.body).toMatchObject({ id: ws.id, credits: 30, hasPassword: false });
    expect((await api(s.baseUrl, ws.apiKey).get('/workspaces/me')).status).toBe(200);
    const none = await api(s.baseUrl).get('/workspaces/me');
    expect(none.status).toBe(401);
    expect(none.body.type).toBe('/problems/unauthorized');
    expect((await api(s.baseUrl, 'cbt_wrongwrongwrongwrongwrongwrongwrong').get('/workspaces/me')).status).toBe(401);
  });
});

describe('POST /workspaces/login', () => {
  it('creates a workspace for a new e-mail, then signs in with the same password', async () => {
    const email = `new.${Date.now()}@example.com`;
    const first = await api(s.baseUrl).post('/workspaces/login', { email, password: 'correct horse' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ownerEmail: email, credits: 30, _count: { exams: 0, questions: 0 } });
    const again = await api(s.baseUrl).post('/workspaces/login', { email: email.toUpperCase(), password: 'correct horse' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.apiKey).toBe(first.body.apiKey);
    const wrong = await api(s.baseUrl).post('/workspaces/login', { email, password: 'wrong password' });
    expect(wrong.status).toBe(401);
  });

  it('explains that an API-registered workspace sets its password first', async () => {
    const email = `api.${Date.now()}@example.com`;
    const ws = await registerWorkspace(s.baseUrl, { email });
    const r = await api(s.baseUrl).post('/workspaces/login', { email, password: 'whatever1' });
    expect(r.status).toBe(401);
    expect(r.body.detail).toMatch(/PUT \/workspaces\/me\/password/);
    expect((await api(s.baseUrl, ws.apiKey).put('/workspaces/me/password', { password: 'short' })).status).toBe(400);
    expect((await api(s.baseUrl, ws.apiKey).put('/workspaces/me/password', { password: 'long enough pw' })).status).toBe(200);
    const ok = await api(s.baseUrl).post('/workspaces/login', { email, password: 'long enough pw' });
    expect(ok.status).toBe(200);
    expect(ok.body.apiKey).toBe(ws.apiKey);
  });

  it('throttles repeated failures for one e-mail with 429', async () => {
    const email = `throttle.${Date.now()}@example.com`;
    await api(s.baseUrl).post('/workspaces/login', { email, password: 'the right one' });
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await api(s.baseUrl).post('/workspaces/login', { email, password: `wrong ${i}` })).status);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[11]).toBe(429);
    const blocked = await api(s.baseUrl).post('/workspaces/login', { email, password: 'the right one' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /workspaces/institution', () => {
  it('needs the provisioning token, creates (201) then returns (200) the workspace', async () => {
    const body = { schoolId: 'SCH-001', schoolName: 'Kings College', email: 'it@kings.example.com' };
    expect((await api(s.baseUrl).post('/workspaces/institution', body)).status).toBe(401);
    expect((await api(s.baseUrl).post('/workspaces/institution', body, { 'x-provisioning-token': 'nope' })).status).toBe(401);
    const created = await api(s.baseUrl).post('/workspaces/institution', body, { 'x-provisioning-token': 'prov-token-123' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'INSTITUTION', schoolId: 'SCH-001', credits: 30, name: 'Kings College' });
    const again = await api(s.baseUrl).post('/workspaces/institution', body, { 'x-provisioning-token': 'prov-token-123' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
  });

  it('answers 503 when no token is configured', async () => {
    const other = await startTestServer();
    try {
      const r = await api(other.baseUrl).post('/workspaces/institution', { schoolId: 'A', schoolName: 'B', email: 'c@d.example.com' }, { 'x-provisioning-token': 'x' });
      expect(r.status).toBe(503);
    } finally {
      await other.close();
    }
  });
});

describe('workspace settings', () => {
  it('changes the webhook URL, rotates the secret, lists the audit log', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const k = api(s.baseUrl, ws.apiKey);
    const p = await k.patch('/workspaces/me', { webhookUrl: 'http://127.0.0.1:1234/new' });
    expect(p.status).toBe(200);
    expect(p.body.webhookUrl).toBe('http://127.0.0.1:1234/new');
    const rot = await k.post('/workspaces/me/webhook-secret');
    expect(rot.status).toBe(200);
    expect(rot.body.webhookSecret).not.toBe(ws.webhookSecret);
    expect((await k.get('/workspaces/me/audit')).status).toBe(200);
  });
});
