/**
 * Extra time from the roster (issue 37 item 6, access arrangements): `extraTimePercent`
 * (0–200) and `extraTimeMins` (0–600) per roster candidate, through the API and the
 * roster files. The candidate's clock is durationMins × (1 + percent/100) + mins: in the
 * start and preview responses, on resume, across a pause of the exam and a power cut
 * (downtime credited at the restart), in the expiry sweep, and on the invigilator's
 * monitor with the candidate's own end time.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { sweepExpired } from '../../src/modules/attempts/sweep.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startTestServer, tempDir, type TestServer } from '../harness.js';
import { upload } from '../imports/http.js';

const T0 = Date.parse('2026-11-22T09:00:00Z');
const clock = new ManualClock(T0);
let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer({ clock });
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s?.close());

type Entry = { studentId: string; pin: string; extraTimePercent: number; extraTimeMins: number };

/** A 60-minute exam with one question and the roster given; returns the exam and each studentId's PIN. */
async function rosterExam(base: string, key: string, wsId: string, candidates: Record<string, unknown>[]) {
  const e = await createExam(base, key, wsId, { durationMins: 60 });
  await addQuestions(base, key, wsId, e.id, sampleMcqs(1));
  const r = await api(base, key).post(`/exams/${e.id}/roster`, { candidates });
  expect(r.status).toBe(201);
  const pins = new Map((r.body.candidates as Entry[]).map((c) => [c.studentId, c.pin]));
  return { e, pins, entries: r.body.candidates as Entry[] };
}

const start = (base: string, accessCode: string, studentId: string, pin: string) => api(base).post('/attempts/start', { accessCode, studentId, candidateName: studentId, candidatePin: pin });

