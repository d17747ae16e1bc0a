/**
 * The admin page on exam day, in real headless Chromium against the real app on loopback
 * (issue 5), with candidates driven through the candidate API: the live monitor (a start
 * appears within 2 s; extend time, disqualify → alert → reinstate, pause/resume,
 * force-submit; reconnecting through a Wi-Fi drop), results with item analysis and a
 * printable slip, the .xlsx download read back with exceljs, essay review with a
 * recommended rubric score, and webhook deliveries (a real receiver on loopback).
 *
 * The hall, exam, questions and roster are set up through the API; one browser and one
 * server for the file; the steps run in order and share the state below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, addQuestions, api, createExam, launchBrowser, registerWorkspace, startReceiver, startTestServer, waitFor, type TestServer, typeInto } from '../harness.js';

const ARTIFACTS = join(ROOT, 'test', 'artifacts');
const STEP_MS = 60_000;

let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

// shared story state
let apiKey = '';
let webhookSecret = '';
let examId = '';
let accessCode = '';
let questionIds: string[] = [];
let roster: Array<{ id: string; studentId: string; candidateName: string; pin: string; smsLink: string | null }> = [];
let writerAttemptId = '';

const keyed = () => api(server.baseUrl, apiKey);
/** Saves a full-page screenshot (toasts cleared first so they hide nothing). */
const shot = async (name: string) => {
  await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
  await page.screenshot({ path: join(ARTIFACTS, `admin-${name}.png`), fullPage: true });
};
const hash = (h: string) => page.evaluate((x) => (location.hash = x), h);

/** The paper: a 2-mark MCQ with LaTeX (key B), two 1-mark MCQs, a 10-mark essay with a STEM rubric. */
const PAPER = [
  { type: 'MCQ', marks: 2, section: 'Section A', prompt: 'If $x = 3$, what is $\\frac{x^2 + 3}{4}$?', options: ['$2$', '$3$', '$\\sqrt{9}$', '4'].map((text, i) => ({ text, isCorrect: i === 1 })) },
  { type: 'MCQ', marks: 1, prompt: 'Which of these is a prime number?', options: ['21', '27', '29', '33'].map((text) => ({ text, isCorrect: text === '29' })) },
  { type: 'MCQ', marks: 1, prompt: 'What is $2^5$?', options: ['10', '25', '32'].map((text) => ({ text, isCorrect: text === '32' })) },
  {
    type: 'SHORT_ESSAY', marks: 10, section: 'Section B', prompt: 'Explain, in your own words, why $\\sqrt{2}$ is irrational.',
    modelAnswer: 'Assume $\\sqrt{2} = p/q$ in lowest terms; then $p^2 = 2q^2$, so both are even — a contradiction.',
    rubric: { name: 'STEM problem solving', totalMarks: 10, criteria: [{ title: 'Method', maxMarks: 4 }, { title: 'Accuracy', maxMarks: 3 }, { title: 'Units and notation', maxMarks: 1 }, { title: 'Communication', maxMarks: 2 }] },
  },
];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs` (npm test does it in pretest)');
  mkdirSync(ARTIFACTS, { recursive: true });
  receiver = await startReceiver();
  server = await startTestServer({ jobs: true, config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  const ws = await registerWorkspace(server.baseUrl, { name: 'Lagos Tutorial Centre', webhookUrl: receiver.url });
  apiKey = ws.apiKey;
  webhookSecret = ws.webhookSecret;
  const exam = await createExam(server.baseUrl, apiKey, ws.id, { title: 'SS2 Mathematics — Mock 1', maxTabViolations: 2 });
  examId = exam.id;
  accessCode = exam.accessCode;
  questionIds = (await addQuestions(server.baseUrl, apiKey, ws.id, examId, PAPER)).map((q) => q.id);
  const added = await keyed().post(`/exams/${examId}/roster`, { candidates: [
    { studentId: 'STU-001', candidateName: 'Adaeze Okafor', phone: '+2348012345678' },
    { studentId: 'STU-002', candidateName: 'Bola Adeyemi', phone: '08030000000' },
    { studentId: 'STU-003', candidateName: 'Chidi Eze' },
  ] });
  expect(added.status).toBe(201);
  roster = added.body.candidates;
  browser = await launchBrowser();
  context = await browser.newContext({ timezoneId: 'Africa/Lagos', viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

/** Signs a tab in with the API key and opens the exam's monitor. */
async function openMonitor(tab: Page, origin: string): Promise<void> {
  await tab.goto(`${origin}/admin`);
  await tab.click('[data-tab="key"]');
  await typeInto(tab, '#signin-key [name="apiKey"]', apiKey);
  await tab.click('#signin-key button[type="submit"]');
  await tab.waitForSelector('#new-exam');
  await tab.evaluate((id) => (location.hash = `#/exams/${id}/monitor`), examId);
  await tab.waitForFunction(() => document.querySelector('#monitor-connection')?.textContent === '● Live');
}

