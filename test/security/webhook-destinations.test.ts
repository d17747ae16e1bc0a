/**
 * Webhook destinations (issue 22 part 4): by default a webhook URL on loopback,
 * link-local (cloud metadata included), an unspecified address or this machine's own
 * address is refused when it is set (400) and again at delivery, after DNS resolution
 * (a name that now resolves to loopback is not followed: DNS rebinding). LAN addresses
 * stay allowed; CBT_WEBHOOK_ALLOW_LOCAL=1 (what the test harness sets for its loopback
 * receivers) allows a receiver on the same machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkInterfaces } from 'node:os';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startReceiver, startTestServer, type TestServer } from '../harness.js';

let strict: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  strict = await startTestServer({ config: { CBT_WEBHOOK_ALLOW_LOCAL: '0' } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await strict.close();
  await receiver.close();
});

const register = (webhookUrl: string) =>
  api(strict.baseUrl).post('/workspaces/standalone', { name: 'Hall', ownerName: 'Owner', email: `wh.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`, webhookUrl });
const ownAddress = Object.values(networkInterfaces()).flat().find((ni) => ni && !ni.internal && ni.family === 'IPv4')?.address;

describe('setting a webhook URL', () => {
  it('refuses loopback, link-local, metadata, unspecified and this machine’s addresses with 400', async () => {
    const refused = [
      'http://127.0.0.1:9/hook',
      'http://127.1.2.3/hook',
      'http://localhost:8080/hook',
      'http://LOCALHOST./hook',
      'http://[::1]:8080/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.10.20/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0:22/',
      'http://[::]/hook',
      'http://224.0.0.1/hook',
      ...(ownAddress ? [`http://${ownAddress}:8080/hook`] : []),
    ];
    const before = strict.deps.sqlite.prepare('SELECT count(*) AS n FROM workspaces').get() as { n: number };
    for (const url of refused) {
      const r = await register(url);
      expect([r.status, r.body.code], url).toEqual([400, 'WEBHOOK_URL_REFUSED']);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.errors[0].path).toBe('webhookUrl');
    }
    expect(strict.deps.sqlite.prepare('SELECT count(*) AS n FROM workspaces').get()).toEqual(before); // nothing created
    expect((await register('http://127.0.0.1:9/hook')).body.detail).toMatch(/loopback.*CBT_WEBHOOK_ALLOW_LOCAL=1/);
    expect((await register('http://169.254.169.254/')).body.detail).not.toMatch(/CBT_WEBHOOK_ALLOW_LOCAL/); // no setting opens metadata
  });

  it('allows LAN and internet addresses, and refuses the same on PATCH /workspaces/me', async () => {
    for (const url of ['http://192.168.1.50:8080/hook', 'http://10.0.0.7/hook', 'http://172.16.4.4/h', 'https://results.example.com/hook', 'http://[fd12:3456::7]/hook']) {
      expect((await register(url)).status, url).toBe(201);
    }
    const ws = await register('http://192.168.1.50/hook');
    const key = api(strict.baseUrl, ws.body.apiKey);
    const patched = await key.patch('/workspaces/me', { webhookUrl: 'http://169.254.169.254/latest/meta-data/iam/' });
    expect([patched.status, patched.body.code]).toEqual([400, 'WEBHOOK_URL_REFUSED']);
    expect((await key.get('/workspaces/me')).body.webhookUrl).toBe('http://192.168.1.50/hook');
    expect((await key.patch('/workspaces/me', { webhookUrl: 'http://192.168.1.51/hook' })).status).toBe(200);
  });
});

describe('delivering', () => {
  /** A workspace with one completed attempt, whose stored URL is then set behind the API's back. */
  async function eventFor(storedUrl: string) {
    const ws = await registerWorkspace(strict.baseUrl, { webhookUrl: 'http://192.168.1.50/hook' });
    const e = await createExam(strict.baseUrl, ws.apiKey, ws.id);
    await addQuestions(strict.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const a = await startAttempt(strict.baseUrl, e.accessCode, 'W-1');
    // e.g. a name that resolved to a LAN address when it was set and to loopback now
    strict.deps.sqlite.prepare('UPDATE workspaces SET webhook_url = ? WHERE id = ?').run(storedUrl, ws.id);
    expect((await api(strict.baseUrl).post(`/attempts/${a.attemptId}/submit`, {})).status).toBe(200);
    // the outbox write kicks the dispatcher (runtime.ts); wait for that first try
    await new Promise((r) => setTimeout(r, 300));
    await strict.runtime.dispatcher.idle();
    return strict.deps.sqlite.prepare('SELECT status, last_error, last_status_code FROM outbox_events WHERE workspace_id = ?').get(ws.id) as { status: string; last_error: string; last_status_code: number | null };
  }

  it('re-checks the addresses DNS gives at delivery time: a name now on loopback is not followed', async () => {
    const port = new URL(receiver.url).port;
    for (const url of [`http://localhost:${port}/hook`, `http://127.0.0.1:${port}/hook`]) {
      const row = await eventFor(url);
      expect(row.status, url).toBe('PENDING'); // retried later, never sent there
      expect(row.last_error, url).toMatch(/^refused: .*loopback/);
      expect(row.last_status_code).toBeNull();
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('with CBT_WEBHOOK_ALLOW_LOCAL=1 a receiver on this machine gets the event', async () => {
    const local = await startTestServer({ config: { CBT_WEBHOOK_ALLOW_LOCAL: '1' } });
    try {
      const ws = await registerWorkspace(local.baseUrl, { webhookUrl: receiver.url.replace('127.0.0.1', 'localhost') });
      const e = await createExam(local.baseUrl, ws.apiKey, ws.id);
      await addQuestions(local.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
      const a = await startAttempt(local.baseUrl, e.accessCode, 'L-1');
      await api(local.baseUrl).post(`/attempts/${a.attemptId}/submit`, {});
      await local.runtime.dispatcher.runOnce();
      expect(receiver.received.map((r) => JSON.parse(r.body).data.attemptId)).toContain(a.attemptId);
    } finally {
      await local.close();
    }
  });
});
