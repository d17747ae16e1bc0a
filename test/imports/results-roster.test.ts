/**
 * Issue 36 item 6: results.csv and results.xlsx name every roster candidate (an ABSENT row
 * for each one without an attempt) and give times in the hall's local time with the zone
 * named. The hall machine's zone here is Africa/Lagos (UTC+01:00, no daylight saving).
 */
process.env.TZ = 'Africa/Lagos';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, startAttempt, type TestServer } from '../harness.js';
import { download, startImportServer } from './http.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
let examId = '';
let attempts: { studentId: string; status: string; startedAt: string; completedAt: string | null }[] = [];
const STARTED = 'Started (hall time, Africa/Lagos)';
const COMPLETED = 'Completed (hall time, Africa/Lagos)';
/** The Lagos wall clock of an ISO instant, to the second: UTC + 1 h. */
const lagos = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000 + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
  const key = api(s.baseUrl, ws.apiKey);
  const exam = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Mock JAMB' });
  examId = exam.id;
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, [{ type: 'MCQ', prompt: 'Two plus two?', marks: 1, options: [{ text: '4', isCorrect: true }, { text: '5', isCorrect: false }] }]);
  const roster = await key.post(`/exams/${exam.id}/roster`, { candidates: [{ studentId: 'R-1', candidateName: 'Ada Obi' }, { studentId: 'R-2', candidateName: 'Bola Ade' }, { studentId: 'R-3', candidateName: 'Chidi Eze' }] });
  expect(roster.status).toBe(201);
  const pin = (id: string) => (roster.body.candidates as { studentId: string; pin: string }[]).find((c) => c.studentId === id)!.pin;
  const done = await startAttempt(s.baseUrl, exam.accessCode, 'R-1', pin('R-1'), 'Ada Obi');
  expect((await api(s.baseUrl).post(`/attempts/${done.attemptId}/submit`, {})).status).toBe(200);
  await startAttempt(s.baseUrl, exam.accessCode, 'R-2', pin('R-2'), 'Bola Ade'); // still writing
  attempts = (await key.get(`/exams/${exam.id}/attempts`)).body;
  expect(attempts).toHaveLength(2);
});
afterAll(async () => s?.close());

describe('results files name everyone, in hall time', () => {
  it('results.csv: an ABSENT row for the roster candidate who never started; times in Lagos time with the offset', async () => {
    const file = await download(s.baseUrl, ws.apiKey, `/exams/${examId}/results.csv`);
    expect(file.status).toBe(200);
    const parsed = Papa.parse<Record<string, string>>(file.bytes.toString('utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toContain(STARTED);
    expect(parsed.meta.fields).toContain(COMPLETED);
    expect(parsed.data.map((r) => [r['Student ID'], r.Status])).toEqual([['R-1', 'COMPLETED'], ['R-2', 'IN_PROGRESS'], ['R-3', 'ABSENT']]);
    const absent = parsed.data[2]!;
    expect(absent).toMatchObject({ 'Candidate name': 'Chidi Eze', Score: '', Grade: '', [STARTED]: '', [COMPLETED]: '', Q1: '' });
    for (const a of attempts) {
      const row = parsed.data.find((r) => r['Student ID'] === a.studentId)!;
      expect(row[STARTED]).toBe(`${lagos(a.startedAt)} (UTC+01:00)`);
      expect(row[COMPLETED]).toBe(a.completedAt ? `${lagos(a.completedAt)} (UTC+01:00)` : '');
    }
  });

  it('results.xlsx read back with exceljs: the same ABSENT row; real dates holding the Lagos wall clock, the zone in the header', async () => {
    const file = await download(s.baseUrl, ws.apiKey, `/exams/${examId}/results.xlsx`);
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.bytes as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Results')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    expect(header.slice(8, 10)).toEqual([STARTED, COMPLETED]);
    const rows: Record<string, unknown>[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) rows.push(Object.fromEntries(header.map((h, i) => [h, (row.values as unknown[])[i + 1] ?? null])));
    });
    expect(rows.map((r) => [r['Student ID'], r.Status])).toEqual([['R-1', 'COMPLETED'], ['R-2', 'IN_PROGRESS'], ['R-3', 'ABSENT']]);
    expect(rows[2]).toMatchObject({ 'Candidate name': 'Chidi Eze', Score: null, [STARTED]: null, Q1: null });
    expect(sheet.getCell(2, 9).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    for (const a of attempts) {
      const row = rows.find((r) => r['Student ID'] === a.studentId)!;
      // a spreadsheet date has no zone: exceljs reads it back as UTC fields = the wall clock
      expect((row[STARTED] as Date).toISOString().slice(0, 19).replace('T', ' ')).toBe(lagos(a.startedAt));
      if (a.completedAt) expect((row[COMPLETED] as Date).toISOString().slice(0, 19).replace('T', ' ')).toBe(lagos(a.completedAt));
    }
  });
});
