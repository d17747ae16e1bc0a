/**
 * Issue #34 §3, authoring side: a question's text and maths and an exam's whole paper are
 * bounded where questions enter a hall exam (docs/decisions.md, "Paper size limits"). Over a
 * limit → 400 problem details naming the question (`index`, `path`), and nothing is stored:
 * POST /questions/bulk, an Aiken import, PATCH /questions/:id, a released hub paper. An exam
 * stored before the limits and over them still starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { upload } from '../imports/http.js';
import { MAX_OPTION_CHARS, MAX_PAPER_TEXT_CHARS, MAX_PROMPT_CHARS, MAX_QUESTION_MATHS_SPANS } from '../../src/core/questions/limits.js';
import { checkWholePaper } from '../../src/modules/questions/paper-size.js';
import { ValidationError } from '../../src/platform/errors.js';

const mcq = (prompt: string, option = 'yes') => ({ prompt, type: 'MCQ', marks: 1, options: [{ text: option, isCorrect: true }, { text: 'no', isCorrect: false }] });
type Problem = { status: number; errors: { index?: number; path?: string; line?: number; message: string }[]; detail: string };

describe('paper size limits at authoring', () => {
  let server: TestServer;
  let ws: { id: string; apiKey: string };
  const count = async (examId: string) => ((await api(server.baseUrl, ws.apiKey).get(`/exams/${examId}`)).body as { questions: unknown[] }).questions.length;
  const bulk = (examId: string, questions: unknown[]) => api(server.baseUrl, ws.apiKey).post('/questions/bulk', { workspaceId: ws.id, examId, questions });

  beforeAll(async () => {
    server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
    ws = await registerWorkspace(server.baseUrl);
  });
  afterAll(async () => server?.close());

  it('refuses a prompt, an option and a question’s maths over their limits, naming the question; stores nothing', async () => {
    const exam = await createExam(server.baseUrl, ws.apiKey, ws.id);
    const cases: [unknown, number, string, RegExp][] = [
      [mcq('x'.repeat(MAX_PROMPT_CHARS + 1)), 1, 'prompt', /at most 10,000 characters/],
      [mcq('Pick one', 'y'.repeat(MAX_OPTION_CHARS + 1)), 1, 'options.0.text', /at most 1,000 characters/],
      [mcq('$x$ '.repeat(MAX_QUESTION_MATHS_SPANS + 1)), 1, 'prompt', /151 maths spans/],
      [mcq(`$$${'\\sqrt{x}'.repeat(251)}$$`), 1, 'prompt', /2,008 characters of TeX/],
      [{ ...mcq('Explain'), explanation: 'e'.repeat(10_001) }, 1, 'explanation', /at most 10,000/],
    ];
    for (const [bad, index, path, message] of cases) {
      const r = await bulk(exam.id, [mcq('A fine question'), bad]);
      expect(r.status).toBe(400);
      const p = r.body as Problem;
      expect(p.errors).toContainEqual(expect.objectContaining({ index, path, message: expect.stringMatching(message) }));
    }
    expect(await count(exam.id)).toBe(0);
  });

  it('refuses the question that takes the exam’s paper over its total, on bulk, import and PATCH; an edit that does not grow it passes', async () => {
    const exam = await createExam(server.baseUrl, ws.apiKey, ws.id);
    const big = (i: number) => mcq(`Passage ${i}. ${'word '.repeat(1_990)}`);
    // 11 × ~9,960 characters: the 11th crosses 100,000
    const r = await bulk(exam.id, Array.from({ length: 11 }, (_, i) => big(i)));
    expect(r.status).toBe(400);
    expect((r.body as Problem).errors).toEqual([expect.objectContaining({ index: 10, path: '(paper)', message: expect.stringMatching(/at most 100,000 per exam/) })]);
    expect(await count(exam.id)).toBe(0);

    const stored = await addQuestions(server.baseUrl, ws.apiKey, ws.id, exam.id, Array.from({ length: 10 }, (_, i) => big(i)));
    const one = await bulk(exam.id, [mcq('One more '.repeat(100))]);
    expect(one.status).toBe(400);
    expect((one.body as Problem).errors[0]).toMatchObject({ index: 0, path: '(paper)' });

    // an Aiken import (every import path inserts through the same service)
    const aiken = `${'Long stem '.repeat(100)}?\nA. yes\nB. no\nANSWER: A\n`;
    const imp = await upload(server.baseUrl, ws.apiKey, '/questions/import', { text: aiken, format: 'aiken', workspaceId: ws.id, examId: exam.id });
    expect(imp.status).toBe(400);
    expect(JSON.stringify(imp.body)).toMatch(/at most 100,000 per exam/);
    expect(await count(exam.id)).toBe(10);

    // ~1,000 characters more in an option: over the total
    const patch = await api(server.baseUrl, ws.apiKey).patch(`/questions/${stored[0]!.id}`, { options: [{ text: 'y'.repeat(MAX_OPTION_CHARS), isCorrect: true }, { text: 'no', isCorrect: false }] });
    expect(patch.status).toBe(400);
    expect(JSON.stringify(patch.body)).toContain(stored[0]!.id);
    expect((await api(server.baseUrl, ws.apiKey).patch(`/questions/${stored[0]!.id}`, { prompt: 'A shorter passage.' })).status).toBe(200);
    expect(MAX_PAPER_TEXT_CHARS).toBe(100_000);
  });

  it('refuses a released hub paper over a limit, naming the question', () => {
    const q = (prompt: string) => ({ prompt, options: [{ text: 'a' }, { text: 'b' }], explanation: null, modelAnswer: null, rubric: null });
    const over = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return e instanceof ValidationError ? (e.extra.errors as Problem['errors']) : null;
      }
      return null;
    };
    expect(over(() => checkWholePaper([q('fine'), q('$x$ '.repeat(200))]))).toEqual([expect.objectContaining({ index: 1, path: 'prompt' })]);
    expect(over(() => checkWholePaper(Array.from({ length: 12 }, () => q('w '.repeat(4_900)))))).toEqual([expect.objectContaining({ index: 10, path: '(paper)' })]);
    expect(over(() => checkWholePaper([q('fine')]))).toBeNull();
  });

  it('still starts an exam stored before the limits and over them (rendered once, in the render thread)', async () => {
    const exam = await createExam(server.baseUrl, ws.apiKey, ws.id);
    const [q] = await addQuestions(server.baseUrl, ws.apiKey, ws.id, exam.id, [mcq('placeholder')]);
    // what an older hall stored: 20,000 characters of `$x$ `
    server.deps.sqlite.prepare('UPDATE questions SET prompt = ? WHERE id = ?').run('$x$ '.repeat(5_000).trim(), q!.id);
    server.deps.sessions.invalidateExam(exam.id);
    const r = await api(server.baseUrl).post('/attempts/start', { accessCode: exam.accessCode, studentId: 'OLD-1', candidateName: 'Old One', candidatePin: '2468' });
    expect(r.status).toBe(200);
    expect((r.body as { questions: { promptHtml: string }[] }).questions[0]!.promptHtml).toContain('katex');
  }, 30_000);
});
