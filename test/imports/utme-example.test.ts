/**
 * The UTME mock example in examples/utme-mock (docs/operations.md, "13. A UTME mock") works
 * as the docs say, over real HTTP: the exam settings (four sections, draws, a calculator),
 * the GIFT paper (a $CATEGORY per subject becomes each question's section), the roster CSV
 * as a spreadsheet writes it (subjects separated by ";", extra time in "%" and minutes),
 * and a candidate's start: Use of English plus their three subjects, each drawn to its size,
 * on a clock with their extra time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, api, registerWorkspace, startAttempt, type TestServer } from '../harness.js';
import { startImportServer, upload } from './http.js';

const DIR = join(ROOT, 'examples', 'utme-mock');
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
let s: TestServer;

beforeAll(async () => {
  s = await startImportServer();
});
afterAll(() => s.close());

describe('examples/utme-mock', () => {
  it('sets up a four-subject mock from the example files, and a candidate sits English plus three subjects with extra time', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const settings = JSON.parse(read('exam.json')) as { sections: { name: string; draw: number }[]; durationMins: number };
    const exam = await api(s.baseUrl, ws.apiKey).post('/exams', { workspaceId: ws.id, ...settings });
    expect(exam.status).toBe(201);
    expect(exam.body.calculator).toBe('basic');
    expect(exam.body.sections.map((x: { name: string }) => x.name)).toEqual(['Use of English', 'Mathematics', 'Physics', 'Chemistry']);

    const paper = await upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes: read('paper.gift'), name: 'paper.gift', type: 'text/plain' }, workspaceId: ws.id, examId: exam.body.id, format: 'gift' });
    expect(paper.status, JSON.stringify(paper.body)).toBe(201);
    expect(paper.body.created).toBe(20);
    const bySection = new Map<string, number>();
    for (const q of paper.body.questions as { section: string }[]) bySection.set(q.section, (bySection.get(q.section) ?? 0) + 1);
    expect(Object.fromEntries(bySection)).toEqual({ 'Use of English': 5, Mathematics: 5, Physics: 5, Chemistry: 5 });

    const roster = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.body.id}/roster/import`, { file: { bytes: read('roster.csv'), name: 'roster.csv', type: 'text/csv' } });
    expect(roster.status, JSON.stringify(roster.body)).toBe(201);
    const entries = (await api(s.baseUrl, ws.apiKey).get(`/exams/${exam.body.id}/roster`)).body as { studentId: string; pin: string; subjects: string[]; extraTimePercent: number; extraTimeMins: number }[];
    const bashir = entries.find((e) => e.studentId === 'UTM-002')!;
    expect(bashir).toMatchObject({ subjects: ['Mathematics', 'Physics', 'Chemistry'], extraTimePercent: 25, extraTimeMins: 0 });

    const started = await startAttempt(s.baseUrl, exam.body.accessCode, 'UTM-002', bashir.pin, 'Bashir Musa');
    const sections = started.sections as { name: string; questionIds: string[] }[];
    expect(sections.map((x) => [x.name, x.questionIds.length])).toEqual([['Use of English', 4], ['Mathematics', 3], ['Physics', 3], ['Chemistry', 3]]);
    expect(started.questions).toHaveLength(13);
    // 120 minutes × 1.25 = 150 minutes on this candidate's clock
    expect(started.remainingSeconds).toBeGreaterThan(149 * 60);
    expect(started.remainingSeconds).toBeLessThanOrEqual(150 * 60);
  });
});
