import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(() => s.close());

describe('exams', () => {
  it('creates with the documented defaults and a generated unambiguous room code', async () => {
    const r = await api(s.baseUrl, ws.apiKey).post('/exams', { workspaceId: ws.id, title: 'Physics', durationMins: 45 });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ workspaceId: ws.id, title: 'Physics', durationMins: 45, maxTabViolations: 3, shuffleQuestions: false, shuffleChoices: false, showResultAfter: true, isPublished: true, startsAt: null, endsAt: null });
    expect(r.body.accessCode).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    expect(Date.parse(r.body.createdAt)).toBeGreaterThan(0);
  });

  it('keeps room codes unique on the installation, case-insensitively (409)', async () => {
    const other = await registerWorkspace(s.baseUrl);
    await createExam(s.baseUrl, ws.apiKey, ws.id, { accessCode: 'ROOM-42' });
    const r = await api(s.baseUrl, other.apiKey).post('/exams', { workspaceId: other.id, title: 'X', durationMins: 10, accessCode: 'room-42' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('ACCESS_CODE_TAKEN');
  });

  it('validates the window and required fields (400)', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const bad = await k.post('/exams', { workspaceId: ws.id, title: 'W', durationMins: 10, startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T09:00:00Z' });
    expect(bad.status).toBe(400);
    expect((await k.post('/exams', { workspaceId: ws.id, durationMins: 10 })).status).toBe(400);
    expect((await k.post('/exams', { workspaceId: ws.id, title: 'T', durationMins: 0 })).status).toBe(400);
    expect((await k.post('/exams', { workspaceId: ws.id, title: 'T', durationMins: 10, startsAt: 'tomorrow' })).status).toBe(400);
  });

  it('lists, reads, patches, duplicates and deletes', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Biology' });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(3));
    const list = await k.get(`/exams?workspaceId=${ws.id}`);
    expect(list.status).toBe(200);
    const item = list.body.find((x: { id: string }) => x.id === e.id);
    expect(item).toMatchObject({ title: 'Biology', _count: { questions: 3, attempts: 0 } });
    const detail = await k.get(`/exams/${e.id}`);
    expect(detail.body.questions).toHaveLength(3);
    expect(detail.body.questions[0].options[0]).toHaveProperty('isCorrect');
    const patched = await k.patch(`/exams/${e.id}`, { isPublished: false, startsAt: '2030-01-01T08:00:00Z', endsAt: '2030-01-01T10:00:00Z' });
    expect(patched.body).toMatchObject({ isPublished: false, startsAt: '2030-01-01T08:00:00.000Z' });
    const dup = await k.post(`/exams/${e.id}/duplicate`);
    expect(dup.status).toBe(201);
    expect(dup.body.accessCode).not.toBe(e.accessCode);
    expect((await k.get(`/exams/${dup.body.id}`)).body.questions).toHaveLength(3);
    expect((await k.del(`/exams/${dup.body.id}`)).status).toBe(204);
    expect((await k.get(`/exams/${dup.body.id}`)).status).toBe(404);
  });

  it('refuses to delete an exam with attempts (409)', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    await startAttempt(s.baseUrl, e.accessCode, 'STU-1');
    const r = await api(s.baseUrl, ws.apiKey).del(`/exams/${e.id}`);
    expect(r.status).toBe(409);
  });

  it('answers 404 for another workspace’s exam and workspaceId', async () => {
    const other = await registerWorkspace(s.baseUrl);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const k = api(s.baseUrl, other.apiKey);
    expect((await k.get(`/exams/${e.id}`)).status).toBe(404);
    expect((await k.patch(`/exams/${e.id}`, { title: 'hijack' })).status).toBe(404);
    expect((await k.get(`/exams?workspaceId=${ws.id}`)).status).toBe(404);
    expect((await k.post('/exams', { workspaceId: ws.id, title: 'x', durationMins: 5 })).status).toBe(404);
  });
});

