/**
 * The save channel's budgets (issue #34, finding 2; src/modules/candidate/channel-budget.ts):
 * every frame — bad JSON, a wrong shape, binary, a ping — takes a token of the connection's
 * budget and a point of the attempt's rate limit; past the budget the channel is closed
 * with 4429 and its seat (attempt + address) may not reopen it for a growing time (429
 * with Retry-After, on the upgrade and over plain HTTP), while another candidate on the
 * same address keeps saving and opening channels, and HTTP saves are never held back.
 * Three attempts closed so from one address slow that address's new channels only.
 * Before the budgets, malformed frames were answered one by one without end (the channel
 * stayed open) and never took a point of the attempt's limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ManualClock } from '../../src/platform/clock.js';
import { api, addQuestions, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, waitFor, type TestServer } from '../harness.js';
import { sendFrom } from '../security/from-address.js';

type Reply = { i?: number | null; s?: number; p?: { status: number; code?: string } };
interface Chan {
  ws: WebSocket;
  got: Reply[];
  closed: Promise<{ code: number; reason: string }>;
  save(frame: Record<string, unknown>): Promise<Reply>;
}
type Refusal = { status: number; body: Record<string, unknown>; headers: Record<string, unknown> };

/** Opens `attemptId`'s channel from `localAddress`; resolves to the channel or the refusal. */
function open(baseUrl: string, attemptId: string, localAddress = '127.0.0.1'): Promise<Chan | Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/attempts/${attemptId}/channel`, { perMessageDeflate: false, localAddress });
    const got: Reply[] = [];
    const waiting = new Map<number, (r: Reply) => void>();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as Reply;
      got.push(m);
      if (typeof m.i === 'number') waiting.get(m.i)?.(m);
    });
    ws.on('unexpected-response', (_q, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), headers: res.headers }));
    });
    ws.on('error', reject);
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: String(reason) })));
    ws.on('open', () =>
      resolve({
        ws,
        got,
        closed,
        save: (frame) => new Promise<Reply>((r) => (waiting.set(frame.i as number, r), ws.send(JSON.stringify(frame)))),
      }),
    );
  });
}
const isChan = (c: Chan | Refusal): c is Chan => 'ws' in c;
async function chan(baseUrl: string, attemptId: string, from?: string): Promise<Chan> {
  const c = await open(baseUrl, attemptId, from);
  if (!isChan(c)) throw new Error(`channel refused: ${c.status} ${JSON.stringify(c.body)}`);
  return c;
}

/** Sends `n` tiny malformed frames (bad JSON, binary, no id, an array, an empty ping). */
function flood(c: Chan, n: number): void {
  for (let k = 0; k < n && c.ws.readyState === WebSocket.OPEN; k++) {
    if (k % 5 === 0) c.ws.send('x');
    else if (k % 5 === 1) c.ws.send(Buffer.from([0]), { binary: true });
    else if (k % 5 === 2) c.ws.send('{}');
    else if (k % 5 === 3) c.ws.send('[1]');
    else c.ws.ping();
  }
}

/** Resolves the close, or 'still open' after `ms`. */
const closeOf = (c: Chan, ms = 5_000) => Promise.race([c.closed, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

const clock = new ManualClock(Date.parse('2026-11-22T09:00:00Z'));
let s: TestServer;
let accessCode: string;
beforeAll(async () => {
  s = await startTestServer({ clock });
  const w = await registerWorkspace(s.baseUrl);
  const e = await createExam(s.baseUrl, w.apiKey, w.id);
  await addQuestions(s.baseUrl, w.apiKey, w.id, e.id, sampleMcqs(2));
  accessCode = e.accessCode;
});
afterAll(() => s.close());

describe('a channel flooded with malformed frames', () => {
  it('is closed with 4429 after its budget, every frame counted against the attempt; the candidate beside it keeps saving', async () => {
    const flooder = await startAttempt(s.baseUrl, accessCode, 'FL-1');
    const honest = await startAttempt(s.baseUrl, accessCode, 'HO-1');
    const q = honest.questions[0]!;
    const f = await chan(s.baseUrl, flooder.attemptId);
    const h = await chan(s.baseUrl, honest.attemptId);
    flood(f, 400);
    // the honest channel saves while the flood is being read
    expect(await h.save({ i: 1, q: q.id, o: q.options[0]!.id, s: 1 })).toMatchObject({ i: 1, s: 1, a: 1 });
    const closed = await closeOf(f);
    expect(closed).toEqual({ code: 4429, reason: 'OVER_BUDGET' });
    // its frames were answered up to the budget (100 at the default 600 a minute), not all 400
    const refusals = f.got.filter((m) => m.p);
    expect(refusals.length).toBeGreaterThanOrEqual(60);
    expect(refusals.length).toBeLessThan(130);
    expect(refusals.every((m) => m.p!.status === 400 || m.p!.status === 429)).toBe(true);
    // each a whole problem body, as the PUT's (the prebuilt refusals keep every member)
    expect(refusals[0]).toEqual({ i: null, p: { code: 'VALIDATION', errors: [{ path: '(frame)', message: expect.any(String) }], type: '/problems/validation-error', title: 'Validation failed', status: 400, detail: expect.any(String), instance: `/attempts/${flooder.attemptId}/channel`, requestId: expect.any(String) } });
    expect(new Set(refusals.map((m) => (m.p as { requestId?: string }).requestId)).size).toBe(refusals.length);
    // the attempt's limit counted each handled frame, the pings (no reply) too, and the open
    const used = (await s.deps.limits.live.limiter.get(flooder.attemptId))!.consumedPoints;
    expect(used).toBeGreaterThan(refusals.length + 1);
    expect(used).toBeGreaterThanOrEqual(100);
    expect(await h.save({ i: 2, q: q.id, o: q.options[1]!.id, s: 2 })).toMatchObject({ i: 2, s: 2, a: 1 });
    // a frame with blanks around its JSON object is still a frame (JSON allows them)
    h.ws.send(` ${JSON.stringify({ i: 3, q: q.id, o: q.options[2]!.id, s: 3 })}\n`);
    await waitFor(() => h.got.some((m) => m.i === 3), 5_000);
    expect(h.got.find((m) => m.i === 3)).toMatchObject({ s: 3, a: 1 });
    expect(h.ws.readyState).toBe(WebSocket.OPEN);
    h.ws.close();
  });

  it('slows its seat (429 with a growing Retry-After on the upgrade and over HTTP), never another seat on the address, never an HTTP save', async () => {
    const flooder = await startAttempt(s.baseUrl, accessCode, 'FL-2');
    const other = await startAttempt(s.baseUrl, accessCode, 'HO-2');
    const q = flooder.questions[0]!;
    const f = await chan(s.baseUrl, flooder.attemptId);
    flood(f, 300);
    expect((await closeOf(f)).valueOf()).toMatchObject({ code: 4429 });
    const again = await open(s.baseUrl, flooder.attemptId);
    expect(isChan(again)).toBe(false);
    expect(again).toMatchObject({ status: 429, body: { status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 10 }, headers: { 'retry-after': '10' } });
    // the page asks over HTTP why its channel did not open: the same answer
    expect(await api(s.baseUrl).get(`/attempts/${flooder.attemptId}/channel`)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', retryAfterSeconds: 10 } });
    // HTTP saves go on, the flooder's own (within its attempt's limit) and the neighbour's
    expect((await api(s.baseUrl).put(`/attempts/${flooder.attemptId}/answers/${q.id}`, { optionId: q.options[2]!.id, seq: 1 })).status).toBe(200);
    // another candidate behind the same address opens its channel and saves
    const o = await chan(s.baseUrl, other.attemptId);
    expect(await o.save({ i: 1, q: other.questions[0]!.id, o: other.questions[0]!.options[0]!.id, s: 1 })).toMatchObject({ s: 1, a: 1 });
    o.ws.close();
    // after the wait the seat opens again; a second flood waits twice as long
    clock.advance(10_500);
    const f2 = await chan(s.baseUrl, flooder.attemptId);
    flood(f2, 300);
    expect(await closeOf(f2)).toMatchObject({ code: 4429 });
    expect(await open(s.baseUrl, flooder.attemptId)).toMatchObject({ status: 429, body: { retryAfterSeconds: 20 } });
    clock.advance(20_500);
  });

  it('slows every new channel of an address once three of its attempts were closed so, and only that address’s', async () => {
    const from = '127.0.0.7';
    for (let k = 0; k < 3; k++) {
      const a = await startAttempt(s.baseUrl, accessCode, `FL-A${k}`);
      const f = await chan(s.baseUrl, a.attemptId, from);
      flood(f, 300);
      expect(await closeOf(f)).toMatchObject({ code: 4429 });
    }
    const d = await startAttempt(s.baseUrl, accessCode, 'HO-A');
    expect(await open(s.baseUrl, d.attemptId, from)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    // the same attempt from another computer opens; the address's HTTP saves go on
    const elsewhere = await chan(s.baseUrl, d.attemptId, '127.0.0.8');
    elsewhere.ws.close();
    const q = d.questions[0]!;
    expect((await sendFrom(from, s.baseUrl, 'PUT', `/attempts/${d.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id, seq: 1 })).status).toBe(200);
  });

  it('closes a frame over the largest valid save from its header (1009) and counts it', async () => {
    const a = await startAttempt(s.baseUrl, accessCode, 'BIG-1');
    const c = await chan(s.baseUrl, a.attemptId);
    const before = (await s.deps.limits.live.limiter.get(a.attemptId))!.consumedPoints;
    c.ws.send('x'.repeat(400 * 1024));
    expect(await closeOf(c)).toMatchObject({ code: 1009 });
    expect((await s.deps.limits.live.limiter.get(a.attemptId))!.consumedPoints).toBe(before + 1);
  });
});
