/**
 * `POST /attempts/preview` (issue 20 item 4): the instructions of a session before its
 * clock starts. The same checks and problems as `POST /attempts/start`, but nothing is
 * created or charged and no question leaves the server; start still starts the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let apiKey: string;
let examId: string;
let accessCode: string;
beforeAll(async () => {
  s = await startTestServer();
  const ws = await registerWorkspace(s.baseUrl);
  apiKey = ws.apiKey;
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Civic Education', durationMins: 45, maxTabViolations: 4 });
  examId = e.id;
  accessCode = e.accessCode;
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, [...sampleMcqs(3), { prompt: 'Name two duties of a citizen.', type: 'SHORT_ESSAY', marks: 2.5 }]);
});
afterAll(() => s.close());

const body = (studentId: string, candidatePin = '1234', code = accessCode) => ({ accessCode: code, studentId, candidateName: `Candidate ${studentId}`, candidatePin });
const credits = async () => (await api(s.baseUrl, apiKey).get('/workspaces/me')).body.credits as number;

describe('POST /attempts/preview', () => {
  it('describes the session without creating it, charging for it or showing a question', async () => {
    const before = await credits();
    const r = await api(s.baseUrl).post('/attempts/preview', body('PRE-1'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      examId,
      examTitle: 'Civic Education',
      candidateName: 'Candidate PRE-1',
      studentId: 'PRE-1',
      isResumed: false,
      durationMins: 45,
      questionCount: 4,
      essayCount: 1,
      totalMarks: 5.5,
      maxTabViolations: 4,
      remainingSeconds: 45 * 60,
      isPaused: false,
      endsAt: null,
      // issue 36: the exam's own instructions (this exam has none)
      instructions: null,
      instructionsHtml: null,
    });
    expect(await credits()).toBe(before);
    expect((await api(s.baseUrl, apiKey).get(`/exams/${examId}/attempts`)).body.filter((a: { studentId: string }) => a.studentId === 'PRE-1')).toEqual([]);
    // the clock starts with the start itself
    const started = await startAttempt(s.baseUrl, accessCode, 'PRE-1');
    expect(started.remainingSeconds).toBeGreaterThanOrEqual(45 * 60 - 1);
    expect(await credits()).toBe(before - 1);
  });

  it('answers a resume with its running clock, and refuses what start refuses', async () => {
    await startAttempt(s.baseUrl, accessCode, 'PRE-2', '5678');
    const resume = await api(s.baseUrl).post('/attempts/preview', body('PRE-2', '5678'));
    expect(resume.status).toBe(200);
    expect(resume.body).toMatchObject({ isResumed: true, studentId: 'PRE-2' });
    expect(resume.body.remainingSeconds).toBeLessThanOrEqual(45 * 60);
    const wrongPin = await api(s.baseUrl).post('/attempts/preview', body('PRE-2', '9999'));
    expect(wrongPin.status).toBe(401);
    expect(wrongPin.body.code).toBe('SIGN_IN_FAILED'); // one answer for a wrong PIN and a student ID not on the roster (issue 22)
    expect((await api(s.baseUrl).post('/attempts/preview', body('PRE-3', '1234', 'NOPE99'))).status).toBe(404);
    expect((await api(s.baseUrl).post('/attempts/preview', body('PRE-3', '12'))).status).toBe(400);
    const done = await startAttempt(s.baseUrl, accessCode, 'PRE-4');
    await api(s.baseUrl).post(`/attempts/${done.attemptId}/submit`, {});
    const completed = await api(s.baseUrl).post('/attempts/preview', body('PRE-4'));
    expect(completed.status).toBe(409);
    expect(completed.body.code).toBe('ALREADY_SUBMITTED');
  });

  it('says 402 before the candidate reads anything when the hall has no credits left', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    s.deps.sqlite.prepare('UPDATE workspaces SET credits = 0 WHERE id = ?').run(ws.id);
    const r = await api(s.baseUrl).post('/attempts/preview', body('PRE-5', '1234', e.accessCode));
    expect(r.status).toBe(402);
  });
});
