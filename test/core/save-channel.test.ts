/**
 * The save channel (issue 26; src/modules/candidate/save-channel.ts) on the real server, with
 * the `ws` client as the page's WebSocket: a save over it lands in the answer buffer and
 * becomes durable (the reply's durableSeq, then the push after a flush); every refusal is
 * the problem the PUT route answers for the same input; refused upgrades; the attempt's
 * rate limit; a malformed frame leaves the channel working; and one save round trip is far
 * under the 450 bytes on the wire. The path is in /openapi.json; without Upgrade it
 * answers what the upgrade would (426 or the refusal); the operator's CBT_SAVE_CHANNEL=off
 * refuses every upgrade while PUT saves go on; a silent channel is pinged and kept open
 * while its peer answers, closed when it does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { ManualClock } from '../../src/platform/clock.js';
import { MAX_SEQ } from '../../src/modules/attempts/schemas.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, waitFor, type TestServer } from '../harness.js';

type Reply = { i?: number | null; s?: number; a?: number; r?: number; d?: number; p?: Record<string, unknown> & { status: number } };

interface Channel {
  ws: WebSocket;
  socket: Socket;
  /** every message from the server, in order */
  got: Reply[];
  /** sends one frame and resolves with the reply carrying its id (or i: null) */
  save(frame: Record<string, unknown> | string | Buffer): Promise<Reply>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens the channel of `attemptId`; resolves to the channel, or to the refusal (status, problem body). */
