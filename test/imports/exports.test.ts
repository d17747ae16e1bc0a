/**
 * Exports over real HTTP: questions.xlsx → import-excel and questions.gift → import give
 * the same question set; results.xlsx / results.csv read back match GET /exams/:id/attempts;
 * GET /exams/:id/analysis on real attempts reproduces the hand-computed values of
 * test/analysis/item-analysis.test.ts (same designed data set: 10 candidates, 4 MCQs).
 */
// results files show hall time (issue 36): this file's hall runs on UTC, so hall time = UTC
process.env.TZ = 'UTC';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeReal } from '../real-papers.js';
import { FIXTURES, addQuestions, api, createExam, registerWorkspace, startAttempt, type TestServer } from '../harness.js';
import { download, startImportServer, upload } from './http.js';
import { canonical } from './canonical.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
const examQuestions = async (id: string) => (await api(s.baseUrl, ws.apiKey).get(`/exams/${id}`)).body.questions as unknown[];

beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(async () => s?.close());

// the source exam holds the real NECO paper (40 questions) beside four hand-written ones
describeReal('round trips', () => {
  let sourceId: string;
  beforeAll(async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Round trip' });
    sourceId = exam.id;
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, [
      { type: 'MCQ', prompt: 'Pick $\\frac{1}{2}$ of {4}: = ?', marks: 1.5, section: 'A', explanation: 'Half of 4\nis 2.', options: 'ABCDEFG'.split('').map((l, i) => ({ text: `${l}: ${i}`, isCorrect: i === 2 })) },
      { type: 'TRUE_FALSE', prompt: 'Lagos is a state.', marks: 1, options: [{ text: 'True', isCorrect: true }, { text: 'False', isCorrect: false }] },
      { type: 'SHORT_ESSAY', prompt: 'Define osmosis.', marks: 4, minWords: 10, maxWords: 60, modelAnswer: 'Movement of water # across a membrane.', section: 'B' },
      {
        type: 'LONG_ESSAY',
        prompt: 'Discuss democracy.',
        marks: 10,
        rubric: { name: 'WAEC essay', totalMarks: 10, criteria: [{ title: 'Content', maxMarks: 6, description: 'Relevant points' }, { title: 'Expression', maxMarks: 4 }] },
      },
    ]);
    const paper = readFileSync(join(FIXTURES, 'NECO_Mathematics_2023.md'));
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes: paper, name: 'neco.md' }, workspaceId: ws.id, examId: exam.id });
    expect(r.status).toBe(201);
  });

  it('questions.xlsx → POST /questions/import-excel gives identical questions', async () => {
    const file = await download(s.baseUrl, ws.apiKey, `/exams/${sourceId}/questions.xlsx`);
    expect(file.status).toBe(200);
    const target = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import-excel', { file: { bytes: file.bytes, name: 'export.xlsx' }, workspaceId: ws.id, examId: target.id });
    expect(r.status).toBe(201);
    const [a, b] = [await examQuestions(sourceId), await examQuestions(target.id)];
    expect(a).toHaveLength(44);
    expect(canonical(b)).toEqual(canonical(a));
  });

  it('questions.gift → POST /questions/import gives identical questions', async () => {
    const file = await download(s.baseUrl, ws.apiKey, `/exams/${sourceId}/questions.gift`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    const target = await createExam(s.baseUrl, ws.apiKey, ws.id);
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes: file.bytes, name: 'export.gift' }, workspaceId: ws.id, examId: target.id });
    expect(r.status).toBe(201);
    expect(r.body.format).toBe('gift');
    expect(canonical(await examQuestions(target.id))).toEqual(canonical(await examQuestions(sourceId)));
  });
});

