/**
 * One address, many candidates (issue 34, finding 5): behind a NAT or a reverse proxy a
 * whole hall shares one client address, so sign-in throttles are keyed by what a guesser
 * controls. Wrong PINs are held back per exam + studentId (+ address), and per address
 * only for the number of different studentIds it got wrong (an allowance sized for a
 * hall); unknown room codes per address; with CBT_TRUSTED_PROXIES, X-Forwarded-For tells
 * the candidates behind the proxy apart; the invigilator's clear clears every key of the exam.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { seat } from './from-address.js';

const clock = new ManualClock(Date.parse('2026-11-23T09:00:00Z'));
const PROXY = '127.0.2.100';
let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer({ clock, config: { CBT_TRUSTED_PROXIES: [PROXY] } });
  ws = await registerWorkspace(s.baseUrl, {});
});
afterAll(() => s.close());

const body = (accessCode: string, studentId: string, candidatePin: string) => ({ accessCode, studentId, candidateName: 'x', candidatePin });
const wrong = (pin: string) => (pin === '000000' ? '111111' : '000000');

/** A roster exam with candidates A1…An; returns the exam and their PINs by studentId. */
async function rosterExam(n: number) {
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
  const add = await api(s.baseUrl, ws.apiKey).post(`/exams/${e.id}/roster`, { candidates: Array.from({ length: n }, (_, i) => ({ studentId: `A${i + 1}`, candidateName: `Candidate ${i + 1}` })) });
  const pins = new Map<string, string>((add.body.candidates as { studentId: string; pin: string }[]).map((c) => [c.studentId, c.pin]));
  return { e, pin: (id: string) => pins.get(id)! };
}

describe('wrong PINs behind one address', () => {
  it("50 wrong PINs for one studentId do not stop another candidate at the same address", async () => {
    const { e, pin } = await rosterExam(2);
    const nat = seat('127.0.2.1', s.baseUrl);
    let counted = 0;
    while (counted < 50) {
      const r = await nat.post('/attempts/start', body(e.accessCode, 'A1', wrong(pin('A1'))));
      if (r.status === 401) {
        counted++;
        // wait out the growing delay on the server's clock, so the next guess counts too
        if (counted < 50) clock.advance(s.deps.limits.pinBySeat.delayMs(counted));
      } else if (r.status === 429 && /wrong PINs/.test(r.body.detail)) clock.advance(Number(r.headers['retry-after']) * 1000);
      // the per-seat limit on starts (30 a minute, real time): wait for it
      else if (r.status === 429) await new Promise((done) => setTimeout(done, Number(r.headers['retry-after']) * 1000 + 100));
      else throw new Error(`unexpected ${r.status} ${JSON.stringify(r.body)}`);
    }
    // the guesser is held back on A1 …
    expect((await nat.post('/attempts/start', body(e.accessCode, 'A1', wrong(pin('A1'))))).status).toBe(429);
    // … and A2, at a computer behind the same address, starts with the right PIN at once
    const other = await nat.post('/attempts/start', body(e.accessCode, 'A2', pin('A2')));
    expect([other.status, other.body.candidateName]).toEqual([200, 'Candidate 2']);
  }, 150_000);

  it('an address is held back only after wrong PINs on more different studentIds than a hall makes', async () => {
    const { e, pin } = await rosterExam(1);
    const nat = seat('127.0.2.2', s.baseUrl);
    // 99 different mistyped IDs (a hall of 1,000 where one in ten mistypes) hold nobody back …
    for (let i = 0; i < 99; i++) expect((await nat.post('/attempts/start', body(e.accessCode, `TYPO-${i}`, '123456'))).status).toBe(401);
    expect((await nat.post('/attempts/start', body(e.accessCode, 'A1', pin('A1')))).status).toBe(200);
    expect((await nat.post('/attempts/start', body(e.accessCode, 'TYPO-99', '123456'))).status).toBe(401);
    // … beyond 100 it is someone walking the ID space: the address waits
    const held = await nat.post('/attempts/start', body(e.accessCode, 'TYPO-100', '123456'));
    expect(held.status).toBe(429);
    expect(held.body.detail).toMatch(/from this computer/);
  });
});

