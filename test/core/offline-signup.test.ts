/**
 * Sign-up that fits an offline centre (issue 36 item 2): POST /workspaces/standalone
 * without a webhookUrl → 201; its events wait in the outbox (PENDING, never tried, never
 * FAILED, however long) until PATCH /workspaces/me sets a URL, then are delivered to a
 * real receiver on loopback, with a full 7-day failure clock from that moment.
 * POST /workspaces/login with createIfMissing:false finds out whether a hall exists
 * without creating one (404), and the wrong password reads as a sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { addQuestions, api, createExam, sampleMcqs, startAttempt, startReceiver, startTestServer, waitFor, type TestServer } from '../harness.js';

const clock = new ManualClock();
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ clock, config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
});
afterAll(() => s.close());

const DAY = 24 * 3600_000;

/** A hall registered without a webhook URL, with one completed attempt. */
async function offlineHall(tag: string) {
  const r = await api(s.baseUrl).post('/workspaces/standalone', { name: `Offline ${tag}`, ownerName: 'Ada Obi', email: `offline.${tag}.${Date.now()}@example.com` });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toMatchObject({ credits: 30, type: 'STANDALONE_HALL' });
  const ws = r.body as { id: string; apiKey: string };
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
  const a = await startAttempt(s.baseUrl, e.accessCode, `OFF-${tag}`);
  expect((await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`)).status).toBe(200);
  return { ws, attemptId: a.attemptId };
}

describe('standalone registration without a webhook URL', () => {
  it('registers (201), keeps the event waiting, and delivers it once a URL is set', async () => {
    const { ws, attemptId } = await offlineHall('a');
    const k = api(s.baseUrl, ws.apiKey);
    expect((await k.get('/workspaces/me')).body.webhookUrl).toBeNull();
    await new Promise((r) => setTimeout(r, 200)); // the outbox kick after submit has run
    await s.runtime.dispatcher.runOnce();
    clock.advance(8 * DAY); // longer than the 7-day failure clock
    await s.runtime.dispatcher.runOnce();
    let [ev] = (await k.get('/webhooks/events')).body;
    expect(ev).toMatchObject({ status: 'PENDING', tries: 0, lastError: null });

    const receiver = await startReceiver();
    try {
      const p = await k.patch('/workspaces/me', { webhookUrl: receiver.url });
      expect(p.status).toBe(200);
      await waitFor(() => receiver.received.length >= 1, 5000); // delivered without waiting for a scheduled run
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ id: ev.id, type: 'exam.attempt.completed', data: { attemptId } });
      [ev] = (await k.get('/webhooks/events')).body;
      expect(ev).toMatchObject({ status: 'DELIVERED', tries: 1 });
    } finally {
      await receiver.close();
    }
  });

  it('starts the 7-day failure clock when the URL is set, not when the event was written', async () => {
    const { ws } = await offlineHall('b');
    const k = api(s.baseUrl, ws.apiKey);
    clock.advance(6 * DAY);
    const receiver = await startReceiver(() => 503);
    try {
      await k.patch('/workspaces/me', { webhookUrl: receiver.url });
      await s.runtime.dispatcher.runOnce();
      clock.advance(2 * DAY); // 8 days after the event, 2 after the URL
      await s.runtime.dispatcher.runOnce();
      const [ev] = (await k.get('/webhooks/events')).body;
      expect(ev).toMatchObject({ status: 'PENDING', lastStatusCode: 503 });
      expect(ev.tries).toBeGreaterThanOrEqual(1);
      clock.advance(6 * DAY); // 8 days after the URL
      await s.runtime.dispatcher.runOnce();
      expect((await k.get('/webhooks/events')).body[0]).toMatchObject({ status: 'FAILED' });
    } finally {
      await receiver.close();
    }
  });
});

describe('POST /workspaces/login with createIfMissing: false', () => {
  it('answers 404 for an unknown e-mail and creates nothing; the default still creates', async () => {
    const email = `ask.first.${Date.now()}@example.com`;
    const ask = await api(s.baseUrl).post('/workspaces/login', { email, password: 'a good password', createIfMissing: false });
    expect(ask.status).toBe(404);
    expect(ask.headers.get('content-type')).toContain('application/problem+json');
    expect(ask.body).toMatchObject({ status: 404, code: 'NO_SUCH_HALL' });
    expect(s.deps.sqlite.prepare('SELECT count(*) AS n FROM workspaces WHERE email_key = ?').get(email)).toEqual({ n: 0 });
    const created = await api(s.baseUrl).post('/workspaces/login', { email, password: 'a good password' });
    expect(created.status).toBe(200);
    expect(created.body.credits).toBe(30);
    // a known e-mail signs in the same with createIfMissing: false
    const again = await api(s.baseUrl).post('/workspaces/login', { email, password: 'a good password', createIfMissing: false });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    const wrong = await api(s.baseUrl).post('/workspaces/login', { email, password: 'not the password', createIfMissing: false });
    expect(wrong.status).toBe(401);
    expect(wrong.body.detail).toMatch(/^[A-Z][^]*\.$/);
    expect(wrong.body.detail).toMatch(/password/i);
    expect((await api(s.baseUrl).post('/workspaces/login', { email, password: 'x', createIfMissing: 'no' })).status).toBe(400);
  });
});
