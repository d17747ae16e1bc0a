/**
 * A tutorial centre's exam day (issue 36): the exam's own instructions (Markdown,
 * at most 5,000 characters, rendered and sanitised like a question's prompt) reach the
 * candidate's instructions screen through `POST /attempts/preview`, before the clock
 * starts; the monitor lists the roster candidates who have not started (`absent`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let ws: { id: string; apiKey: string };
beforeAll(async () => {
  s = await startTestServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s.close());

const INSTRUCTIONS = 'Answer **all** questions.\n\n- Use a pencil for rough work\n- Calculators are *not* allowed';

describe('exam instructions', () => {
  it('are stored on create and patch and returned on the exam', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { instructions: INSTRUCTIONS });
    expect(e.instructions).toBe(INSTRUCTIONS);
    expect((await k.get(`/exams/${e.id}`)).body.instructions).toBe(INSTRUCTIONS);
    const patched = await k.patch(`/exams/${e.id}`, { instructions: 'Write in ink.' });
    expect(patched.status).toBe(200);
    expect(patched.body.instructions).toBe('Write in ink.');
    // a patch without the field keeps them; null (or blank) clears them
    expect((await k.patch(`/exams/${e.id}`, { title: 'Renamed' })).body.instructions).toBe('Write in ink.');
    expect((await k.patch(`/exams/${e.id}`, { instructions: null })).body.instructions).toBeNull();
    expect((await k.patch(`/exams/${e.id}`, { instructions: '   ' })).body.instructions).toBeNull();
    const plain = await createExam(s.baseUrl, ws.apiKey, ws.id);
    expect(plain.instructions).toBeNull();
  });

  it('over 5,000 characters are refused with 400 and change nothing', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const long = 'x'.repeat(5001);
    const created = await k.post('/exams', { workspaceId: ws.id, title: 'Too long', durationMins: 30, instructions: long });
    expect(created.status).toBe(400);
    expect(created.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(created.body)).toContain('instructions');
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { instructions: 'Keep me.' });
    const patched = await k.patch(`/exams/${e.id}`, { instructions: long });
    expect(patched.status).toBe(400);
    expect((await k.get(`/exams/${e.id}`)).body.instructions).toBe('Keep me.');
    // exactly 5,000 is allowed
    expect((await k.patch(`/exams/${e.id}`, { instructions: 'y'.repeat(5000) })).status).toBe(200);
  });

  it('reach the candidate through the preview, rendered and sanitised, before the clock starts', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { instructions: `${INSTRUCTIONS}\n\n<script>alert(1)</script><img src=x onerror="alert(2)">Energy: $E = mc^2$` });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    const r = await api(s.baseUrl).post('/attempts/preview', { accessCode: e.accessCode, studentId: 'INS-1', candidateName: 'Ada', candidatePin: '1234' });
    expect(r.status).toBe(200);
    const html = r.body.instructionsHtml as string;
    expect(html).toContain('<strong>all</strong>');
    expect(html).toContain('<li>Use a pencil for rough work</li>');
    expect(html).toContain('katex');
    expect(html).not.toMatch(/<script|onerror|<img/i);
    expect(r.body.instructions).toContain('Answer **all** questions.');
    // an exam without instructions previews without them
    const plain = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, plain.id, sampleMcqs(1));
    const p = await api(s.baseUrl).post('/attempts/preview', { accessCode: plain.accessCode, studentId: 'INS-2', candidateName: 'Bo', candidatePin: '1234' });
    expect(p.body).toMatchObject({ instructions: null, instructionsHtml: null });
  });

  it('changed by the examiner reach the next preview', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { instructions: 'First version.' });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const body = { accessCode: e.accessCode, studentId: 'INS-3', candidateName: 'Chi', candidatePin: '1234' };
    expect((await api(s.baseUrl).post('/attempts/preview', body)).body.instructionsHtml).toContain('First version.');
    await api(s.baseUrl, ws.apiKey).patch(`/exams/${e.id}`, { instructions: 'Second version.' });
    expect((await api(s.baseUrl).post('/attempts/preview', body)).body.instructionsHtml).toContain('Second version.');
  });
});

describe('the monitor lists absent candidates', () => {
  it('answers exactly the roster candidates without an attempt', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    const candidates = Array.from({ length: 6 }, (_, i) => ({ studentId: `R${i + 1}`, candidateName: `Student ${i + 1}` }));
    const roster = await k.post(`/exams/${e.id}/roster`, { candidates });
    expect(roster.status).toBe(201);
    const pins = new Map((roster.body.candidates as { studentId: string; pin: string }[]).map((c) => [c.studentId, c.pin]));
    let m = await k.get(`/exams/${e.id}/monitor`);
    expect(m.body.absent).toEqual(candidates.map((c) => ({ studentId: c.studentId, candidateName: c.candidateName })));
    for (const id of ['R2', 'R5']) await startAttempt(s.baseUrl, e.accessCode, id, pins.get(id)!, `Student ${id.slice(1)}`);
    // a preview alone is not an attempt: the candidate is still absent
    await api(s.baseUrl).post('/attempts/preview', { accessCode: e.accessCode, studentId: 'R3', candidateName: 'Student 3', candidatePin: pins.get('R3') });
    m = await k.get(`/exams/${e.id}/monitor`);
    expect(m.body.absent.map((a: { studentId: string }) => a.studentId).sort()).toEqual(['R1', 'R3', 'R4', 'R6']);
    expect(m.body.attempts.map((a: { studentId: string }) => a.studentId).sort()).toEqual(['R2', 'R5']);
  });

  it('is empty in an open room (no roster)', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    await startAttempt(s.baseUrl, e.accessCode, 'OPEN-1');
    const m = await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}/monitor`);
    expect(m.body.absent).toEqual([]);
  });
});