describe('results and item analysis', () => {
  // the designed data set of test/analysis/item-analysis.test.ts: keys A, B, C, D
  const CHOICES = ['ABCD', 'ABCA', 'ABDD', 'AACA', 'ABDB', 'BBCC', 'ACDD', 'BACA', 'A-D-', '-DAA'];
  let examId: string;

  beforeAll(async () => {
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id, { title: 'Analysed', maxTabViolations: 0 });
    examId = exam.id;
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, [0, 1, 2, 3].map((k) => ({ type: 'MCQ', prompt: `Item ${k + 1}`, marks: 1, options: 'ABCD'.split('').map((l, j) => ({ text: `${l}${k}`, isCorrect: j === k })) })));
    const candidate = api(s.baseUrl);
    for (const [i, row] of CHOICES.entries()) {
      const att = await startAttempt(s.baseUrl, exam.accessCode, `S${String(i + 1).padStart(2, '0')}`, '1234', `Candidate ${i + 1}`);
      for (const [j, ch] of [...row].entries()) {
        if (ch === '-') continue;
        const q = att.questions[j]!;
        const r = await candidate.put(`/attempts/${att.attemptId}/answers/${q.id}`, { optionId: q.options.find((o) => o.keyLabel === ch)!.id });
        expect(r.status).toBe(200);
      }
      expect((await candidate.post(`/attempts/${att.attemptId}/submit`, {})).status).toBe(200);
    }
    await startAttempt(s.baseUrl, exam.accessCode, 'S11', '1234', 'Still Writing'); // in progress
    const dq = await startAttempt(s.baseUrl, exam.accessCode, 'S12', '1234', 'Tab Switcher');
    expect((await candidate.post(`/attempts/${dq.attemptId}/telemetry`, { type: 'TAB_SWITCH', meta: { action: 'window_blur' } })).body.status).toBe('DISQUALIFIED');
  });

  it('GET /exams/:id/analysis reproduces the hand-computed values (completed attempts only)', async () => {
    const r = await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}/analysis`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ examId, candidates: 10, items: 4, maxScore: 4, groupSize: 3 });
    expect(r.body.mean).toBeCloseTo(2.0, 4);
    expect(r.body.standardDeviation).toBeCloseTo(1.095445, 4);
    expect(r.body.kr20).toBeCloseTo(0.311111, 4);
    const q = r.body.questions as { facilityIndex: number; discriminationIndex: number; pointBiserial: number; options: { share: number }[] }[];
    expect(q.map((x) => x.facilityIndex)).toEqual([0.7, 0.5, 0.5, 0.3]);
    [0.666667, 1, 0.333333, 0.666667].forEach((d, j) => expect(q[j]!.discriminationIndex).toBeCloseTo(d, 4));
    [0.218218, 0.372104, -0.09759, 0.218218].forEach((p, j) => expect(q[j]!.pointBiserial).toBeCloseTo(p, 4));
    expect(q[3]!.options.map((o) => o.share)).toEqual([0.4, 0.1, 0.1, 0.3]);
    expect((await api(s.baseUrl, (await registerWorkspace(s.baseUrl)).apiKey).get(`/exams/${examId}/analysis`)).status).toBe(404);
  });

  it('results.xlsx read back with exceljs matches GET /exams/:id/attempts', async () => {
    const attempts = (await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}/attempts`)).body as Record<string, any>[];
    expect(attempts).toHaveLength(12);
    const file = await download(s.baseUrl, ws.apiKey, `/exams/${examId}/results.xlsx`);
    expect(file.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.bytes as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Results', 'Item analysis']);
    const sheet = wb.getWorksheet('Results')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['Student ID', 'Candidate name', 'Score', 'Max score', 'Percentage', 'Grade', 'Status', 'Violations', 'Started (hall time, UTC)', 'Completed (hall time, UTC)', 'Time taken (s)', 'Pending review', 'Q1', 'Q2', 'Q3', 'Q4']);
    const rows = new Map<string, Record<string, unknown>>();
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const v = (row.values as unknown[]).slice(1);
      rows.set(String(v[0]), Object.fromEntries(header.map((h, i) => [h as string, v[i] ?? null])));
    });
    expect(rows.size).toBe(12);
    const ms = (d: unknown) => (d instanceof Date ? d.getTime() : null);
    for (const a of attempts) {
      const row = rows.get(a.studentId)!;
      expect(row['Candidate name']).toBe(a.candidateName);
      expect(row.Status).toBe(a.status);
      expect(row.Score).toBe(a.score);
      expect(row['Max score']).toBe(a.maxScore);
      expect(row.Percentage).toBe(a.percentage);
      expect(row.Grade).toBe(a.grade);
      expect(row.Violations).toBe(a.violations);
      expect(row['Time taken (s)']).toBe(a.timeTakenSeconds);
      expect(Math.abs(ms(row['Started (hall time, UTC)'])! - Date.parse(a.startedAt))).toBeLessThan(1000);
      if (a.completedAt) expect(Math.abs(ms(row['Completed (hall time, UTC)'])! - Date.parse(a.completedAt))).toBeLessThan(1000);
      else expect(row['Completed (hall time, UTC)']).toBeNull();
    }
    // chosen key labels, one column per question ('-' = omitted)
    CHOICES.forEach((choice, i) => {
      const row = rows.get(`S${String(i + 1).padStart(2, '0')}`)!;
      expect(['Q1', 'Q2', 'Q3', 'Q4'].map((q) => row[q] ?? '-').join('')).toBe(choice);
    });
    const analysis = wb.getWorksheet('Item analysis')!;
    expect(analysis.getCell('B4').value).toBeCloseTo(0.3111, 4); // KR-20
    const q1 = (analysis.getRow(7).values as unknown[]).slice(1);
    expect(q1.slice(0, 7)).toEqual(['Q1', 'MCQ', 1, 'A', 0.7, 0.6667, 0.2182]);
  });

  it('results.csv has the same rows, hall-time dates and the key labels', async () => {
    const file = await download(s.baseUrl, ws.apiKey, `/exams/${examId}/results.csv`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    const parsed = Papa.parse<Record<string, string>>(file.bytes.toString('utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    expect(parsed.data).toHaveLength(12);
    const attempts = (await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}/attempts`)).body as Record<string, any>[];
    for (const a of attempts) {
      const row = parsed.data.find((r) => r['Student ID'] === a.studentId)!;
      expect(row.Status).toBe(a.status);
      expect(row.Score).toBe(a.score === null ? '' : String(a.score));
      expect(row['Started (hall time, UTC)']).toBe(`${new Date(Math.floor(Date.parse(a.startedAt) / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ')} (UTC+00:00)`);
    }
    expect(parsed.data.find((r) => r['Student ID'] === 'S10')).toMatchObject({ Q1: '', Q2: 'D', Q3: 'A', Q4: 'A', Score: '0', Grade: 'F9' });
  });
});
