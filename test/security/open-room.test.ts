/**
 * Open rooms are not a key oracle (issue 34, finding 4): without a roster, one computer
 * (client address) makes one attempt per exam unless the invigilator allows another
 * (audited, shown on the monitor); a candidate's own attempt resumes from any computer;
 * a roster candidate's student ID can never be claimed with a self-chosen PIN.
 * Hall computers are played by loopback source addresses (test/security/from-address.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { seat } from './from-address.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const body = (accessCode: string, studentId: string, candidatePin: string) => ({ accessCode, studentId, candidateName: `Candidate ${studentId}`, candidatePin });

/** A fresh workspace (30 credits) with an open exam of `n` shuffled MCQs, keys spread over A–D. */
async function openExam(n = 6, overrides: Record<string, unknown> = {}) {
  const ws = await registerWorkspace(s.baseUrl);
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { shuffleQuestions: true, shuffleChoices: true, ...overrides });
  const qs = await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(n, (i) => (i * 3 + 1) % 4));
  return { ws, e, qs };
}

const credits = async (apiKey: string) => (await api(s.baseUrl, apiKey).get('/workspaces/me')).body.credits as number;

describe('the key oracle', () => {
  it('one computer cannot recover the key with throwaway student IDs, nor drain the credits', async () => {
    const { ws, e } = await openExam();
    const before = await credits(ws.apiKey);
    const attacker = seat('127.0.1.1', s.baseUrl);
    // the attack: start, answer one option everywhere, submit, read the score, repeat
    const statuses: number[] = [];
    const scores: number[] = [];
    for (let i = 1; i <= 15; i++) {
      const r = await attacker.post('/attempts/start', body(e.accessCode, `THROWAWAY-${i}`, '1111'));
      statuses.push(r.status);
      if (r.status !== 200) {
        expect(r.body).toMatchObject({ status: 409, code: 'SEAT_USED' });
        expect(r.body.detail).toMatch(/invigilator/);
        continue;
      }
      const answers = r.body.questions.map((q: { id: string; options: { id: string }[] }, j: number) => ({ questionId: q.id, optionId: q.options[i % 4]!.id, seq: j + 1 }));
      const sub = await attacker.post(`/attempts/${r.body.attemptId}/submit`, { answers });
      expect(sub.status).toBe(200);
      scores.push(sub.body.score);
    }
    expect(statuses).toEqual([200, ...Array(14).fill(409)]);
    expect(scores).toHaveLength(1);
    // one credit spent, not fifteen: an honest candidate at another computer starts
    expect(await credits(ws.apiKey)).toBe(before - 1);
    expect((await seat('127.0.1.2', s.baseUrl).post('/attempts/start', body(e.accessCode, 'HONEST', '2468'))).status).toBe(200);
    // the refusal comes already at the preview (instructions screen), and charges nothing
    const preview = await attacker.post('/attempts/preview', body(e.accessCode, 'THROWAWAY-99', '1111'));
    expect([preview.status, preview.body.code]).toEqual([409, 'SEAT_USED']);
    expect(await credits(ws.apiKey)).toBe(before - 2);
  });

  it('the candidate resumes their own attempt from any computer, and the seat stays the first one', async () => {
    const { ws, e } = await openExam(2);
    const first = seat('127.0.1.3', s.baseUrl);
    const started = await first.post('/attempts/start', body(e.accessCode, 'MOVER', '2468'));
    expect(started.status).toBe(200);
    // the PC breaks: the candidate moves to another one and resumes there, with the PIN
    const second = seat('127.0.1.4', s.baseUrl);
    const resumed = await second.post('/attempts/start', body(e.accessCode, 'MOVER', '2468'));
    expect([resumed.status, resumed.body.isResumed]).toEqual([200, true]);
    // and back again (a resume is never a new attempt)
    expect((await first.post('/attempts/start', body(e.accessCode, 'MOVER', '2468'))).status).toBe(200);
    // the computer the candidate moved to did not use its attempt: its own candidate starts there
    expect((await second.post('/attempts/start', body(e.accessCode, 'SITTER', '1357'))).status).toBe(200);
    // the first computer did use its attempt
    expect((await first.post('/attempts/start', body(e.accessCode, 'OTHER', '1357'))).status).toBe(409);
    const snap = (await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/monitor`)).body;
    const mover = snap.attempts.find((a: { studentId: string }) => a.studentId === 'MOVER');
    expect(mover).toMatchObject({ seatAddress: '127.0.1.3', clientAddress: '127.0.1.3' });
  });
});

describe("the invigilator's allowance", () => {
  it('allows exactly one more attempt from the seat, audited and shown on the monitor', async () => {
    const { ws, e } = await openExam(2);
    const key = api(s.baseUrl, ws.apiKey);
    const pc = seat('127.0.1.5', s.baseUrl);
    expect((await pc.post('/attempts/start', body(e.accessCode, 'MORNING', '1111'))).status).toBe(200);
    expect((await pc.post('/attempts/start', body(e.accessCode, 'AFTERNOON', '2222'))).status).toBe(409);

    let snap = (await key.get(`/exams/${e.id}/monitor`)).body;
    expect(snap.attempts.map((a: { seatAddress: string }) => a.seatAddress)).toEqual(['127.0.1.5']);
    expect(snap.seats).toEqual([{ address: '127.0.1.5', attempts: 1, allowancesLeft: 0 }]);

    // bad input changes nothing; another workspace cannot; no key cannot
    expect((await key.post(`/exams/${e.id}/seats/allow`, { address: '127.0.1.5' })).status).toBe(400);
    expect((await key.post(`/exams/${e.id}/seats/allow`, { address: 'not an address', reason: 'x' })).status).toBe(400);
    const other = await registerWorkspace(s.baseUrl);
    expect((await api(s.baseUrl, other.apiKey).post(`/exams/${e.id}/seats/allow`, { address: '127.0.1.5', reason: 'x' })).status).toBe(404);
    expect((await api(s.baseUrl).post(`/exams/${e.id}/seats/allow`, { address: '127.0.1.5', reason: 'x' })).status).toBe(401);
    expect((await pc.post('/attempts/start', body(e.accessCode, 'AFTERNOON', '2222'))).status).toBe(409);

    const allowed = await key.post(`/exams/${e.id}/seats/allow`, { address: '127.0.1.5', reason: 'Second shift on PC 14' });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ examId: e.id, address: '127.0.1.5', attempts: 1, allowancesLeft: 1 });
    const audit = (await key.get('/workspaces/me/audit')).body;
    expect(audit[0]).toMatchObject({ action: 'seat.allow', targetType: 'exam', targetId: e.id, reason: 'Second shift on PC 14', detail: { address: '127.0.1.5' } });

    expect((await pc.post('/attempts/start', body(e.accessCode, 'AFTERNOON', '2222'))).status).toBe(200);
    expect((await pc.post('/attempts/start', body(e.accessCode, 'EVENING', '3333'))).status).toBe(409);
    snap = (await key.get(`/exams/${e.id}/monitor`)).body;
    expect(snap.attempts.map((a: { seatAddress: string }) => a.seatAddress)).toEqual(['127.0.1.5', '127.0.1.5']);
    expect(snap.seats).toEqual([{ address: '127.0.1.5', attempts: 2, allowancesLeft: 0 }]);
  });
});

describe('roster student IDs', () => {
  it('cannot be claimed with a self-chosen PIN, whatever the order', async () => {
    const { ws, e } = await openExam(2);
    const key = api(s.baseUrl, ws.apiKey);
    // before the roster exists, someone takes a classmate's ID with their own PIN …
    expect((await seat('127.0.1.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'R-100', '9999'))).status).toBe(200);
    // … then the examiner adds the roster: an ID already claimed that way is refused, nothing stored
    const clash = await key.post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'R-200', candidateName: 'Bayo' }, { studentId: 'R-100', candidateName: 'Amaka' }] });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'STUDENT_ID_CLAIMED', studentIds: ['R-100'] });
    expect((await key.get(`/exams/${e.id}/roster`)).body).toEqual([]);

    const added = await key.post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'R-200', candidateName: 'Bayo' }] });
    expect(added.status).toBe(201);
    const pin = added.body.candidates[0].pin as string;
    // with a roster: a self-chosen PIN never opens a roster ID, and an ID not on it is refused
    const claim = await seat('127.0.1.7', s.baseUrl).post('/attempts/start', body(e.accessCode, 'R-200', '1234'));
    expect([claim.status, claim.body.code]).toEqual([401, 'SIGN_IN_FAILED']);
    const stranger = await seat('127.0.1.8', s.baseUrl).post('/attempts/start', body(e.accessCode, 'NOT-ON-IT', '1234'));
    expect([stranger.status, stranger.body.code]).toEqual([401, 'SIGN_IN_FAILED']);
    // the roster candidate signs in with the issued PIN
    const real = await seat('127.0.1.9', s.baseUrl).post('/attempts/start', body(e.accessCode, 'R-200', pin));
    expect([real.status, real.body.candidateName]).toEqual([200, 'Bayo']);
    // the pre-roster attempt resumes with its own PIN only (it was started openly before the roster)
    expect((await seat('127.0.1.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'R-100', '1234'))).status).toBe(401);
    expect((await seat('127.0.1.6', s.baseUrl).post('/attempts/start', body(e.accessCode, 'R-100', '9999'))).status).toBe(200);
  });
});
