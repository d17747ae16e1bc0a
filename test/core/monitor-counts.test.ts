/**
 * The live monitor's answered counts and its delta slices (issue 40 §4): the snapshot and
 * the deltas count answers alike — saves not yet flushed, and a blank essay not counted —
 * and a tick with more than DELTA_SLICE changed rows sends them as several `delta` events;
 * a tick looks at its attempts a slice at a time, with a turn of the event loop between.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, waitFor, type TestServer } from '../harness.js';
import { openEventStream } from '../sse.js';
import { DELTA_SLICE, MonitorFeed } from '../../src/modules/attempts/monitor-feed.js';
import type { AttemptSummary, MonitorSnapshot } from '../../web/admin/types.js';

let s: TestServer;
beforeAll(async () => {
  // no flush during a test unless it asks for one; several attempts from loopback in one
  // open room (the slices test starts 250 from seats that may share an address)
  s = await startTestServer({ config: { CBT_FLUSH_INTERVAL_MS: 60_000, CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
});
afterAll(() => s.close());

/** Reads a monitor stream: its events (name, parsed data, SSE id) as they arrive. */
async function openStream(examId: string, apiKey: string) {
  const stream = await openEventStream(`${s.baseUrl}/exams/${examId}/monitor/stream`, { 'x-api-key': apiKey });
  expect(stream.res.status).toBe(200);
  return stream;
}

