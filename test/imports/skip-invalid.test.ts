/**
 * Issue 36 item 9: a web-copied paper where one question lost its options (image-only
 * options copy as empty "A." lines). POST /questions/import stays all-or-nothing by default;
 * with `skipInvalid=true` it stores the valid questions and answers with the skipped ones
 * and their line numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, startAttempt, type TestServer } from '../harness.js';
import { startImportServer, upload } from './http.js';

const PAPER = `1. What is two plus two?
A. 3
B. 4
C. 5
Answer: B

2. Which of these shapes is a triangle?
A.
B.
C.
Answer: A

3. What is the capital of Nigeria?
A. Lagos
B. Abuja
C. Kano
Answer: B
`;

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
const prompts = async (examId: string) => ((await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}`)).body.questions as { prompt: string }[]).map((q) => q.prompt);

beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(async () => s?.close());

describe('importing the good questions of a paper with a bad one', () => {
  it('by default refuses the whole paper and stores nothing, naming the bad question by line', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: PAPER, workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/nothing was stored/);
    expect(r.body.errors.every((e: { line: number }) => e.line === 7)).toBe(true);
    expect(await prompts(exam.id)).toEqual([]);
  });

  it('with skipInvalid=true stores the valid questions and lists the skipped one with its line', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: PAPER, workspaceId: ws.id, examId: exam.id, skipInvalid: 'true' });
    expect(r.status).toBe(201);
    expect(r.body.created).toBe(2);
    expect(r.body.questions.map((q: { prompt: string }) => q.prompt)).toEqual(['What is two plus two?', 'What is the capital of Nigeria?']);
    const skipped = r.body.skipped.filter((x: { index?: number }) => x.index !== undefined);
    expect(skipped).toEqual([{ index: 1, line: 7, reason: expect.stringMatching(/not stored.*Option text is required/i) }]);
    expect(r.body.errors.length).toBeGreaterThan(0);
    expect(r.body.errors.every((e: { index: number; line: number }) => e.index === 1 && e.line === 7)).toBe(true);
    expect(await prompts(exam.id)).toEqual(['What is two plus two?', 'What is the capital of Nigeria?']);
  });

  it('with skipInvalid=true and no valid question refuses with 400 and stores nothing', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const bad = PAPER.split('\n\n')[1]!;
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: `1. ${bad.slice(3)}`, workspaceId: ws.id, examId: exam.id, skipInvalid: 'true' });
    expect(r.status).toBe(400);
    expect(await prompts(exam.id)).toEqual([]);
  });

  it('refuses a skipInvalid that is not true or false', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const good = PAPER.split('\n\n')[0]!;
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: good, workspaceId: ws.id, examId: exam.id, skipInvalid: 'maybe' });
    expect(r.status).toBe(400);
    expect(await prompts(exam.id)).toEqual([]);
  });
});

describe('adding questions to an exam that has submitted attempts', () => {
  it('leaves the submitted attempts’ score and maximum as they were (they are not re-scored)', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const [q] = await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, [{ type: 'MCQ', prompt: 'One?', marks: 1, options: [{ text: '1', isCorrect: true }, { text: '2', isCorrect: false }] }]);
    const att = await startAttempt(s.baseUrl, exam.accessCode, 'SUB-1');
    const right = att.questions[0]!.options.find((o) => o.id === q!.options.find((x) => x.isCorrect)!.id)!;
    expect((await api(s.baseUrl).put(`/attempts/${att.attemptId}/answers/${att.questions[0]!.id}`, { optionId: right.id })).status).toBe(200);
    expect((await api(s.baseUrl).post(`/attempts/${att.attemptId}/submit`, {})).status).toBe(200);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: PAPER, workspaceId: ws.id, examId: exam.id, skipInvalid: 'true' });
    expect(r.status).toBe(201);
    const [after] = (await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/attempts`)).body as { score: number; maxScore: number; percentage: number }[];
    expect(after).toMatchObject({ score: 1, maxScore: 1, percentage: 100 });
  });
});
