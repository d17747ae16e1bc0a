import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, waitFor, type TestServer } from '../harness.js';
import { openEventStream } from '../sse.js';
import { MonitorState } from '../../web/admin/monitor-state.js';
import type { AttemptSummary, MonitorSnapshot } from '../../web/admin/types.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** Reads a monitor stream: its events (name, parsed data, SSE id) as they arrive. */
async function openStream(baseUrl: string, examId: string, apiKey: string, headers: Record<string, string> = {}) {
  const stream = await openEventStream(`${baseUrl}/exams/${examId}/monitor/stream`, { 'x-api-key': apiKey, ...headers });
  expect(stream.res.status).toBe(200);
  return stream;
}

describe('monitor stream deltas', () => {
  it('sends the whole state on connect, then only the rows that changed; a reconnect gets the whole state again', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(3));
    const a = await startAttempt(s.baseUrl, e.accessCode, 'DL-1');
    const b = await startAttempt(s.baseUrl, e.accessCode, 'DL-2');
    const first = await openStream(s.baseUrl, e.id, ws.apiKey);
    try {
      await waitFor(() => first.events.length > 0, 4000);
      expect(first.events[0]).toMatchObject({ event: 'snapshot' });
      expect(first.events[0]!.data.attempts.map((x: AttemptSummary) => x.attemptId).sort()).toEqual([a.attemptId, b.attemptId].sort());
      const q = a.questions[0]!;
      await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0]!.id });
      const delta = await waitFor(() => first.events.find((x) => x.event === 'delta'), 4000);
      // only the candidate who saved: the other's row did not change
      expect(delta!.data.attempts.map((x: AttemptSummary) => x.attemptId)).toEqual([a.attemptId]);
      expect(delta!.data.attempts[0]).toMatchObject({ attemptId: a.attemptId, answered: 1, status: 'IN_PROGRESS' });
      expect(delta!.data).not.toHaveProperty('exam');
      // nothing changed since: no more deltas and no snapshots
      const seen = first.events.length;
      await new Promise((r) => setTimeout(r, 2300));
      expect(first.events.slice(seen).filter((x) => x.event === 'delta' || x.event === 'snapshot')).toEqual([]);
      const lastId = first.events.at(-1)!.id!;
      expect(lastId).toMatch(/^\d+$/);
      // the page reconnects (Last-Event-ID, as EventSource sends it): the whole state, with the save
      // (a snapshot counts answers from the database: at most one flush behind, as before)
      await s.deps.buffer.flush();
      const again = await openStream(s.baseUrl, e.id, ws.apiKey, { 'last-event-id': lastId });
      try {
        await waitFor(() => again.events.length > 0, 4000);
        expect(again.events[0]!.event).toBe('snapshot');
        const rows = new Map((again.events[0]!.data as MonitorSnapshot).attempts.map((x) => [x.attemptId, x]));
        expect(rows.size).toBe(2);
        expect(rows.get(a.attemptId)).toMatchObject({ answered: 1 });
        expect(rows.get(b.attemptId)).toMatchObject({ answered: 0 });
      } finally {
        await again.close();
      }
    } finally {
      await first.close();
    }
  });

  it('a pause (exam-level change) sends the whole state again', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    await startAttempt(s.baseUrl, e.accessCode, 'DP-1');
    const st = await openStream(s.baseUrl, e.id, ws.apiKey);
    try {
      await waitFor(() => st.events.length > 0, 4000);
      const paused = await api(s.baseUrl, ws.apiKey).post(`/exams/${e.id}/pause`, { reason: 'fire drill' });
      expect(paused.status).toBe(200);
      const snap = await waitFor(() => st.events.slice(1).find((x) => x.event === 'snapshot'), 4000);
      expect(snap!.data.exam.isPaused).toBe(true);
    } finally {
      await st.close();
    }
  });
});

describe('MonitorState.applyDelta', () => {
  const row = (over: Partial<AttemptSummary>): AttemptSummary => ({
    attemptId: 'att_1', studentId: 'S1', candidateName: 'Ada', status: 'IN_PROGRESS', startedAt: '2025-01-01T09:00:00.000Z', completedAt: null,
    remainingSeconds: 600, answered: 0, totalQuestions: 5, lastSeenAt: '2025-01-01T09:00:00.000Z', lastSavedAt: null, clientAddress: '10.0.0.5',
    violations: 0, maxTabViolations: 3, score: null, maxScore: null, percentage: null, grade: null, pendingReview: false, autoSubmitted: false, extraSeconds: 0, ...over,
  });
  const exam = { id: 'ex_1', title: 'T', accessCode: 'ABC234', durationMins: 10, startsAt: null, endsAt: null, isPublished: true, isPaused: false };

  it('replaces changed rows by id, adds new ones, keeps the rest, ticks each row from when it arrived and raises a disqualification once', () => {
    const s = new MonitorState();
    const t0 = Date.parse('2025-01-01T09:00:10.000Z');
    s.apply({ exam, serverTime: '2025-01-01T09:00:10.000Z', attempts: [row({}), row({ attemptId: 'att_2', candidateName: 'Bo', studentId: 'S2' })], absent: [{ studentId: 'S3', candidateName: 'Cy' }] }, t0);
    const dq = s.applyDelta({ serverTime: '2025-01-01T09:00:20.000Z', attempts: [row({ attemptId: 'att_2', candidateName: 'Bo', studentId: 'S2', status: 'DISQUALIFIED' }), row({ attemptId: 'att_3', candidateName: 'Cy', studentId: 'S3', remainingSeconds: 590 })], absent: [] }, t0 + 10_000);
    expect(dq.map((x) => [x.kind, x.attemptId])).toEqual([['disqualified', 'att_2']]);
    expect(s.snapshot!.attempts.map((x) => [x.attemptId, x.status])).toEqual([['att_1', 'IN_PROGRESS'], ['att_2', 'DISQUALIFIED'], ['att_3', 'IN_PROGRESS']]);
    expect(s.snapshot!.absent).toEqual([]);
    // att_1 arrived at t0, att_3 at t0 + 10 s
    expect(s.remaining(s.snapshot!.attempts[0]!, t0 + 12_000)).toBe(588);
    expect(s.remaining(s.snapshot!.attempts[2]!, t0 + 12_000)).toBe(588);
    expect(s.applyDelta({ serverTime: '2025-01-01T09:00:21.000Z', attempts: [row({ attemptId: 'att_2', candidateName: 'Bo', studentId: 'S2', status: 'DISQUALIFIED' })] }, t0 + 11_000)).toEqual([]);
    expect(s.snapshot!.absent).toEqual([]);
  });
});
