/**
 * Question import routes over real HTTP (in-process app, temp SQLite): spreadsheet
 * import (all-or-nothing, errors by row/column), the template, question-bank import
 * (real past papers, dry run), size and magic-byte checks, and tenancy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeReal } from '../real-papers.js';
import { FIXTURES, api, createExam, registerWorkspace, type TestServer } from '../harness.js';
import { download, startImportServer, upload } from './http.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const w = wb.addWorksheet('Questions');
  for (const r of rows) w.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const questionCount = async (examId: string) => ((await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}`)).body.questions as unknown[]).length;

beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(async () => s?.close());

describe('POST /questions/import-excel', () => {
  it('imports every row (201) and stores the questions', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const bytes = await sheet([
      ['Type', 'Prompt', 'Marks', 'Option A', 'Option B', 'Option C', 'Correct', 'Explanation', 'Section'],
      ['MCQ', 'What is $3^2$?', 2, '6', '9', '12', 'B', '$3 \\times 3$', 'Algebra'],
      ['TRUE_FALSE', 'The Niger is a river.', 1, null, null, null, 'True'],
      ['SHORT_ESSAY', 'Define a river.', 3],
    ]);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { file: { bytes, name: 'bank.xlsx', type: XLSX }, workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, examId: exam.id, created: 3 });
    expect(r.body.questions[0]).toMatchObject({ type: 'MCQ', marks: 2, section: 'Algebra', explanation: '$3 \\times 3$' });
    expect(r.body.questions[0].options.map((o: { isCorrect: boolean }) => o.isCorrect)).toEqual([false, true, false]);
    expect(r.body.questions[2]).toMatchObject({ type: 'SHORT_ESSAY', minWords: 20, maxWords: 100 });
    expect(await questionCount(exam.id)).toBe(3);
  });

  it('stores nothing when any row is wrong and lists errors by row and column', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const long = 'x'.repeat(2100);
    const bytes = await sheet([
      ['Type', 'Prompt', 'Marks', 'Option A', 'Option B', 'Correct', 'Rubric'],
      ['MCQ', 'fine', 1, 'a', 'b', 'A'],
      ['MCQ', 'no key', 1, 'a', 'b', null],
      ['MCQ', 'too long an option', 1, 'a', long, 'A'],
    ]);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { file: { bytes, name: 'bank.xlsx' }, workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(r.body.errors).toEqual([{ row: 3, column: 'Correct', message: 'Correct is empty: give the letter of the right option (A–B).' }]);
    expect(await questionCount(exam.id)).toBe(0);

    // a row only the question service rejects: its {index, path} maps back to row 3, column "Option B"
    const bytes2 = await sheet([
      ['Type', 'Prompt', 'Marks', 'Option A', 'Option B', 'Correct'],
      ['MCQ', 'fine', 1, 'a', 'b', 'A'],
      ['MCQ', 'too long an option', 1, 'a', long, 'A'],
    ]);
    const r2 = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { file: { bytes: bytes2, name: 'bank.xlsx' }, workspaceId: ws.id, examId: exam.id });
    expect(r2.status).toBe(400);
    expect(r2.body.errors).toEqual([{ row: 3, column: 'Option B', message: expect.stringMatching(/1,000/) }]);
    expect(await questionCount(exam.id)).toBe(0);
  });

  it('answers 415 when the bytes are not what the name claims, 413 over 10 MB', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const fields = { workspaceId: ws.id, examId: exam.id };
    const notZip = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { ...fields, file: { bytes: 'Type,Prompt\nMCQ,x\n', name: 'bank.xlsx' } });
    expect(notZip.status).toBe(415);
    const zipAsCsv = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { ...fields, file: { bytes: await sheet([['Prompt']]), name: 'bank.csv' } });
    expect(zipAsCsv.status).toBe(415);
    const oldXls = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { ...fields, file: { bytes: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), name: 'bank.xls' } });
    expect(oldXls.status).toBe(415);
    expect(oldXls.body.detail).toMatch(/\.xlsx/);
    const big = new Uint8Array(10 * 1024 * 1024 + 10);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    const tooBig = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { ...fields, file: { bytes: big, name: 'big.xlsx' } });
    expect(tooBig.status).toBe(413);
    expect(await questionCount(exam.id)).toBe(0);
  });

  it('keeps tenancy: 401 without a key, 404 for another workspace’s exam or workspaceId', async () => {
    const other = await registerWorkspace(s.baseUrl);
    const theirs = await createExam(s.baseUrl, other.apiKey, other.id);
    const mine = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const bytes = await sheet([['Prompt', 'Option A', 'Option B', 'Correct'], ['Q', 'a', 'b', 'A']]);
    const file = { bytes, name: 'q.xlsx' };
    expect((await upload(s.baseUrl, undefined, '/questions/import-excel', { file, workspaceId: ws.id, examId: mine.id })).status).toBe(401);
    expect((await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { file, workspaceId: ws.id, examId: theirs.id })).status).toBe(404);
    expect((await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { file, workspaceId: other.id, examId: mine.id })).status).toBe(404);
    expect((await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: 'Q?\nA. a\nB. b\nANSWER: A', workspaceId: ws.id, examId: theirs.id })).status).toBe(404);
    expect((await download(s.baseUrl, ws.apiKey, `/exams/${theirs.id}/questions.xlsx`)).status).toBe(404);
    expect((await download(s.baseUrl, ws.apiKey, `/exams/${theirs.id}/questions.gift`)).status).toBe(404);
  });
});

describe('GET /questions/import-excel/template', () => {
  it('returns an .xlsx whose examples import as they are', async () => {
    const t = await download(s.baseUrl, ws.apiKey, '/questions/import-excel/template');
    expect(t.status).toBe(200);
    expect(t.headers.get('content-type')).toBe(XLSX);
    expect(t.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.xlsx"/);
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { file: { bytes: t.bytes, name: 'template.xlsx' }, workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(201);
    expect(r.body.questions.map((q: { type: string }) => q.type)).toEqual(['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY', 'LONG_ESSAY']);
  });
});

describeReal('POST /questions/import', () => {
  it('imports a real past paper file with its warnings (NECO: duplicate option, offline images)', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const bytes = readFileSync(join(FIXTURES, 'NECO_Mathematics_2023.md'));
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes, name: 'NECO_Mathematics_2023.md', type: 'text/markdown' }, workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, format: 'past-paper', dryRun: false, created: 40, skipped: [] });
    expect(r.body.warnings.filter((w: { message: string }) => w.message.includes('same text'))).toHaveLength(1);
    expect(r.body.warnings.filter((w: { message: string }) => w.message.includes('offline'))).toHaveLength(2);
    expect(r.body.questions[1].options.find((o: { isCorrect: boolean }) => o.isCorrect).keyLabel).toBe('C');
    expect(await questionCount(exam.id)).toBe(40);
  });

  it('a dry run returns what would be imported and stores nothing (200)', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const text = readFileSync(join(FIXTURES, 'WAEC_Physics_2023.md'), 'utf8');
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text, workspaceId: ws.id, examId: exam.id, dryRun: 'true' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, format: 'past-paper', dryRun: true, created: 0, errors: [] });
    expect(r.body.questions).toHaveLength(50);
    expect(await questionCount(exam.id)).toBe(0);
  });
});

describe('POST /questions/import', () => {
  it('reads GIFT and Moodle XML files, reports skipped items, and honours format', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const gift = readFileSync(new URL('../fixtures/imports/sample.gift', import.meta.url));
    const g = await upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes: gift, name: 'bank.gift' }, workspaceId: ws.id, examId: exam.id });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ format: 'gift', created: 6 });
    expect(g.body.skipped).toHaveLength(2);
    const xml = readFileSync(new URL('../fixtures/imports/sample-moodle.xml', import.meta.url));
    const m = await upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes: xml, name: 'bank.xml' }, workspaceId: ws.id, examId: exam.id, format: 'moodle-xml' });
    expect(m.status).toBe(201);
    expect(m.body).toMatchObject({ format: 'moodle-xml', created: 4 });
    expect(await questionCount(exam.id)).toBe(10);
  });

  it('rejects unreadable input with 400/415 and stores nothing', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const f = { workspaceId: ws.id, examId: exam.id };
    const unknown = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, text: 'Some notes, not questions.' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/not recognised/);
    const badXml = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, text: '<quiz><question type="essay"></quiz>' });
    expect(badXml.status).toBe(400);
    expect(badXml.body.errors[0]).toMatchObject({ line: 1 });
    const pdf = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, file: { bytes: '%PDF-1.5\n...', name: 'paper.txt' } });
    expect(pdf.status).toBe(415);
    const both = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, text: 'x', file: { bytes: 'y', name: 'a.txt' } });
    expect(both.status).toBe(400);
    // one item the question service rejects (an option over 1,000 characters): 400 with its line, nothing stored
    const aiken = `First?\nA. yes\nB. no\nANSWER: A\n\nSecond?\nA. ${'z'.repeat(2100)}\nB. no\nANSWER: B\n`;
    const bad = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, text: aiken });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ index: 1, line: 6, path: 'options.0.text' });
    expect(await questionCount(exam.id)).toBe(0);
  });
});

describe('truncated or corrupt uploads', () => {
  it('answers 415 problem+json (never 500) on the roster, spreadsheet and question-bank imports, and changes nothing', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const f = { workspaceId: ws.id, examId: exam.id };
    // state to keep: one question, one candidate
    expect((await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, text: 'Kept?\nA. yes\nB. no\nANSWER: A' })).status).toBe(201);
    expect((await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: 'studentId,candidateName\nS1,Kept\n', name: 'r.csv' } })).status).toBe(201);
    const rosterNow = async () => (await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.id}/roster`)).body as { studentId: string }[];

    const whole = await sheet([['studentId', 'candidateName'], ['S2', 'New One'], ['S3', 'Another']]);
    const corrupt = [
      whole.subarray(0, Math.floor(whole.length / 2)), // cut off mid-download: no central directory
      whole.subarray(0, whole.length - 10), // central directory cut short
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x0d, 0x0a]), // the zip signature and nothing else
    ];
    for (const bytes of corrupt) {
      // one after another: one workspace may hold two upload places at a time (issue #34, finding 8)
      const calls = [
        () => upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes, name: 'class.xlsx' } }),
        () => upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { ...f, file: { bytes, name: 'bank.xlsx' } }),
        () => upload(s.baseUrl, ws.apiKey, '/questions/import', { ...f, file: { bytes, name: 'bank.docx' } }),
      ];
      for (const call of calls) {
        const r = await call();
        expect(r.status).toBe(415);
        expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(r.body).toMatchObject({ status: 415, type: '/problems/unsupported-media-type' });
        expect(r.body.detail).toMatch(/could not be read as an? (\.xlsx workbook|Word)/);
      }
    }
    expect((await rosterNow()).map((c) => c.studentId)).toEqual(['S1']);
    expect(await questionCount(exam.id)).toBe(1);
  });
});

describe('OpenAPI', () => {
  it('documents the import, export and analysis routes', async () => {
    const r = await api(s.baseUrl).get('/openapi.json');
    expect(r.status).toBe(200);
    const paths = Object.keys(r.body.paths);
    for (const p of ['/questions/import-excel', '/questions/import-excel/template', '/questions/import', '/exams/{id}/questions.xlsx', '/exams/{id}/questions.gift', '/exams/{id}/results.xlsx', '/exams/{id}/results.csv', '/exams/{id}/roster/import', '/exams/{id}/roster.xlsx', '/exams/{id}/analysis']) {
      expect(paths, p).toContain(p);
    }
    expect(Object.keys(r.body.paths['/questions/import'].post.requestBody.content)).toEqual(['multipart/form-data']);
  });
});