describe('room codes behind one address', () => {
  it('20 unknown room codes throttle that address (by address only)', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const prober = seat('127.0.2.3', s.baseUrl);
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await prober.post('/attempts/start', body(`QX${String(i).padStart(4, '0')}`, `P${i}`, '1234'))).status);
    expect(codes).toEqual([...Array(20).fill(404), 429]);
    expect((await prober.post('/attempts/start', body(e.accessCode, 'P1', '1234'))).status).toBe(429);
  });
});

describe('behind a trusted reverse proxy', () => {
  it('X-Forwarded-For from CBT_TRUSTED_PROXIES tells the candidates apart; from anyone else it is ignored', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const proxy = seat(PROXY, s.baseUrl);
    const via = (client: string) => ({ 'x-forwarded-for': client });
    // one candidate behind the proxy mistypes the room code 20 times …
    for (let i = 0; i < 20; i++) expect((await proxy.post('/attempts/start', body(`QY${String(i).padStart(4, '0')}`, 'P', '1234'), via('10.1.0.1'))).status).toBe(404);
    expect((await proxy.post('/attempts/start', body(e.accessCode, 'B0', '1234'), via('10.1.0.1'))).status).toBe(429);
    // … the others behind the same proxy are not held back, and each is a seat of its own
    const b1 = await proxy.post('/attempts/start', body(e.accessCode, 'B1', '1234'), via('10.1.0.2'));
    expect(b1.status).toBe(200);
    // a client-supplied X-Forwarded-For before the proxy's own entry is not believed (the rightmost untrusted hop counts)
    const b2 = await proxy.post('/attempts/start', body(e.accessCode, 'B2', '1234'), via('10.1.0.2, 10.1.0.3'));
    expect(b2.status).toBe(200);
    expect((await proxy.post('/attempts/start', body(e.accessCode, 'B3', '1234'), via('10.1.0.2'))).body.code).toBe('SEAT_USED');
    const snap = (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/monitor`)).body;
    expect(snap.attempts.map((a: { studentId: string; seatAddress: string }) => [a.studentId, a.seatAddress])).toEqual([['B1', '10.1.0.2'], ['B2', '10.1.0.3']]);

    // from an address that is not a trusted proxy, X-Forwarded-For changes nothing
    const spoofer = seat('127.0.2.4', s.baseUrl);
    for (let i = 0; i < 20; i++) await spoofer.post('/attempts/start', body(`QZ${String(i).padStart(4, '0')}`, 'P', '1234'), via(`10.2.0.${i}`));
    expect((await spoofer.post('/attempts/start', body(e.accessCode, 'C1', '1234'), via('10.2.0.99'))).status).toBe(429);
  });
});

describe("the invigilator's clear", () => {
  it('clears every key of the exam: each studentId, each address', async () => {
    const { e, pin } = await rosterExam(3);
    const key = api(s.baseUrl, ws.apiKey);
    for (const [addr, id] of [['127.0.2.5', 'A1'], ['127.0.2.6', 'A2']] as const) {
      for (let i = 0; i < 6; i++) await seat(addr, s.baseUrl).post('/attempts/start', body(e.accessCode, id, wrong(pin(id))));
      expect((await seat(addr, s.baseUrl).post('/attempts/start', body(e.accessCode, id, pin(id)))).status).toBe(429);
    }
    const walker = seat('127.0.2.7', s.baseUrl);
    for (let i = 0; i <= 101; i++) await walker.post('/attempts/start', body(e.accessCode, `W-${i}`, '123456'));
    expect((await walker.post('/attempts/start', body(e.accessCode, 'A3', pin('A3')))).status).toBe(429);

    const cleared = await key.post(`/exams/${e.id}/sign-in-throttle/clear`, { reason: 'Hall-wide reset after a broken keyboard' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ examId: e.id, studentId: null });
    expect(cleared.body.cleared).toBeGreaterThanOrEqual(3);
    expect((await key.get(`/exams/${e.id}/monitor`)).body.signInFailures).toEqual([]);
    const audit = (await key.get('/workspaces/me/audit')).body;
    expect(audit[0]).toMatchObject({ action: 'sign-in-throttle.clear', targetId: e.id, reason: 'Hall-wide reset after a broken keyboard', detail: { studentId: null } });
    expect((await seat('127.0.2.5', s.baseUrl).post('/attempts/start', body(e.accessCode, 'A1', pin('A1')))).status).toBe(200);
    expect((await seat('127.0.2.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'A2', pin('A2')))).status).toBe(200);
    expect((await walker.post('/attempts/start', body(e.accessCode, 'A3', pin('A3')))).status).toBe(200);
  });
});