function openChannel(baseUrl: string, attemptId: string, headers: Record<string, string> = {}, opts: { autoPong?: boolean } = {}): Promise<Channel | { status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/attempts/${attemptId}/channel`, { headers, perMessageDeflate: false, autoPong: opts.autoPong ?? true });
    let socket: Socket;
    ws.on('upgrade', (res) => (socket = res.socket as Socket));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), headers: res.headers }));
    });
    ws.on('error', (e) => reject(e));
    const got: Reply[] = [];
    const waiting: ((r: Reply) => void)[] = [];
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as Reply;
      got.push(m);
      if ('i' in m) waiting.shift()?.(m);
    });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: String(reason) })));
    ws.on('open', () =>
      resolve({
        ws,
        socket,
        got,
        closed,
        save: (frame) =>
          new Promise<Reply>((r) => {
            waiting.push(r);
            if (Buffer.isBuffer(frame)) ws.send(frame, { binary: true });
            else ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
          }),
      }),
    );
  });
}

async function channel(baseUrl: string, attemptId: string, headers: Record<string, string> = {}, opts: { autoPong?: boolean } = {}): Promise<Channel> {
  const c = await openChannel(baseUrl, attemptId, headers, opts);
  if (!('ws' in c)) throw new Error(`channel refused: ${c.status} ${JSON.stringify(c.body)}`);
  return c;
}

async function refused(baseUrl: string, attemptId: string, headers: Record<string, string> = {}) {
  const c = await openChannel(baseUrl, attemptId, headers);
  if ('ws' in c) throw new Error('the channel opened');
  return c;
}

/** The members of a problem that say what was refused and why (not where or which request). */
const gist = (p: Record<string, unknown>) => {
  const { instance: _i, requestId: _r, ...rest } = p;
  return rest;
};

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
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(n));
  return e;
}

describe('saves over the channel', () => {
  it('land in the answer buffer as a PUT does, and become durable', async () => {
    const e = await examWith(3);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'C-1');
    const [q1, q2] = a.questions;
    const c = await channel(s.baseUrl, a.attemptId, { origin: s.baseUrl });
    expect(await c.save({ i: 1, q: q1!.id, o: q1!.options[1]!.id, s: 1 })).toEqual({ i: 1, s: 1, a: 1, r: 1800, d: 0 });
    expect(s.deps.buffer.dirtyCount).toBeGreaterThan(0);
    // an older seq does not overwrite (applied 0), as on the PUT
    expect(await c.save({ i: 2, q: q1!.id, o: q1!.options[0]!.id, s: 1 })).toMatchObject({ i: 2, s: 1, a: 0 });
    // without seq the server assigns the next
    expect(await c.save({ i: 3, q: q2!.id, o: q2!.options[2]!.id })).toMatchObject({ i: 3, s: 2, a: 1, d: 0 });
    await s.deps.buffer.flush();
    const view = await api(s.baseUrl).get(`/attempts/${a.attemptId}?questions=0`);
    expect(view.body.durableSeq).toBe(2);
    expect(view.body.answers).toEqual(
      expect.arrayContaining([
        { questionId: q1!.id, optionId: q1!.options[1]!.id, text: null, seq: 1 },
        { questionId: q2!.id, optionId: q2!.options[2]!.id, text: null, seq: 2 },
      ]),
    );
    // a later save's reply carries the new watermark
    expect(await c.save({ i: 4, q: q2!.id, o: null, s: 3 })).toMatchObject({ i: 4, s: 3, d: 2 });
    c.ws.close();
  });

  it('answers every refusal with the problem the PUT route answers, and the next save still works', async () => {
    const e = await examWith(2);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'C-2');
    const q = a.questions[0]!;
    const c = await channel(s.baseUrl, a.attemptId);
    const put = (questionId: string, body: Record<string, unknown>) => api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${questionId}`, body);
    const cases: [string, Record<string, unknown>][] = [
      ['q_nope', { optionId: q.options[0]!.id, seq: 1 }], // 404 QUESTION_NOT_FOUND
      [q.id, { optionId: 'opt_zzzzz', seq: 2 }], // 400: not an option of the question
      [q.id, { text: 'an essay', seq: 3 }], // 400: text on an MCQ
      [q.id, { optionId: q.options[0]!.id, seq: MAX_SEQ + 1 }], // 400: seq over MAX_SEQ
      [q.id, { optionId: q.options[0]!.id, seq: 0 }], // 400
      ['x'.repeat(65), { optionId: q.options[0]!.id, seq: 4 }], // 400: the path's questionId rule
      [q.id, { optionId: 7, seq: 5 }], // 400: body type
    ];
    let i = 10;
    for (const [questionId, body] of cases) {
      const viaPut = await put(questionId, body);
      expect(viaPut.status).toBeGreaterThanOrEqual(400);
      const reply = await c.save({ i: ++i, q: questionId, o: body.optionId, t: body.text, s: body.seq });
      expect(reply.i).toBe(i);
      expect(reply.p, JSON.stringify(body)).toBeDefined();
      expect(gist(reply.p!)).toEqual(gist(viaPut.body));
      expect(reply.p!.status).toBe(viaPut.status);
    }
    expect((await put('q_nope', {})).body).toMatchObject({ status: 404, code: 'QUESTION_NOT_FOUND' });
    // a frame that is not JSON, not an object, or without an id: an error reply, not a close
    for (const bad of ['not json', '[1,2]', '{"q":"x"}', '{"i":-1}']) {
      const r = await c.save(bad);
      expect(r).toMatchObject({ i: null, p: { status: 400, code: 'VALIDATION' } });
    }
    expect(await c.save(Buffer.from('{"i":98}'))).toMatchObject({ i: null, p: { status: 400 } });
    const ok = await c.save({ i: 99, q: q.id, o: q.options[3]!.id, s: 9 });
    expect(ok).toMatchObject({ i: 99, s: 9, a: 1 });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('refuses saves after a disqualification (403, then closes 4403) and after the time (409, closes 4409)', async () => {
    const e = await examWith(2, { maxTabViolations: 1, durationMins: 1 });
    const a = await startAttempt(s.baseUrl, e.accessCode, 'C-3');
    const q = a.questions[0]!;
    const c = await channel(s.baseUrl, a.attemptId);
    expect(await c.save({ i: 1, q: q.id, o: q.options[0]!.id, s: 1 })).toMatchObject({ s: 1, a: 1 });
    const t = () => api(s.baseUrl).post(`/attempts/${a.attemptId}/telemetry`, { type: 'TAB_SWITCH' });
    await t();
    expect((await t()).body).toMatchObject({ status: 'DISQUALIFIED' });
    const viaPut = await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[1]!.id, seq: 2 });
    const reply = await c.save({ i: 2, q: q.id, o: q.options[1]!.id, s: 2 });
    expect(reply.p).toMatchObject({ status: 403, code: 'DISQUALIFIED', attemptStatus: 'DISQUALIFIED' });
    expect(gist(reply.p!)).toEqual(gist(viaPut.body));
    expect((await c.closed).code).toBe(4403);
    expect(await refused(s.baseUrl, a.attemptId)).toMatchObject({ status: 403, body: { status: 403, code: 'DISQUALIFIED' } });

    const e2 = await examWith(2, { durationMins: 1 });
    const b = await startAttempt(s.baseUrl, e2.accessCode, 'C-4');
    const c2 = await channel(s.baseUrl, b.attemptId);
    clock.advance(95_000); // 35 s past the end: beyond the 30 s grace
    const late = await c2.save({ i: 1, q: b.questions[0]!.id, o: b.questions[0]!.options[0]!.id, s: 1 });
    expect(late.p).toMatchObject({ status: 409, code: 'TIME_OVER' });
    expect((await c2.closed).code).toBe(4409);
    expect(await refused(s.baseUrl, b.attemptId)).toMatchObject({ status: 409, body: { code: 'TIME_OVER' } });
    // submitted: refused with 409 ALREADY_SUBMITTED
    const e3 = await examWith(1);
    const d = await startAttempt(s.baseUrl, e3.accessCode, 'C-5');
    expect((await api(s.baseUrl).post(`/attempts/${d.attemptId}/submit`)).status).toBe(200);
    expect(await refused(s.baseUrl, d.attemptId)).toMatchObject({ status: 409, body: { code: 'ALREADY_SUBMITTED' } });
  });

  it('costs far less than 450 bytes on the wire per save round trip', async () => {
    const e = await examWith(1);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'C-6');
    const q = a.questions[0]!;
    const c = await channel(s.baseUrl, a.attemptId, { origin: s.baseUrl });
    await c.save({ i: 1, q: q.id, o: q.options[0]!.id, s: 1 });
    const before = c.socket.bytesWritten + c.socket.bytesRead;
    // the page's frame for a seq in the hundreds, as late in an exam
    await c.save({ i: 412, q: q.id, o: q.options[2]!.id, s: 412 });
    const bytes = c.socket.bytesWritten + c.socket.bytesRead - before;
    console.log(`one save over the channel: ${bytes} bytes on the wire (request and reply frames)`);
    expect(bytes).toBeLessThanOrEqual(450);
    expect(bytes).toBeLessThan(160);
    c.ws.close();
  });
});

