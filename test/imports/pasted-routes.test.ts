/**
 * Pasted papers through the real HTTP route (issue 21, part 1): POST /questions/import
 * stores a pasted paper with its worked solutions as explanations and clean prompts; its
 * dry run reports unplaced lines with their line numbers and stores nothing; a dry run
 * that finds nothing importable says so (200, success false, errors) exactly as the
 * import itself refuses it (400, the same errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createExam, registerWorkspace, type TestServer } from '../harness.js';
import { makeDocx } from '../generation/helpers/ooxml.js';
import { startImportServer, upload } from './http.js';
import { pasted } from './pasted-helpers.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
const stored = async (examId: string) => (await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}`)).body.questions as { prompt: string; explanation: string | null; options: { keyLabel: string; isCorrect: boolean }[] }[];

beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(async () => s?.close());

describe('POST /questions/import with a pasted paper', () => {
  it('stores a UTME-style paste (201): numbering stripped, solutions as explanations, no prompt starting with the previous answer', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: pasted('shape-1-utme-maths-inline-solutions.txt'), workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, format: 'pasted-paper', dryRun: false, created: 6, skipped: [] });
    expect(r.body.warnings).toContainEqual({ line: 1, message: expect.stringMatching(/come before the first question/) });
    const qs = await stored(exam.id);
    expect(qs).toHaveLength(6);
    for (const q of qs) {
      expect(q.prompt).not.toMatch(/^\s*\d+\./);
      expect(q.prompt).not.toMatch(/^\s*(?:answer|ans|solution)\b/im);
      expect(q.explanation).toBeTruthy();
    }
    expect(qs.map((q) => q.options.find((o) => o.isCorrect)!.keyLabel)).toEqual(['B', 'B', 'B', 'B', 'B', 'B']);
    expect(qs[1]!.explanation).toBe('x^2 - 9 = (x - 3)(x + 3)\nDividing by (x - 3) leaves x + 3.');
  });

  it('reads a pasted paper from a Word document (.docx) with an answer key at the end', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const bytes = await makeDocx(pasted('shape-3-neco-key-at-end.txt').split('\n').filter((l) => l.trim()));
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes, name: 'economics.docx' }, workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ format: 'pasted-paper', created: 5 });
    expect((await stored(exam.id)).map((q) => q.options.find((o) => o.isCorrect)!.keyLabel)).toEqual(['C', 'A', 'D', 'B', 'A']);
  });

  it('a dry run lists the lines it could not place, with their numbers, and stores nothing (200)', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const text = '1. First?\nA. x\nB. y\n\nSee the diagram on page 4\nAnswer: A\n\n2. Second?\nA. p\nB. q\nAns: B\nPage 1 of 1\n';
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text, workspaceId: ws.id, examId: exam.id, dryRun: 'true' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, format: 'pasted-paper', dryRun: true, created: 0, errors: [] });
    expect(r.body.questions.map((q: { prompt: string }) => q.prompt)).toEqual(['First?', 'Second?']);
    expect(r.body.warnings).toEqual([
      { line: 5, message: 'Line 5 "See the diagram on page 4" follows the options of question 1 after a blank line and is neither an option nor an answer; it was left out.' },
      { line: 12, message: 'Line 12 "Page 1 of 1" was left out as page furniture.' },
    ]);
    expect(await stored(exam.id)).toHaveLength(0);
  });

  it('a dry run that finds nothing importable says so (200, success false, errors by line), as the import refuses it (400)', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const text = '1. Which planet is closest to the sun?\nA. Venus\nB. Mercury\n\n2. What is 6 x 7?\nA. 42\nB. 36\n';
    const f = { text, workspaceId: ws.id, examId: exam.id };
    const dry = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, dryRun: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ success: false, format: 'pasted-paper', created: 0, questions: [] });
    const expected = [
      { message: 'No importable questions were found in the pasted-paper text.' },
      { line: 1, message: 'missing answer: question 1 has no answer line and no answer key entry' },
      { line: 5, message: 'missing answer: question 2 has no answer line and no answer key entry' },
    ];
    expect(dry.body.errors).toEqual(expected);
    const real = await upload(s.baseUrl, ws.apiKey, '/questions/import', f);
    expect(real.status).toBe(400);
    expect(real.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(real.body.detail).toBe(expected[0]!.message);
    expect(real.body.errors).toEqual(expected.slice(1));
    // the same holds for the other formats: an Aiken text whose only answer names no option
    const aiken = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: 'Q?\nA. x\nB. y\nANSWER: E\n', workspaceId: ws.id, examId: exam.id, dryRun: 'true' });
    expect(aiken.status).toBe(200);
    expect(aiken.body).toMatchObject({ success: false, format: 'aiken', errors: [{ message: 'No importable questions were found in the aiken text.' }, { line: 1 }] });
    expect(await stored(exam.id)).toHaveLength(0);
  });
});