describe('monitor answered counts', () => {
  it('counts alike in the snapshot and the deltas: unflushed saves in, blank essays out', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, [...sampleMcqs(2), { prompt: 'Explain osmosis.', type: 'SHORT_ESSAY', marks: 2 }]);
    const live = await startAttempt(s.baseUrl, e.accessCode, 'MC-1');
    const done = await startAttempt(s.baseUrl, e.accessCode, 'MC-2');
    const mcq = live.questions.find((q) => q.type === 'MCQ')!;
    const essay = live.questions.find((q) => q.type === 'SHORT_ESSAY')!;
    // still typing, not flushed: one MCQ answered, the essay blank
    expect((await api(s.baseUrl).put(`/attempts/${live.attemptId}/answers/${mcq.id}`, { optionId: mcq.options[0]!.id })).status).toBe(200);
    expect((await api(s.baseUrl).put(`/attempts/${live.attemptId}/answers/${essay.id}`, { text: '   ' })).status).toBe(200);
    // submitted: its answers are stored (an MCQ and a blank essay), the buffer lets the attempt go
    const dm = done.questions.find((q) => q.type === 'MCQ')!;
    expect((await api(s.baseUrl).put(`/attempts/${done.attemptId}/answers/${dm.id}`, { optionId: dm.options[1]!.id })).status).toBe(200);
    expect((await api(s.baseUrl).put(`/attempts/${done.attemptId}/answers/${essay.id}`, { text: ' \n\t ' })).status).toBe(200);
    expect((await api(s.baseUrl).post(`/attempts/${done.attemptId}/submit`, {})).status).toBe(200);

    const stream = await openStream(e.id, ws.apiKey);
    try {
      await waitFor(() => stream.events.length > 0, 4000);
      const rows = new Map((stream.events[0]!.data as MonitorSnapshot).attempts.map((x) => [x.attemptId, x]));
      expect(rows.get(live.attemptId)).toMatchObject({ answered: 1 });
      expect(rows.get(done.attemptId)).toMatchObject({ answered: 1, status: 'COMPLETED' });
      // the JSON snapshot says the same
      const snap = (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/monitor`)).body as MonitorSnapshot;
      expect(snap.attempts.find((x) => x.attemptId === done.attemptId)).toMatchObject({ answered: 1 });
      // the essay gets words: the delta counts it, still unflushed
      expect((await api(s.baseUrl).put(`/attempts/${live.attemptId}/answers/${essay.id}`, { text: 'Water moves in.' })).status).toBe(200);
      const delta = await waitFor(() => stream.events.find((x) => x.event === 'delta' && x.data.attempts.some((a: AttemptSummary) => a.attemptId === live.attemptId)), 4000);
      expect(delta!.data.attempts.find((a: AttemptSummary) => a.attemptId === live.attemptId)).toMatchObject({ answered: 2 });
      // and a clear takes it away again
      const seen = stream.events.length;
      expect((await api(s.baseUrl).put(`/attempts/${live.attemptId}/answers/${mcq.id}`, { optionId: null })).status).toBe(200);
      const cleared = await waitFor(() => stream.events.slice(seen).find((x) => x.event === 'delta'), 4000);
      expect(cleared!.data.attempts.find((a: AttemptSummary) => a.attemptId === live.attemptId)).toMatchObject({ answered: 1 });
    } finally {
      await stream.close();
    }
  });

  it('sends more than DELTA_SLICE changed rows of one tick as several delta events of at most DELTA_SLICE rows', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    // two and a half slices of candidates (a new workspace has 30 credits; a start takes one)
    const n = 2 * DELTA_SLICE + DELTA_SLICE / 2;
    s.deps.sqlite.prepare('UPDATE workspaces SET credits = 1000 WHERE id = ?').run(ws.id);
    const ids: string[] = [];
    for (let i = 0; i < n; i += 20) {
      const batch = await Promise.all(Array.from({ length: Math.min(20, n - i) }, (_, j) => startAttempt(s.baseUrl, e.accessCode, `SL-${i + j}`)));
      ids.push(...batch.map((a) => a.attemptId));
    }
    const stream = await openStream(e.id, ws.apiKey);
    try {
      await waitFor(() => stream.events.length > 0, 10_000);
      expect(stream.events[0]!.data.attempts).toHaveLength(n);
      // let the starts' own deltas go by, then change all n rows within one tick
      await new Promise((r) => setTimeout(r, 2500));
      const seen = stream.events.length;
      for (const attemptId of ids) s.deps.events.emit({ kind: 'attempt-changed', examId: e.id, attemptId });
      await waitFor(() => {
        const rows = stream.events.slice(seen).filter((x) => x.event === 'delta').flatMap((x) => x.data.attempts as AttemptSummary[]);
        return new Set(rows.map((a) => a.attemptId)).size === n;
      }, 10_000);
      const deltas = stream.events.slice(seen).filter((x) => x.event === 'delta');
      expect(deltas.map((d) => d.data.attempts.length)).toEqual([DELTA_SLICE, DELTA_SLICE, DELTA_SLICE / 2]);
      for (let i = 1; i < deltas.length; i++) {
        expect(deltas[i]!.data.serverTime).toBe(deltas[0]!.data.serverTime);
        expect(Number(deltas[i]!.id)).toBe(Number(deltas[i - 1]!.id) + 1);
      }
    } finally {
      await stream.close();
    }
  }, 120_000);

  it('looks at the attempts a slice at a time, a turn (null) between slices; a change meanwhile is the next tick’s', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    s.deps.sqlite.prepare('UPDATE workspaces SET credits = 1000 WHERE id = ?').run(ws.id);
    const n = 100;
    const ids: string[] = [];
    for (let i = 0; i < n; i += 20) ids.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => startAttempt(s.baseUrl, e.accessCode, `SC-${i + j}`)))).map((a) => a.attemptId));
    // slices of 40: 40, 40 and 20 attempts looked at, a null between each two
    const feed = new MonitorFeed(s.deps, ws.id, e.id, 40);
    expect(feed.full().attempts).toHaveLength(n);
    for (const attemptId of ids) feed.note({ kind: 'attempt-changed', examId: e.id, attemptId });
    const items: unknown[] = [];
    for (const d of feed.tick().deltas) {
      items.push(d);
      // after the first slice: an attempt it looked at already changes again
      if (items.length === 1) feed.note({ kind: 'attempt-changed', examId: e.id, attemptId: ids[0]! });
    }
    expect(items.map((d) => (d === null ? null : (d as { attempts: unknown[] }).attempts.length))).toEqual([null, null, DELTA_SLICE]);
    expect(new Set((items[2] as { attempts: AttemptSummary[] }).attempts.map((a) => a.attemptId))).toEqual(new Set(ids));
    // that change is not lost: the next tick sends its row, and only it
    const next = [...feed.tick().deltas].filter((d) => d !== null);
    expect(next.flatMap((d) => d!.attempts.map((a) => a.attemptId))).toEqual([ids[0]]);
  });
});