describe('durableSeq pushes after a flush', () => {
  it('reach every channel whose saves became durable, in slices a few ms apart rather than all in one turn', async () => {
    // one flush made one push per channel in a single turn: ~480 sends held the event loop
    // 4–18 ms at 1,000 candidates, and the saves arriving meanwhile waited (docs/benchmarks.md)
    const t = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
    try {
      const w = await registerWorkspace(t.baseUrl);
      t.deps.sqlite.prepare('UPDATE workspaces SET credits = 100 WHERE id = ?').run(w.id);
      const e = await createExam(t.baseUrl, w.apiKey, w.id);
      await addQuestions(t.baseUrl, w.apiKey, w.id, e.id, sampleMcqs(1));
      const n = 48;
      // Turns of the event loop (server and clients share it): a counter bumped once per turn.
      let turn = 0;
      let ticking = true;
      const tick = () => {
        turn++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const cs: { c: Channel; pushedAt: number[]; pushTurn: number[] }[] = [];
      for (let k = 0; k < n; k++) {
        const a = await startAttempt(t.baseUrl, e.accessCode, `P-${k}`);
        const c = await channel(t.baseUrl, a.attemptId);
        const q = a.questions[0]!;
        expect(await c.save({ i: 1, q: q.id, o: q.options[k % q.options.length]!.id, s: 1 })).toMatchObject({ s: 1, d: 0 });
        const pushedAt: number[] = [];
        const pushTurn: number[] = [];
        c.ws.on('message', (d) => {
          if (!('i' in JSON.parse(String(d)))) {
            pushedAt.push(performance.now());
            pushTurn.push(turn);
          }
        });
        cs.push({ c, pushedAt, pushTurn });
      }
      await t.deps.buffer.flush();
      t.deps.events.emit({ kind: 'answers-flushed' });
      await waitFor(() => cs.every((x) => x.pushedAt.length > 0), 5_000);
      expect(cs.every((x) => x.c.got.some((m) => !('i' in m) && m.d === 1))).toBe(true);
      // 48 pushes: three slices of 16, the first in the flush's own turn and the next two on
      // timers 4 ms apart, so they reach the clients in more than one turn of the event loop
      // (one turn: all in one, the fault this guards). Counted in turns, not in ms: under the
      // full suite's load a late first slice once left 4.99 ms between first and last; and a
      // loop held past both timers runs the second and third slices in one timers phase, so
      // two turns is all a client can see of three slices then (seen once on 6b8ff29).
      expect(new Set(cs.map((x) => x.pushTurn[0]!)).size).toBeGreaterThanOrEqual(2);
      // a second flush with nothing new pushes nothing more
      await t.deps.buffer.flush();
      t.deps.events.emit({ kind: 'answers-flushed' });
      await new Promise((r) => setTimeout(r, 50));
      expect(cs.every((x) => x.pushedAt.length === 1)).toBe(true);
      ticking = false;
      for (const x of cs) x.c.ws.close();
    } finally {
      await t.close();
    }
  });
});

describe('the upgrade', () => {
  it('is refused, with a problem and no upgrade, for an unknown attempt, another site’s Origin, and a path that is no channel', async () => {
    const e = await examWith(1);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'U-1');
    const unknown = await refused(s.baseUrl, 'att_0000000000000000000000');
    expect(unknown).toMatchObject({ status: 404, body: { status: 404, type: '/problems/not-found' } });
    expect(unknown.headers['content-type']).toBe('application/problem+json');
    const hijack = await refused(s.baseUrl, a.attemptId, { origin: 'http://evil.example' });
    expect(hijack).toMatchObject({ status: 403, body: { code: 'ORIGIN_REFUSED' } });
    // same host name, another port: another origin
    const port = await refused(s.baseUrl, a.attemptId, { origin: 'http://127.0.0.1:1' });
    expect(port.status).toBe(403);
    expect((await refused(s.baseUrl, a.attemptId, { origin: 'null' })).status).toBe(403);
    const ws2 = new WebSocket(`${s.baseUrl.replace(/^http/, 'ws')}/attempts/${a.attemptId}/other`);
    const status = await new Promise<number>((r) => ws2.on('unexpected-response', (_q, res) => r(res.statusCode!)));
    expect(status).toBe(404);
    // the page's own origin opens it
    const ok = await channel(s.baseUrl, a.attemptId, { origin: s.baseUrl });
    ok.ws.close();
  });

  it('answers over plain HTTP what the upgrade would: 426 where it would open, else the same refusal', async () => {
    const e = await examWith(1);
    const a = await startAttempt(s.baseUrl, e.accessCode, 'U-2');
    const plain = await api(s.baseUrl).get(`/attempts/${a.attemptId}/channel`);
    expect(plain).toMatchObject({ status: 426, body: { status: 426, code: 'UPGRADE_REQUIRED', type: '/problems/upgrade-required' } });
    expect(plain.headers.get('content-type')).toBe('application/problem+json');
    expect(plain.headers.get('upgrade')).toBe('websocket');
    // refused alike: unknown attempt, submitted
    expect((await api(s.baseUrl).get('/attempts/att_0000000000000000000000/channel')).status).toBe((await refused(s.baseUrl, 'att_0000000000000000000000')).status);
    expect((await api(s.baseUrl).post(`/attempts/${a.attemptId}/submit`)).status).toBe(200);
    const [viaGet, viaUpgrade] = [await api(s.baseUrl).get(`/attempts/${a.attemptId}/channel`), await refused(s.baseUrl, a.attemptId)];
    expect(viaGet.status).toBe(409);
    expect(gist(viaGet.body)).toEqual(gist(viaUpgrade.body));
  });

  it('is described in /openapi.json: the path, the upgrade (101), its refusals and the frames', async () => {
    const doc = (await api(s.baseUrl).get('/openapi.json')).body;
    const op = doc.paths['/attempts/{id}/channel']?.get;
    expect(op).toBeDefined();
    expect(Object.keys(op.responses).sort()).toEqual(['101', '400', '403', '404', '409', '426', '429', '503']);
    expect(op.responses['101'].description).toMatch(/Switching Protocols/);
    expect(op.responses['404'].description).toMatch(/SAVE_CHANNEL_OFF/);
    expect(op.responses['403'].description).toMatch(/DISQUALIFIED.*SEB_USES_HTTP.*ORIGIN_REFUSED/);
    expect(op.responses['426'].description).toMatch(/UPGRADE_REQUIRED/);
    expect(op.description).toMatch(/Upgrade: websocket/);
    const x = op['x-save-channel'];
    expect(Object.keys(x.clientFrame)).toEqual(['i', 'q', 'o', 't', 's']);
    expect(Object.keys(x.serverFrames)).toEqual(['saved', 'refused', 'durable']);
    expect(Object.keys(x.serverFrames.saved)).toEqual(['i', 's', 'a', 'r', 'd']);
    expect(Object.keys(x.closeCodes)).toEqual(expect.arrayContaining(['1000', '1001', '1009', '4403', '4404', '4409']));
  });

  it('is refused for an exam that requires Safe Exam Browser (its checks are per HTTP request)', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const key = (e as unknown as { safeExamBrowser: { configKey: string } }).safeExamBrowser.configKey;
    const url = `${s.baseUrl}/attempts/start`;
    const start = await api('').post(url, { accessCode: e.accessCode, studentId: 'SEB-1', candidateName: 'S', candidatePin: '1234' }, { 'x-safeexambrowser-configkeyhash': createHash('sha256').update(url + key).digest('hex') });
    expect(start.status).toBe(200);
    const r = await refused(s.baseUrl, start.body.attemptId, { origin: s.baseUrl });
    expect(r).toMatchObject({ status: 403, body: { code: 'SEB_USES_HTTP' } });
    // refusing the channel locks nothing: the attempt is still in progress
    expect(s.deps.sessions.attempt(start.body.attemptId)!.row.status).toBe('IN_PROGRESS');
  });
});

