/**
 * Lock-outs must not be a weapon (issue 22 part 3, docs/design.md §7): wrong PINs are held back
 * per exam + studentId + client address and per address with growing waits, never by a
 * lock on the studentId; the right PIN from another computer always works; a new PIN and
 * the invigilator's audited "clear sign-in throttle" clear it; the monitor shows wrong
 * sign-ins per studentId; unknown room codes are throttled per address.
 * Several hall computers are played by different loopback source addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { seat } from './from-address.js';

const clock = new ManualClock(Date.parse('2026-11-22T09:00:00Z'));
let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer({ clock });
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s.close());

/** A roster exam with candidates A1 and A2; returns the exam and their PINs. */
async function rosterExam() {
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
  const add = await api(s.baseUrl, ws.apiKey).post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'A1', candidateName: 'Amaka' }, { studentId: 'A2', candidateName: 'Bayo' }] });
  const [a1, a2] = add.body.candidates as { id: string; pin: string }[];
  return { e, a1: a1!, a2: a2! };
}
const body = (accessCode: string, studentId: string, candidatePin: string) => ({ accessCode, studentId, candidateName: 'x', candidatePin });
const wrong = (pin: string) => (pin === '000000' ? '111111' : '000000');

describe('wrong PINs', () => {
  it('hold back only the guessing computer: the right PIN from another seat is never refused', async () => {
    const { e, a1 } = await rosterExam();
    const attacker = seat('127.0.0.2', s.baseUrl);
    const codes: number[] = [];
    // more than the 30 starts a minute one seat may make, too
    for (let i = 0; i < 35; i++) codes.push((await attacker.post('/attempts/start', body(e.accessCode, 'A1', wrong(a1.pin)))).status);
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes.slice(5).every((c) => c === 429)).toBe(true);
    const held = await attacker.post('/attempts/start', body(e.accessCode, 'A1', a1.pin));
    expect(held.status).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect(held.body.code).toBe('RATE_LIMITED');

    const candidate = await seat('127.0.0.3', s.baseUrl).post('/attempts/start', body(e.accessCode, 'A1', a1.pin));
    expect(candidate.status).toBe(200);
    expect(candidate.body.candidateName).toBe('Amaka');
  });

  it('grow the wait instead of locking: after the wait the right PIN works from the same computer', async () => {
    const { e, a1 } = await rosterExam();
    const pc = seat('127.0.0.4', s.baseUrl);
    for (let i = 0; i < 5; i++) expect((await pc.post('/attempts/start', body(e.accessCode, 'A1', wrong(a1.pin)))).status).toBe(401);
    const first = Number((await pc.post('/attempts/start', body(e.accessCode, 'A1', wrong(a1.pin)))).headers['retry-after']);
    expect(first).toBeGreaterThan(0);
    clock.advance(first * 1000 + 1000);
    expect((await pc.post('/attempts/start', body(e.accessCode, 'A1', wrong(a1.pin)))).status).toBe(401); // a sixth guess is allowed…
    const second = Number((await pc.post('/attempts/start', body(e.accessCode, 'A1', wrong(a1.pin)))).headers['retry-after']);
    expect(second).toBeGreaterThan(first); // …and makes the next wait longer
    clock.advance(second * 1000 + 1000);
    expect((await pc.post('/attempts/start', body(e.accessCode, 'A1', a1.pin))).status).toBe(200);
  });

  it('a new PIN from the examiner clears the throttle at once', async () => {
    const { e, a2 } = await rosterExam();
    const pc = seat('127.0.0.5', s.baseUrl);
    for (let i = 0; i < 6; i++) await pc.post('/attempts/start', body(e.accessCode, 'A2', wrong(a2.pin)));
    expect((await pc.post('/attempts/start', body(e.accessCode, 'A2', a2.pin))).status).toBe(429);
    const fresh = await api(s.baseUrl, ws.apiKey).post(`/exams/${e.id}/roster/${a2.id}/pin`);
    expect(fresh.status).toBe(200);
    expect((await pc.post('/attempts/start', body(e.accessCode, 'A2', fresh.body.pin))).status).toBe(200);
  });

  it('the monitor shows wrong sign-ins per studentId, and the invigilator clears them (audited)', async () => {
    const { e, a1 } = await rosterExam();
    for (const addr of ['127.0.0.6', '127.0.0.7']) for (let i = 0; i < 3; i++) await seat(addr, s.baseUrl).post('/attempts/start', body(e.accessCode, 'A1', wrong(a1.pin)));
    // a sixth try from .6 is refused (429) before it is checked, so it does not count
    for (let i = 0; i < 3; i++) await seat('127.0.0.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'A1', wrong(a1.pin)));
    await seat('127.0.0.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'NOT-LISTED', '123456'));
    const key = api(s.baseUrl, ws.apiKey);
    const snap = await key.get(`/exams/${e.id}/monitor`);
    expect(snap.body.signInFailures).toEqual([
      { studentId: 'A1', failures: 8, addresses: 2, lastFailedAt: expect.any(String), retryAfterSeconds: expect.any(Number) },
      { studentId: 'NOT-LISTED', failures: 1, addresses: 1, lastFailedAt: expect.any(String), retryAfterSeconds: 0 },
    ]);
    expect(snap.body.signInFailures[0].retryAfterSeconds).toBeGreaterThan(0);
    expect((await seat('127.0.0.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'A1', a1.pin))).status).toBe(429);

    expect((await key.post(`/exams/${e.id}/sign-in-throttle/clear`, { studentId: 'A1' })).status).toBe(400); // a reason is required
    expect((await api(s.baseUrl).post(`/exams/${e.id}/sign-in-throttle/clear`, { studentId: 'A1', reason: 'x' })).status).toBe(401);
    const other = await registerWorkspace(s.baseUrl);
    expect((await api(s.baseUrl, other.apiKey).post(`/exams/${e.id}/sign-in-throttle/clear`, { studentId: 'A1', reason: 'x' })).status).toBe(404);
    const cleared = await key.post(`/exams/${e.id}/sign-in-throttle/clear`, { studentId: 'A1', reason: 'Amaka showed her ID card' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ examId: e.id, studentId: 'A1', cleared: 2 });
    expect((await key.get(`/exams/${e.id}/monitor`)).body.signInFailures.map((f: { studentId: string }) => f.studentId)).toEqual(['NOT-LISTED']);
    const audit = await key.get('/workspaces/me/audit');
    expect(audit.body[0]).toMatchObject({ action: 'sign-in-throttle.clear', targetId: e.id, reason: 'Amaka showed her ID card', detail: { studentId: 'A1', addresses: 2 } });
    expect((await seat('127.0.0.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'A1', a1.pin))).status).toBe(200);
  });

  it('resuming without a roster: a wrong PIN is the same 401 and held back per computer', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const owner = seat('127.0.0.8', s.baseUrl);
    expect((await owner.post('/attempts/start', body(e.accessCode, 'N1', '2468'))).status).toBe(200);
    const other = seat('127.0.0.9', s.baseUrl);
    const r = await other.post('/attempts/start', body(e.accessCode, 'N1', '1357'));
    expect([r.status, r.body.code, r.body.type]).toEqual([401, 'SIGN_IN_FAILED', '/problems/sign-in-failed']);
    for (let i = 0; i < 6; i++) await other.post('/attempts/start', body(e.accessCode, 'N1', '1357'));
    expect((await other.post('/attempts/start', body(e.accessCode, 'N1', '2468'))).status).toBe(429);
    const resumed = await owner.post('/attempts/start', body(e.accessCode, 'N1', '2468'));
    expect([resumed.status, resumed.body.isResumed]).toEqual([200, true]);
  });
});

describe('room codes', () => {
  it('unknown room codes are throttled per address; another computer is not affected', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const prober = seat('127.0.0.10', s.baseUrl);
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await prober.post('/attempts/start', body(`ZZ${String(i).padStart(4, '0')}`, `S${i}`, '1234'))).status);
    expect(codes.slice(0, 20).every((c) => c === 404)).toBe(true);
    expect(codes.slice(20).every((c) => c === 429)).toBe(true);
    const held = await prober.post('/attempts/start', body(e.accessCode, 'R1', '1234'));
    expect(held.status).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect((await seat('127.0.0.11', s.baseUrl).post('/attempts/start', body(e.accessCode, 'R1', '1234'))).status).toBe(200);
    expect((await seat('127.0.0.11', s.baseUrl).post('/attempts/start', body('QQQQQQ', 'R1', '1234'))).status).toBe(404);
  });
});