describe('roster extra time: the API', () => {
  it('stores extraTimePercent and extraTimeMins per candidate (both may be set; 0 when left out)', async () => {
    const { e, entries } = await rosterExam(s.baseUrl, ws.apiKey, ws.id, [
      { studentId: 'P1', candidateName: 'Quarter', extraTimePercent: 25 },
      { studentId: 'P2', candidateName: 'Fifteen', extraTimeMins: 15 },
      { studentId: 'P3', candidateName: 'Both', extraTimePercent: 50, extraTimeMins: 10 },
      { studentId: 'P4', candidateName: 'None' },
    ]);
    expect(entries.map((c) => [c.studentId, c.extraTimePercent, c.extraTimeMins])).toEqual([['P1', 25, 0], ['P2', 0, 15], ['P3', 50, 10], ['P4', 0, 0]]);
    const list = (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/roster`)).body as Entry[];
    expect(list.map((c) => [c.studentId, c.extraTimePercent, c.extraTimeMins])).toEqual([['P1', 25, 0], ['P2', 0, 15], ['P3', 50, 10], ['P4', 0, 0]]);
  });

  it('refuses out-of-range or fractional values with 400 naming the field, and stores nobody', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const k = api(s.baseUrl, ws.apiKey);
    for (const bad of [{ extraTimePercent: 201 }, { extraTimePercent: -1 }, { extraTimePercent: 12.5 }, { extraTimeMins: 601 }, { extraTimeMins: '15' }]) {
      const r = await k.post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'OK', candidateName: 'Fine' }, { studentId: 'B', candidateName: 'Bad', ...bad }] });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(r.body.errors)).toContain(Object.keys(bad)[0]);
    }
    expect((await k.get(`/exams/${e.id}/roster`)).body).toEqual([]);
  });
});

describe('roster extra time: the clock', () => {
  it('is in the preview and the start response: duration × (1 + percent/100) + minutes', async () => {
    const { e, pins } = await rosterExam(s.baseUrl, ws.apiKey, ws.id, [
      { studentId: 'S1', candidateName: 'Quarter', extraTimePercent: 25 },
      { studentId: 'S2', candidateName: 'Fifteen', extraTimeMins: 15 },
      { studentId: 'S3', candidateName: 'Both', extraTimePercent: 50, extraTimeMins: 10 },
      { studentId: 'S4', candidateName: 'None' },
    ]);
    const expected = { S1: 75 * 60, S2: 75 * 60, S3: 100 * 60, S4: 60 * 60 } as Record<string, number>;
    for (const id of ['S1', 'S2', 'S3', 'S4']) {
      const preview = await api(s.baseUrl).post('/attempts/preview', { accessCode: e.accessCode, studentId: id, candidateName: id, candidatePin: pins.get(id) });
      expect(preview.status).toBe(200);
      expect(preview.body.remainingSeconds, `preview ${id}`).toBe(expected[id]);
      const r = await start(s.baseUrl, e.accessCode, id, pins.get(id)!);
      expect(r.status).toBe(200);
      expect(r.body.remainingSeconds, `start ${id}`).toBe(expected[id]);
      expect(r.body.durationMins).toBe(60);
    }
    const both = await start(s.baseUrl, e.accessCode, 'S3', pins.get('S3')!);
    expect(both.body).toMatchObject({ isResumed: true, extraTimePercent: 50, extraTimeMins: 10, remainingSeconds: 6000 });
  });

  it('is honoured on resume and by the expiry sweep (not submitted at the plain duration)', async () => {
    const { e, pins } = await rosterExam(s.baseUrl, ws.apiKey, ws.id, [
      { studentId: 'R1', candidateName: 'Quarter', extraTimePercent: 25 },
      { studentId: 'R2', candidateName: 'Plain' },
    ]);
    const a = (await start(s.baseUrl, e.accessCode, 'R1', pins.get('R1')!)).body;
    const plain = (await start(s.baseUrl, e.accessCode, 'R2', pins.get('R2')!)).body;
    clock.advance(10 * 60_000);
    const resumed = await start(s.baseUrl, e.accessCode, 'R1', pins.get('R1')!);
    expect(resumed.body).toMatchObject({ isResumed: true, attemptId: a.attemptId, remainingSeconds: 65 * 60 });
    expect((await api(s.baseUrl).get(`/attempts/${a.attemptId}`)).body.remainingSeconds).toBe(65 * 60);
    // past the plain hour and its grace: the plain candidate is submitted, the one with 25% writes on
    clock.advance(50 * 60_000 + 31_000);
    const swept = sweepExpired(s.deps);
    expect(swept).toContain(plain.attemptId);
    expect(swept).not.toContain(a.attemptId);
    const q = a.questions[0];
    const save = await api(s.baseUrl).put(`/attempts/${a.attemptId}/answers/${q.id}`, { optionId: q.options[0].id });
    expect(save.status).toBe(200);
    expect(save.body.remainingSeconds).toBe(15 * 60 - 31);
    // after its own 75 minutes and the grace, it goes too
    clock.advance(15 * 60_000);
    expect(sweepExpired(s.deps)).toContain(a.attemptId);
  });

  it('is honoured across a pause of the exam, and the monitor shows it with the candidate’s own end time', async () => {
    const { e, pins } = await rosterExam(s.baseUrl, ws.apiKey, ws.id, [{ studentId: 'M1', candidateName: 'Both', extraTimePercent: 25, extraTimeMins: 15 }]);
    const k = api(s.baseUrl, ws.apiKey);
    const a = (await start(s.baseUrl, e.accessCode, 'M1', pins.get('M1')!)).body;
    const startedAt = clock.now();
    expect(a.remainingSeconds).toBe(90 * 60);
    clock.advance(5 * 60_000);
    expect((await k.post(`/exams/${e.id}/pause`, { reason: 'Power failure in block B' })).status).toBe(200);
    clock.advance(20 * 60_000);
    const paused = (await k.get(`/exams/${e.id}/monitor`)).body.attempts[0];
    expect(paused).toMatchObject({ extraTimePercent: 25, extraTimeMins: 15, remainingSeconds: 85 * 60, timeUpAt: null });
    expect((await k.post(`/exams/${e.id}/resume`, { reason: 'Power back' })).status).toBe(200);
    expect((await api(s.baseUrl).get(`/attempts/${a.attemptId}`)).body.remainingSeconds).toBe(85 * 60);
    const row = (await k.get(`/exams/${e.id}/monitor`)).body.attempts[0];
    // 90 minutes of exam time from the start, plus the 20 minutes paused
    expect(row).toMatchObject({ extraTimePercent: 25, extraTimeMins: 15, remainingSeconds: 85 * 60, timeUpAt: new Date(startedAt + 110 * 60_000).toISOString() });
  });

  it('is honoured after a power cut: the downtime is credited on top of the extra time', async () => {
    const c = new ManualClock(T0);
    const dataDir = tempDir();
    let hall = await startTestServer({ clock: c, dataDir });
    const w = await registerWorkspace(hall.baseUrl);
    const { e, pins } = await rosterExam(hall.baseUrl, w.apiKey, w.id, [{ studentId: 'D1', candidateName: 'Half', extraTimePercent: 50 }]);
    const a = (await start(hall.baseUrl, e.accessCode, 'D1', pins.get('D1')!)).body;
    expect(a.remainingSeconds).toBe(90 * 60);
    c.advance(10 * 60_000);
    await hall.close(); // the power goes: the last heartbeat is now
    c.advance(7 * 60_000);
    hall = await startTestServer({ clock: c, dataDir });
    try {
      const resumed = await start(hall.baseUrl, e.accessCode, 'D1', pins.get('D1')!);
      expect(resumed.body).toMatchObject({ isResumed: true, remainingSeconds: 80 * 60, extraTimePercent: 50 });
    } finally {
      await hall.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('roster extra time: the roster files', () => {
  it('reads "Extra time %" and "Extra minutes" columns from a CSV, and reports a bad cell by row and column', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const csv = 'Student ID,Name,Extra time %,Extra minutes\nF1,Ada Obi,25%,\nF2,Bello Musa,,15\nF3,Chidi Eze,50,10\nF4,Dayo Ade,,\n';
    const r = await upload(s.baseUrl, ws.apiKey, `/exams/${e.id}/roster/import`, { file: { bytes: csv, name: 'class.csv', type: 'text/csv' } });
    expect(r.status).toBe(201);
    expect((r.body.candidates as Entry[]).map((c) => [c.studentId, c.extraTimePercent, c.extraTimeMins])).toEqual([['F1', 25, 0], ['F2', 0, 15], ['F3', 50, 10], ['F4', 0, 0]]);
    const other = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const bad = await upload(s.baseUrl, ws.apiKey, `/exams/${other.id}/roster/import`, { file: { bytes: 'studentId,candidateName,extraTimePercent,extraTimeMins\nG1,Good,10,\nG2,Bad,lots,\nG3,Worse,,700\n', name: 'b.csv' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { row: 3, column: 'extraTimePercent', message: 'extraTimePercent must be a whole number from 0 to 200' },
      { row: 4, column: 'extraTimeMins', message: 'extraTimeMins is at most 600 (10 hours)' },
    ]);
    expect((await api(s.baseUrl, ws.apiKey).get(`/exams/${other.id}/roster`)).body).toEqual([]);
  });
});