describe('with jobs (the answer flush) and a small rate limit', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ jobs: true, config: { CBT_FLUSH_INTERVAL_MS: 50, CBT_ANSWER_RATE_LIMIT_PER_MIN: 8 } });
  });
  afterAll(() => t.close());

  it('pushes durableSeq once the flush committed, counts refused seqs as received, and spends the attempt’s rate limit per frame', async () => {
    const w = await registerWorkspace(t.baseUrl);
    const e = await createExam(t.baseUrl, w.apiKey, w.id);
    await addQuestions(t.baseUrl, w.apiKey, w.id, e.id, sampleMcqs(3));
    const a = await startAttempt(t.baseUrl, e.accessCode, 'R-1');
    const [q1, q2] = a.questions;
    const c = await channel(t.baseUrl, a.attemptId); // 1 point
    expect(await c.save({ i: 1, q: q1!.id, o: q1!.options[0]!.id, s: 1 })).toMatchObject({ s: 1, d: 0 }); // 2
    // refused (bad option): seq 2 is received, so it holds nothing back
    expect((await c.save({ i: 2, q: q2!.id, o: 'opt_nope0', s: 2 })).p).toMatchObject({ status: 400 }); // 3
    expect(await c.save({ i: 3, q: q2!.id, o: q2!.options[1]!.id, s: 3 })).toMatchObject({ s: 3 }); // 4
    // the flush commits: the channel is told without another save
    await waitFor(() => c.got.some((m) => !('i' in m) && m.d === 3), 5_000);
    expect((await api(t.baseUrl).get(`/attempts/${a.attemptId}?questions=0`)).body.durableSeq).toBe(3); // 5: the poll's bucket too
    for (let i = 4; i <= 6; i++) expect(await c.save({ i, q: q1!.id, o: q1!.options[i % 4]!.id, s: i })).toMatchObject({ s: i }); // 6..8
    const limited = await c.save({ i: 7, q: q1!.id, o: q1!.options[0]!.id, s: 7 });
    expect(limited.p).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    // the same bucket as the HTTP routes
    expect((await api(t.baseUrl).put(`/attempts/${a.attemptId}/answers/${q1!.id}`, { optionId: q1!.options[0]!.id, seq: 8 })).status).toBe(429);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('closes on server shutdown, and an idle channel whose peer answers no ping after its idle time', async () => {
    const idle = await startTestServer({ channelIdleMs: 200 });
    const w = await registerWorkspace(idle.baseUrl);
    const e = await createExam(idle.baseUrl, w.apiKey, w.id);
    await addQuestions(idle.baseUrl, w.apiKey, w.id, e.id, sampleMcqs(1));
    const a = await startAttempt(idle.baseUrl, e.accessCode, 'I-1');
    const c = await channel(idle.baseUrl, a.attemptId, {}, { autoPong: false });
    expect((await c.closed).code).toBe(1000);
    const b = await channel(idle.baseUrl, a.attemptId);
    expect(idle.channels.size).toBe(1);
    await idle.close();
    expect((await b.closed).code).toBe(1001);
  });
});

