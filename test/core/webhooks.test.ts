import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { ManualClock } from '../../src/platform/clock.js';
import { backoffMs } from '../../src/modules/webhooks/dispatcher.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startReceiver, startTestServer, waitFor, type TestServer } from '../harness.js';

/** An independent verifier (Python's hmac), as a receiver in another language would do it. */
function pythonVerify(body: string, secret: string, header: string, id: string, ts: string, stdSig: string): string {
  const script = `
import hmac, hashlib, base64, sys, json
body, secret, header, wid, ts, std = [a for a in json.loads(sys.stdin.read())]
mine = 'sha256=' + hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()
std_mine = 'v1,' + base64.b64encode(hmac.new(secret.encode(), f'{wid}.{ts}.{body}'.encode(), hashlib.sha256).digest()).decode()
print('ok' if hmac.compare_digest(mine, header) and hmac.compare_digest(std_mine, std) else 'bad')
`;
  return execFileSync('python3', ['-c', script], { input: JSON.stringify([body, secret, header, id, ts, stdSig]) }).toString().trim();
}

const clock = new ManualClock();
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ clock });
});
afterAll(() => s.close());

describe('exam.attempt.completed webhook', () => {
  it('is delivered once, signed as the spec says, with the documented payload', async () => {
    const receiver = await startReceiver();
    try {
      const ws = await registerWorkspace(s.baseUrl, { webhookUrl: receiver.url });
      const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Chemistry' });
      await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
      const a = await startAttempt(s.baseUrl, e.accessCode, 'W-1', '1234', 'Chidi');
      await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`, { answers: [{ questionId: a.questions[0]!.id, optionId: a.questions[0]!.options[0]!.id }] });
      await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`); // idempotent: no second event
      await waitFor(() => receiver.received.length >= 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(1);
      const { body, headers } = receiver.received[0]!;
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-cbt-event']).toBe('exam.attempt.completed');
      expect(headers['x-cbt-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      const payload = JSON.parse(body);
      expect(headers['x-cbt-delivery']).toBe(payload.id);
      expect(headers['webhook-id']).toBe(payload.id);
      expect(pythonVerify(body, ws.webhookSecret, String(headers['x-cbt-signature']), String(headers['webhook-id']), String(headers['webhook-timestamp']), String(headers['webhook-signature']))).toBe('ok');
      expect(pythonVerify(body, 'whsec_wrong', String(headers['x-cbt-signature']), String(headers['webhook-id']), String(headers['webhook-timestamp']), String(headers['webhook-signature']))).toBe('bad');
      expect(payload).toMatchObject({
        type: 'exam.attempt.completed',
        workspaceId: ws.id,
        data: { attemptId: a.attemptId, examId: e.id, examTitle: 'Chemistry', candidateName: 'Chidi', studentId: 'W-1', score: 1, maxScore: 2, percentage: 50, grade: 'C6', status: 'COMPLETED', autoSubmitted: false, violations: 0 },
      });
      expect(payload.id).toMatch(/^evt_/);
      const list = await api(s.baseUrl, ws.apiKey).get('/webhooks/events?status=delivered');
      expect(list.body.map((x: { id: string }) => x.id)).toEqual([payload.id]);
    } finally {
      await receiver.close();
    }
  });

  it('retries with backoff, keeps id and body, and can be redelivered from the outbox', async () => {
    let failures = 2;
    const receiver = await startReceiver(() => (failures-- > 0 ? 503 : 200));
    try {
      const ws = await registerWorkspace(s.baseUrl, { webhookUrl: receiver.url });
      const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
      await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
      const a = await startAttempt(s.baseUrl, e.accessCode, 'W-2');
      await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`);
      const k = api(s.baseUrl, ws.apiKey);
      await waitFor(async () => (await k.get('/webhooks/events')).body[0]?.tries === 1);
      let ev = (await k.get('/webhooks/events?status=pending')).body[0];
      expect(ev).toMatchObject({ status: 'PENDING', tries: 1, lastStatusCode: 503, lastError: 'HTTP 503' });
      const delay = Date.parse(ev.nextAttemptAt) - clock.now();
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(60_000); // first retry within a minute
      await s.runtime.dispatcher.runOnce(); // not due yet: nothing sent
      expect((await k.get('/webhooks/events')).body[0].tries).toBe(1);
      clock.advance(delay);
      await s.runtime.dispatcher.runOnce();
      clock.advance(60_000);
      await s.runtime.dispatcher.runOnce();
      ev = (await k.get('/webhooks/events')).body[0];
      expect(ev).toMatchObject({ status: 'DELIVERED', tries: 3 });
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.body).id).toBe(ev.id);
      // redelivery sends the same id and bytes again
      const re = await k.post(`/webhooks/events/${ev.id}/redeliver`);
      expect(re.body.status).toBe('PENDING');
      await waitFor(() => receiver.received.length === 2);
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
      const other = await registerWorkspace(s.baseUrl);
      expect((await api(s.baseUrl, other.apiKey).post(`/webhooks/events/${ev.id}/redeliver`)).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it('backs off exponentially with jitter, capped at 15 minutes', () => {
    expect(backoffMs(1, () => 0.5)).toBe(10_000);
    expect(backoffMs(2, () => 0.5)).toBe(20_000);
    expect(backoffMs(5, () => 0.5)).toBe(160_000);
    expect(backoffMs(30, () => 0.5)).toBe(900_000);
    expect(backoffMs(1, () => 0)).toBe(8_000);
    expect(backoffMs(1, () => 1)).toBe(12_000);
  });

  it('marks events FAILED after 7 days of failures', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const ws = await registerWorkspace(s.baseUrl, { webhookUrl: receiver.url });
      const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
      await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
      const a = await startAttempt(s.baseUrl, e.accessCode, 'W-3');
      await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`);
      const k = api(s.baseUrl, ws.apiKey);
      await waitFor(async () => (await k.get('/webhooks/events')).body[0]?.tries === 1);
      clock.advance(7 * 24 * 3600_000);
      await s.runtime.dispatcher.runOnce();
      const ev = (await k.get('/webhooks/events?status=failed')).body[0];
      expect(ev).toMatchObject({ status: 'FAILED', tries: 2 });
    } finally {
      await receiver.close();
    }
  });

  it('queues exam.attempt.disqualified on disqualification', async () => {
    const receiver = await startReceiver();
    try {
      const ws = await registerWorkspace(s.baseUrl, { webhookUrl: receiver.url });
      const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { maxTabViolations: 0 });
      await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
      const a = await startAttempt(s.baseUrl, e.accessCode, 'W-4');
      await api(s.baseUrl).post(`/attempts/${a.attemptId}/telemetry`, { type: 'TAB_SWITCH', meta: { action: 'window_blur' } });
      await waitFor(() => receiver.received.length === 1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'exam.attempt.disqualified', data: { status: 'DISQUALIFIED', violations: 1 } });
    } finally {
      await receiver.close();
    }
  });
});
