/**
 * Roster files over real HTTP: CSV and .xlsx import (header aliases, per-row errors,
 * all-or-nothing), the printable roster .xlsx with PINs, 415 on mismatched bytes, and
 * a roster candidate signing in with the PIN read from the exported sheet.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createExam, registerWorkspace, sampleMcqs, addQuestions, type TestServer } from '../harness.js';
import { download, startImportServer, upload } from './http.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
const roster = async (examId: string) => (await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}/roster`)).body as { studentId: string; candidateName: string; phone: string | null; pin: string }[];

beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(async () => s?.close());

describe('POST /exams/:id/roster/import', () => {
  it('adds candidates from a CSV with header aliases and blank lines (201, PINs issued)', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const csv = 'Student ID,Full Name,Mobile,Class\r\nS001,Ada Obi,+234 803 000 0001,SS3\r\n\r\nS002,"Bello, Musa",,SS3\r\n';
    const r = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: csv, name: 'class.csv', type: 'text/csv' } });
    expect(r.status).toBe(201);
    expect(r.body.created).toBe(2);
    expect(r.body.candidates.map((c: { candidateName: string }) => c.candidateName)).toEqual(['Ada Obi', 'Bello, Musa']);
    expect(r.body.candidates[0].pin).toMatch(/^\d{6}$/);
    expect((await roster(exam.id)).map((c) => c.studentId)).toEqual(['S001', 'S002']);
  });

  it('reports every bad row by row and column and adds nobody', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: 'studentId,candidateName\nS9,Already Here\n', name: 'a.csv' } });
    const csv = 'studentId,candidateName,phone\nS1,Good Row,\nS2,,\nS1,Twice,\nS3,Bad Phone,abc\n';
    const r = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: csv, name: 'b.csv' } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { row: 3, column: 'candidateName', message: expect.any(String) },
      { row: 4, column: 'studentId', message: 'studentId S1 also appears on row 2.' },
      { row: 5, column: 'phone', message: 'Phone numbers have 6 to 20 digits, optionally with a leading +' },
    ]);
    // a student already on the roster: the roster service's {index} maps back to the file row
    const again = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: 'studentId,candidateName\nS10,New\nS9,Again\n', name: 'c.csv' } });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([{ row: 3, column: 'studentId', message: 'studentId S9 is already on the roster' }]);
    expect((await roster(exam.id)).map((c) => c.studentId)).toEqual(['S9']);
  });

  it('reads an .xlsx roster (numbers as text, title row above the header)', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Class list');
    sheet.addRow(['SS3 Science, 2024']);
    sheet.addRow(['Admission No', 'Candidate Name', 'Phone Number']);
    sheet.addRow([1001, 'Chidi Eze', '08030000002']);
    sheet.addRow([1002, { richText: [{ text: 'Fatima ' }, { text: 'Sani', font: { bold: true } }] }, null]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes, name: 'class.xlsx' } });
    expect(r.status).toBe(201);
    expect((await roster(exam.id)).map((c) => [c.studentId, c.candidateName, c.phone])).toEqual([
      ['1001', 'Chidi Eze', '08030000002'],
      ['1002', 'Fatima Sani', null],
    ]);
  });

  it('answers 415 when the bytes do not match the claimed type, 404 for another workspace’s exam', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const path = `/exams/${exam.id}/roster/import`;
    expect((await upload(s.baseUrl, ws.apiKey, path, { file: { bytes: 'studentId,candidateName\nS1,A\n', name: 'list.xlsx' } })).status).toBe(415);
    const zip = Buffer.from(await new ExcelJS.Workbook().xlsx.writeBuffer());
    expect((await upload(s.baseUrl, ws.apiKey, path, { file: { bytes: zip, name: 'list.csv' } })).status).toBe(415);
    expect((await upload(s.baseUrl, ws.apiKey, path, { file: { bytes: new Uint8Array([1, 0, 2, 0]), name: 'list.csv' } })).status).toBe(415);
    const other = await registerWorkspace(s.baseUrl);
    expect((await upload(s.baseUrl, other.apiKey, path, { file: { bytes: 'studentId,candidateName\nS1,A\n', name: 'l.csv' } })).status).toBe(404);
    expect((await download(s.baseUrl, other.apiKey, `/exams/${exam.id}/roster.xlsx`)).status).toBe(404);
    expect(await roster(exam.id)).toEqual([]);
  });
});

describe('GET /exams/:id/roster.xlsx', () => {
  it('lists every candidate with the PIN the API shows, and that PIN signs the candidate in', async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'PIN slips' });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, sampleMcqs(2));
    const csv = 'studentId,candidateName,phone\n007,Zainab Yusuf,+2348030000003\n008,Emeka Nwosu,\n';
    expect((await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: csv, name: 'r.csv' } })).status).toBe(201);
    const file = await download(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster.xlsx`);
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.bytes as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const api_ = await roster(exam.id);
    expect(rows[0]).toEqual(['studentId', 'candidateName', 'phone', 'PIN', 'Room code', 'Exam']);
    expect(rows.slice(1)).toEqual(api_.map((c) => [c.studentId, c.candidateName, c.phone ?? '', c.pin, exam.accessCode, 'PIN slips']));
    const start = await api(s.baseUrl).post('/attempts/start', { accessCode: exam.accessCode, studentId: '007', candidateName: 'Zainab Yusuf', candidatePin: String(rows[1]![3]) });
    expect(start.status).toBe(200);
  });
});