describe('an idle channel', () => {
  it('is pinged and stays open while its peer answers (as browsers do by themselves), for a few bytes instead of a new handshake', async () => {
    // idle close after 300 ms: the channel was closed then and the page opened a new one
    // (~650 B of handshake) every idle minute
    const t = await startTestServer({ channelIdleMs: 300 });
    try {
      const w = await registerWorkspace(t.baseUrl);
      const e = await createExam(t.baseUrl, w.apiKey, w.id);
      await addQuestions(t.baseUrl, w.apiKey, w.id, e.id, sampleMcqs(1));
      const a = await startAttempt(t.baseUrl, e.accessCode, 'K-1');
      const q = a.questions[0]!;
      const c = await channel(t.baseUrl, a.attemptId, { origin: t.baseUrl });
      let pings = 0;
      c.ws.on('ping', () => pings++);
      expect(await c.save({ i: 1, q: q.id, o: q.options[0]!.id, s: 1 })).toMatchObject({ s: 1 });
      const before = c.socket.bytesWritten + c.socket.bytesRead;
      let closedEarly = false;
      void c.closed.then(() => (closedEarly = true));
      await new Promise((r) => setTimeout(r, 1500)); // five idle times
      expect(closedEarly).toBe(false);
      expect(c.ws.readyState).toBe(WebSocket.OPEN);
      expect(pings).toBeGreaterThanOrEqual(3);
      const perPing = (c.socket.bytesWritten + c.socket.bytesRead - before) / pings;
      console.log(`keeping an idle channel open: ${perPing} bytes of frames per ping and its pong`);
      expect(perPing).toBeLessThanOrEqual(8);
      // the same channel still saves
      expect(await c.save({ i: 2, q: q.id, o: q.options[1]!.id, s: 2 })).toMatchObject({ i: 2, s: 2, a: 1 });
      expect(t.channels.size).toBe(1);
      // a peer that stops answering is closed after the idle time
      const silent = await channel(t.baseUrl, a.attemptId, {}, { autoPong: false });
      expect((await silent.closed).code).toBe(1000);
      expect(c.ws.readyState).toBe(WebSocket.OPEN);
      c.ws.close();
    } finally {
      await t.close();
    }
  });
});