describe('POST /questions/bulk', () => {
  it('stores every field, defaults keyLabels and essay word limits', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await api(s.baseUrl, ws.apiKey).post('/questions/bulk', {
      workspaceId: ws.id,
      examId: e.id,
      questions: [
        { prompt: 'Solve $x^2 = 4$', type: 'MCQ', marks: 1.5, options: [{ text: '2', isCorrect: true }, { text: '3', isCorrect: false }], explanation: '$x = \\pm 2$', section: 'Algebra' },
        { prompt: 'The sun is a star.', type: 'TRUE_FALSE', marks: 1, options: [{ text: 'True', isCorrect: true }, { text: 'False', isCorrect: false }] },
        { prompt: 'Define osmosis.', type: 'SHORT_ESSAY', marks: 4, modelAnswer: 'Movement of water across a membrane', rubric: { name: 'WAEC', totalMarks: 4, criteria: [{ title: 'Content', maxMarks: 3 }, { title: 'Expression', maxMarks: 1 }] } },
        { prompt: 'Discuss the causes of inflation.', type: 'LONG_ESSAY', marks: 20, minWords: 200 },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, examId: e.id, created: 4 });
    const [mcq, tf, short, long] = r.body.questions;
    expect(mcq.options.map((o: { keyLabel: string }) => o.keyLabel)).toEqual(['A', 'B']);
    expect(mcq.options[0].id).toMatch(/^opt_/);
    expect(mcq).toMatchObject({ marks: 1.5, section: 'Algebra', explanation: '$x = \\pm 2$' });
    expect(tf.options).toHaveLength(2);
    expect(short).toMatchObject({ minWords: 20, maxWords: 100, rubric: { totalMarks: 4 } });
    expect(short.rubric.criteria[0].id).toBeTruthy();
    expect(long).toMatchObject({ minWords: 200, maxWords: 800 });
  });

  it('is all-or-nothing with per-item errors', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await api(s.baseUrl, ws.apiKey).post('/questions/bulk', {
      workspaceId: ws.id,
      examId: e.id,
      questions: [
        ...sampleMcqs(2),
        { prompt: 'Two keys', type: 'MCQ', marks: 1, options: [{ text: 'a', isCorrect: true }, { text: 'b', isCorrect: true }] },
        { prompt: 'Essay', type: 'SHORT_ESSAY', marks: 5, rubric: { name: 'R', totalMarks: 4, criteria: [{ title: 'C', maxMarks: 4 }] } },
        { prompt: '', type: 'ESSAY', marks: 0 },
      ],
    });
    expect(r.status).toBe(400);
    const idx = [...new Set(r.body.errors.map((x: { index: number }) => x.index))];
    expect(idx).toEqual([2, 3, 4]);
    expect((await api(s.baseUrl, ws.apiKey).get(`/exams/${e.id}`)).body.questions).toHaveLength(0);
  });

  it('limits requests to 500 questions and 5 MB', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const many = await api(s.baseUrl, ws.apiKey).post('/questions/bulk', { workspaceId: ws.id, examId: e.id, questions: sampleMcqs(501) });
    expect(many.status).toBe(400);
    const big = await api(s.baseUrl, ws.apiKey).post('/questions/bulk', { workspaceId: ws.id, examId: e.id, questions: [{ prompt: 'x'.repeat(6 * 1024 * 1024), type: 'MCQ', marks: 1 }] });
    expect(big.status).toBe(413);
    expect(big.body.type).toBe('/problems/payload-too-large');
  });

  it('reads, edits (re-validating) and deletes a question', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const [q] = await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
    const k = api(s.baseUrl, ws.apiKey);
    expect((await k.get(`/questions/${q!.id}`)).body.id).toBe(q!.id);
    const ok = await k.patch(`/questions/${q!.id}`, { prompt: 'New prompt with $\\frac{1}{2}$', marks: 2 });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ prompt: 'New prompt with $\\frac{1}{2}$', marks: 2 });
    expect(ok.body.options.map((o: { id: string }) => o.id)).toEqual(q!.options.map((o) => o.id));
    const bad = await k.patch(`/questions/${q!.id}`, { options: [{ text: 'only one', isCorrect: true }] });
    expect(bad.status).toBe(400);
    const other = await registerWorkspace(s.baseUrl);
    expect((await api(s.baseUrl, other.apiKey).get(`/questions/${q!.id}`)).status).toBe(404);
    expect((await k.del(`/questions/${q!.id}`)).status).toBe(204);
    expect((await k.get(`/questions/${q!.id}`)).status).toBe(404);
  });

  it('reorders questions and offers rubric templates', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const qs = await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(3));
    const k = api(s.baseUrl, ws.apiKey);
    const order = [qs[2]!.id, qs[0]!.id, qs[1]!.id];
    expect((await k.post(`/exams/${e.id}/questions/reorder`, { questionIds: order })).status).toBe(200);
    expect((await k.get(`/exams/${e.id}`)).body.questions.map((q: { id: string }) => q.id)).toEqual(order);
    expect((await k.post(`/exams/${e.id}/questions/reorder`, { questionIds: [qs[0]!.id] })).status).toBe(400);
    const t = await k.get('/rubric-templates');
    expect(t.body.map((x: { family: string }) => x.family)).toEqual(['WAEC', 'Cambridge', 'STEM']);
  });
});