describe.sequential('admin page: exam day', () => {
  it('signs in with an API key and shows the hall, its credits and the exam with its room code', async () => {
    await openMonitor(page, server.baseUrl);
    expect(await page.textContent('#ws-name')).toBe('Lagos Tutorial Centre');
    expect(await page.textContent('#ws-credits')).toBe('30');
    expect(await page.textContent('#room-code')).toBe(accessCode);
    expect(await page.evaluate(() => ({ local: localStorage.length, session: Object.values(sessionStorage) }))).toEqual({ local: 0, session: [apiKey] });
  }, STEP_MS);

  it('shows a candidate in the live monitor within 2 s, and extends their time', async () => {
    await page.click('[data-tab="monitor"]');
    await page.waitForFunction(() => document.querySelector('#monitor-connection')?.textContent === '● Live');
    const bola = roster.find((r) => r.studentId === 'STU-002')!;
    const start = await api(server.baseUrl).post('/attempts/start', { accessCode, studentId: bola.studentId, candidateName: bola.candidateName, candidatePin: bola.pin });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    writerAttemptId = start.body.attemptId;
    const row = `#monitor-table tr[data-attempt-id="${writerAttemptId}"]`;
    const t0 = Date.now();
    await page.waitForSelector(row, { timeout: 2000 });
    expect(Date.now() - t0).toBeLessThanOrEqual(2000);
    expect(await page.textContent(`${row} [data-field="progress"]`)).toContain('0/4');

    const q0 = start.body.questions.find((q: { id: string }) => q.id === questionIds[0]);
    const correct = (await keyed().get(`/exams/${examId}`)).body.questions[0].options.find((o: { isCorrect: boolean }) => o.isCorrect).id;
    expect((await api(server.baseUrl).put(`/attempts/${writerAttemptId}/answers/${q0.id}`, { optionId: correct })).status).toBe(200);
    // saves are not pushed as events; the stream's periodic snapshot (every 5 s) carries them
    await page.waitForFunction((r) => document.querySelector(`${r} [data-field="progress"]`)?.textContent?.startsWith('1/4'), row, { timeout: 6500 });
    const essay = 'Suppose root two equals p over q in lowest terms. Then p squared equals two q squared, so p is even; writing p as 2k gives q squared equal to two k squared, so q is even too. Both even contradicts lowest terms, so root two is irrational.';
    expect((await api(server.baseUrl).put(`/attempts/${writerAttemptId}/answers/${questionIds[3]}`, { text: essay })).status).toBe(200);

    const before = Number(await page.getAttribute(`${row} [data-field="remaining"]`, 'data-seconds'));
    expect(before).toBeGreaterThan(1700);
    await page.click(`${row} [data-action="extend"]`);
    await typeInto(page, 'dialog.modal [name="minutes"]', '10');
    await typeInto(page, 'dialog.modal [name="reason"]', 'Seat 14 computer restarted');
    await shot('monitor-extend-dialog');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForFunction(({ r, b }) => Number(document.querySelector(`${r} [data-field="remaining"]`)?.getAttribute('data-seconds')) >= b + 590, { r: row, b: before }, { timeout: 3000 });
    const summary = (await keyed().get(`/exams/${examId}/attempts`)).body.find((a: { attemptId: string }) => a.attemptId === writerAttemptId);
    expect(summary.extraSeconds).toBe(600);
    const audit = (await keyed().get('/workspaces/me/audit')).body;
    expect(audit.some((e: { reason: string; targetId: string }) => e.reason === 'Seat 14 computer restarted' && e.targetId === writerAttemptId)).toBe(true);
  }, STEP_MS);

  it('alerts on a disqualification and reinstates the candidate; pauses and resumes the exam', async () => {
    const chidi = roster.find((r) => r.studentId === 'STU-003')!;
    const start = await api(server.baseUrl).post('/attempts/start', { accessCode, studentId: chidi.studentId, candidateName: chidi.candidateName, candidatePin: chidi.pin });
    const id = start.body.attemptId;
    for (let i = 0; i < 3; i++) await api(server.baseUrl).post(`/attempts/${id}/telemetry`, { type: 'TAB_SWITCH', meta: { action: 'window_blur' } });
    const row = `#monitor-table tr[data-attempt-id="${id}"]`;
    await page.waitForSelector(`${row}[data-status="DISQUALIFIED"]`, { timeout: 3000 });
    await page.waitForSelector(`#monitor-alerts .alert[data-kind="disqualified"][data-attempt-id="${id}"]`);
    expect(await page.textContent(`${row} [data-field="violations"]`)).toBe('3/2');
    await shot('monitor');

    await page.click(`${row} [data-action="reinstate"]`);
    await typeInto(page, 'dialog.modal [name="reason"]', 'Invigilator saw a power flicker, not cheating');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForSelector(`${row}[data-status="IN_PROGRESS"]`, { timeout: 3000 });
    expect(await page.textContent(`${row} [data-field="violations"]`)).toBe('0/2');
    const again = await api(server.baseUrl).post(`/attempts/${id}/telemetry`, { type: 'NETWORK_ONLINE' });
    expect(again.body.status).toBe('IN_PROGRESS');

    await page.click('#pause-exam');
    await typeInto(page, 'dialog.modal [name="reason"]', 'Power cut in the hall');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForSelector('#paused-banner:not([hidden])');
    expect((await keyed().get(`/exams/${examId}`)).body.isPaused).toBe(true);
    await page.click('#pause-exam');
    await typeInto(page, 'dialog.modal [name="reason"]', 'Power back');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForSelector('#paused-banner[hidden]', { state: 'attached' });
    expect((await keyed().get(`/exams/${examId}`)).body.isPaused).toBe(false);

    await page.click(`${row} [data-action="force-submit"]`);
    await typeInto(page, 'dialog.modal [name="reason"]', 'Left the hall early');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForSelector(`${row}[data-status="COMPLETED"]`, { timeout: 3000 });
  }, STEP_MS);

  it('lists results with grades and prints a result slip', async () => {
    const submit = await api(server.baseUrl).post(`/attempts/${writerAttemptId}/submit`, {});
    expect(submit.status, JSON.stringify(submit.body)).toBe(200);
    await page.click('[data-tab="results"]');
    const row = `#results-table tr[data-attempt-id="${writerAttemptId}"]`;
    await page.waitForSelector(row);
    await page.waitForSelector('#analysis-table');
    const analysis = (await keyed().get(`/exams/${examId}/analysis`)).body;
    expect(analysis.candidates).toBe(2);
    const firstFacility = await page.textContent(`#analysis-table tr[data-question-id="${questionIds[0]}"] [data-field="facility"]`);
    expect(Number(firstFacility)).toBeCloseTo(analysis.questions.find((q: { questionId: string }) => q.questionId === questionIds[0]).facilityIndex, 2);
    const attempts = (await keyed().get(`/exams/${examId}/attempts`)).body;
    const mine = attempts.find((a: { attemptId: string }) => a.attemptId === writerAttemptId);
    // essays not marked yet: every figure is tagged provisional (issue 20)
    expect(await page.textContent(`${row} [data-field="grade"]`)).toBe(`${mine.grade}provisional`);
    expect(await page.textContent(`${row} [data-field="percentage"]`)).toBe(`${mine.percentage}%provisional`);
    expect(await page.locator(`${row} .provisional`).count()).toBe(3);
    expect(mine.score).toBe(2);
    expect(mine.pendingReview).toBe(true);
    expect(await page.textContent(`${row} [data-field="pending-review"]`)).toBe('Essays to review');
    await shot('results');

    await page.click(`${row} [data-action="slip"]`);
    await page.waitForSelector('dialog.modal .result-slip');
    expect(await page.textContent('dialog.modal .result-slip .slip-name')).toBe('Bola Adeyemi');
    expect(await page.textContent('dialog.modal .result-slip .slip-grade')).toBe(`${mine.grade} (provisional)`);
    await shot('result-slip');
    await page.evaluate(() => { window.print = () => undefined; });
    await page.click('dialog.modal button[type="submit"]');
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.isVisible('#print-area .result-slip')).toBe(true);
      expect(await page.textContent('#print-area .result-slip .slip-score')).toBe(`${mine.score} / ${mine.maxScore} (provisional)`);
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }

  }, STEP_MS);

  it('downloads the results .xlsx from the results screen and reads it back with exceljs', async (ctx) => {
    const probe = await keyed().get(`/exams/${examId}/results.xlsx`);
    if (probe.status === 404) {
      ctx.skip(); // the export route comes with the spreadsheet issue
      return;
    }
    const mine = (await keyed().get(`/exams/${examId}/attempts`)).body.find((a: { attemptId: string }) => a.attemptId === writerAttemptId);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-xlsx')]);
    const file = join(ARTIFACTS, 'admin-results.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const sheet = wb.worksheets[0]!;
    const rows: string[][] = [];
    sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    const bolaRow = rows.find((r) => r.includes('STU-002'));
    expect(bolaRow).toBeDefined();
    expect(bolaRow).toContain('Bola Adeyemi');
    expect(bolaRow).toContain(String(mine.grade));
    expect(rows.some((r) => r.includes('STU-003'))).toBe(true);
  }, STEP_MS);

  it('reviews the essay: recommends a rubric score, the examiner adjusts and approves it, the attempt is re-graded', async () => {
    await page.click('[data-tab="review"]');
    const item = `.review-item[data-attempt-id="${writerAttemptId}"][data-question-id="${questionIds[3]}"]`;
    await page.waitForSelector(item);
    expect(await page.textContent(`${item} .essay-answer`)).toContain('Both even contradicts lowest terms');
    await page.click(`${item} [data-action="recommend"]`);
    await page.waitForFunction((sel) => Array.from(document.querySelectorAll(`${sel} input.criterion-score`)).every((i) => (i as HTMLInputElement).value !== ''), item);
    const recommended = await page.$$eval(`${item} input.criterion-score`, (els) => els.map((e) => Number((e as HTMLInputElement).value)));
    expect(recommended).toHaveLength(4);
    await typeInto(page, `${item} input.criterion-score >> nth=0`, '4'); // full marks for method
    await shot('essay-review');
    await page.click(`${item} [data-action="approve"]`);
    await page.waitForSelector(item, { state: 'detached' });
    const after = (await keyed().get(`/exams/${examId}/attempts`)).body.find((a: { attemptId: string }) => a.attemptId === writerAttemptId);
    const expected = 2 + 4 + recommended.slice(1).reduce((a, b) => a + b, 0);
    expect(after).toMatchObject({ pendingReview: false, score: expected });
    // marked: the results no longer call the grade provisional
    await page.click('[data-tab="results"]');
    await page.waitForFunction(([id, grade]) => document.querySelector(`#results-table tr[data-attempt-id="${id}"] [data-field="grade"]`)?.textContent === grade, [writerAttemptId, after.grade]);
    expect(await page.locator(`#results-table tr[data-attempt-id="${writerAttemptId}"] .provisional`).count()).toBe(0);
    const audit = (await keyed().get('/workspaces/me/audit')).body;
    expect(audit.some((e: { targetId: string; action: string }) => e.targetId === writerAttemptId && /essay|score|regrad/i.test(e.action))).toBe(true);
  }, STEP_MS);


  it('shows webhook deliveries with redelivery, edits the URL and rotates the secret once', async () => {
    await waitFor(() => receiver.received.length >= 3, 15_000); // two completions, one disqualification
    await hash('#/deliveries');
    await page.waitForSelector('#delivery-filter');
    await page.selectOption('#delivery-filter', 'all');
    await page.waitForFunction(() => document.querySelectorAll('#delivery-table tr[data-status="delivered"]').length >= 3);
    const first = await page.getAttribute('#delivery-table tr[data-status="delivered"]', 'data-event-id');
    const deliveredBefore = receiver.received.length;
    await page.click(`#delivery-table tr[data-event-id="${first}"] [data-action="redeliver"]`);
    await waitFor(() => receiver.received.length > deliveredBefore, 10_000);
    expect(receiver.received.at(-1)!.headers['x-cbt-delivery']).toBe(first);

    await page.click('#rotate-secret');
    await page.click('dialog.modal button[type="submit"]');
    const rotated = (await page.textContent('#new-webhook-secret'))!.trim();
    expect(rotated.length).toBeGreaterThan(16);
    expect(rotated).not.toBe(webhookSecret);
    await shot('deliveries');

    await typeInto(page, '#webhook-url-form [name="webhookUrl"]', `${receiver.url}?v=2`);
    await page.click('#webhook-url-form button[type="submit"]');
    await waitFor(async () => (await keyed().get('/workspaces/me')).body.webhookUrl === `${receiver.url}?v=2`, 3000);
    // after a reload the secret is no longer on screen
    await page.reload();
    await page.waitForSelector('#delivery-filter');
    expect(await page.$('#new-webhook-secret')).toBeNull();
  }, STEP_MS);


  it('keeps the live monitor going through a Wi-Fi drop: the stream reconnects and later starts still appear', async () => {
    // a loopback TCP relay stands in for the hall Wi-Fi: cutting its sockets drops every connection
    const sockets = new Set<Socket>();
    const port = Number(new URL(server.baseUrl).port);
    const relay = createServer((client) => {
      const upstream = connect(port, '127.0.0.1');
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
    const via = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
    const tab = await context.newPage();
    try {
      await openMonitor(tab, via);
      for (const s of sockets) s.destroy();
      await tab.waitForFunction(() => document.querySelector('#monitor-connection')?.textContent?.startsWith('Reconnecting'), null, { timeout: 5000 });
      await tab.waitForFunction(() => document.querySelector('#monitor-connection')?.textContent === '● Live', null, { timeout: 10_000 });
      const ada = roster.find((r) => r.studentId === 'STU-001')!;
      const start = await api(server.baseUrl).post('/attempts/start', { accessCode, studentId: ada.studentId, candidateName: ada.candidateName, candidatePin: ada.pin });
      expect(start.status).toBe(200);
      await tab.waitForSelector(`#monitor-table tr[data-attempt-id="${start.body.attemptId}"]`, { timeout: 2000 });
    } finally {
      await tab.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => relay.close(() => r()));
    }
    expect(pageErrors).toEqual([]);
  }, STEP_MS);
});