describe('switched off by the operator (CBT_SAVE_CHANNEL=off)', () => {
  it('refuses every upgrade with 404 SAVE_CHANNEL_OFF (and says so over plain HTTP), while PUT saves go on and become durable', async () => {
    const t = await startTestServer({ config: { CBT_SAVE_CHANNEL: 'off' } });
    try {
      const w = await registerWorkspace(t.baseUrl);
      const e = await createExam(t.baseUrl, w.apiKey, w.id);
      await addQuestions(t.baseUrl, w.apiKey, w.id, e.id, sampleMcqs(2));
      const a = await startAttempt(t.baseUrl, e.accessCode, 'O-1');
      const [q1, q2] = a.questions;
      const r = await refused(t.baseUrl, a.attemptId, { origin: t.baseUrl });
      expect(r).toMatchObject({ status: 404, body: { status: 404, code: 'SAVE_CHANNEL_OFF', type: '/problems/not-found', instance: `/attempts/${a.attemptId}/channel` } });
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.body.detail).toMatch(/PUT/);
      // before anything else: an unknown attempt, another site's page
      expect((await refused(t.baseUrl, 'att_0000000000000000000000')).body).toMatchObject({ code: 'SAVE_CHANNEL_OFF' });
      expect((await refused(t.baseUrl, a.attemptId, { origin: 'http://evil.example' })).body).toMatchObject({ code: 'SAVE_CHANNEL_OFF' });
      // the page's question over HTTP gets the same answer
      const plain = await api(t.baseUrl).get(`/attempts/${a.attemptId}/channel`);
      expect(plain).toMatchObject({ status: 404, body: { code: 'SAVE_CHANNEL_OFF' } });
      expect(t.channels.size).toBe(0);
      // the refusals changed nothing; PUT saves work as ever
      expect(t.deps.sessions.attempt(a.attemptId)!.row.status).toBe('IN_PROGRESS');
      const put = (q: typeof q1, option: number, seq: number) => api(t.baseUrl).put(`/attempts/${a.attemptId}/answers/${q!.id}`, { optionId: q!.options[option]!.id, seq });
      expect((await put(q1, 1, 1)).body).toMatchObject({ saved: true, seq: 1 });
      expect((await put(q2, 2, 2)).body).toMatchObject({ saved: true, seq: 2 });
      await t.deps.buffer.flush();
      const view = await api(t.baseUrl).get(`/attempts/${a.attemptId}?questions=0`);
      expect(view.body.durableSeq).toBe(2);
      expect(view.body.answers).toEqual(
        expect.arrayContaining([
          { questionId: q1!.id, optionId: q1!.options[1]!.id, text: null, seq: 1 },
          { questionId: q2!.id, optionId: q2!.options[2]!.id, text: null, seq: 2 },
        ]),
      );
    } finally {
      await t.close();
    }
  });

  it('is read from the environment: on by default, `off` switches it off, anything else stops start-up', async () => {
    const { loadConfig } = await import('../../src/platform/config.js');
    expect(loadConfig({}).CBT_SAVE_CHANNEL).toBe('on');
    expect(loadConfig({ CBT_SAVE_CHANNEL: 'off' }).CBT_SAVE_CHANNEL).toBe('off');
    expect(() => loadConfig({ CBT_SAVE_CHANNEL: 'no' })).toThrow(/CBT_SAVE_CHANNEL/);
  });
});