describe('roster', () => {
  it('issues PINs with messaging links; roster candidates need their PIN', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Roster exam' });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    const k = api(s.baseUrl, ws.apiKey);
    const add = await k.post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'A1', candidateName: 'Amaka Obi', phone: '+234 803 000 0000' }, { studentId: 'A2', candidateName: 'Bayo Ade' }] });
    expect(add.status).toBe(201);
    const [amaka] = add.body.candidates;
    expect(amaka.pin).toMatch(/^\d{6}$/);
    expect(amaka.smsLink).toMatch(/^sms:\+2348030000000\?body=/);
    expect(amaka.whatsappLink).toMatch(/^https:\/\/wa\.me\/2348030000000\?text=/);
    expect(decodeURIComponent(amaka.whatsappLink)).toContain(amaka.pin);
    expect(decodeURIComponent(amaka.whatsappLink)).toContain(e.accessCode);
    expect((await k.post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'A1', candidateName: 'Again' }] })).status).toBe(400);
    const list = await k.get(`/exams/${e.id}/roster`);
    expect(list.body.map((x: { studentId: string }) => x.studentId)).toEqual(['A1', 'A2']);

    const start = (studentId: string, pin: string) => api(s.baseUrl).post('/attempts/start', { accessCode: e.accessCode, studentId, candidateName: 'whoever', candidatePin: pin });
    // not on the roster and a wrong PIN are one answer (no roster enumeration)
    const notListed = await start('ZZ9', '123456');
    const wrongPin = await start('A1', '000000');
    expect([notListed.status, notListed.body.code, notListed.body.type]).toEqual([401, 'SIGN_IN_FAILED', '/problems/sign-in-failed']);
    expect([wrongPin.status, wrongPin.body.code, wrongPin.body.type, wrongPin.body.detail]).toEqual([401, 'SIGN_IN_FAILED', '/problems/sign-in-failed', notListed.body.detail]);
    expect((await start('A1', '000000')).status).toBe(401);
    const ok = await start('A1', amaka.pin);
    expect(ok.status).toBe(200);
    expect(ok.body.candidateName).toBe('Amaka Obi');
    const re = await k.post(`/exams/${e.id}/roster/${amaka.id}/pin`);
    expect(re.body.pin).toMatch(/^\d{6}$/);
    expect((await k.del(`/exams/${e.id}/roster/${amaka.id}`)).status).toBe(409);
    expect((await k.del(`/exams/${e.id}/roster/${add.body.candidates[1].id}`)).status).toBe(204);
  });
});
