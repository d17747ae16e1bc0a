/**
 * Issue 36 items 6, 7 and 9 on the admin page, in real Chromium at 1024×768: the results
 * table fits with every action reachable; "Print all result slips" prints one slip per
 * candidate, one per page, with the question Markdown rendered; "Recommend a score" keeps
 * the engine's notes for the examiner apart from the candidate's comment; a pasted paper
 * with one broken question imports its valid questions from the check, after asking, since
 * the exam already has submitted attempts. Screenshots go to docs/screenshots/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, addQuestions, api, createExam, launchBrowser, registerWorkspace, startAttempt, startTestServer, type TestServer } from '../harness.js';

const SHOTS = join(ROOT, 'docs', 'screenshots');
let server: TestServer;
let browser: Browser;
let page: Page;
let apiKey = '';
let examId = '';
const NAMES = ['Oluwaseun Adebayo-Williams', 'Chiamaka Nwachukwu-Okonkwo', 'Abubakar Muhammad Sani'];
const LONG_PROMPT = `**1.** ${'Read the passage about the school inter-house sports carefully before you answer. '.repeat(2)}Which word in the passage means *happy*?`;
const PAPER = '1. What is two plus two?\nA. 3\nB. 4\nC. 5\nAnswer: B\n\n2. Which of these shapes is a triangle?\nA.\nB.\nC.\nAnswer: A\n\n3. What is the capital of Nigeria?\nA. Lagos\nB. Abuja\nC. Kano\nAnswer: B\n';

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs`');
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ jobs: true, config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  const ws = await registerWorkspace(server.baseUrl);
  apiKey = ws.apiKey;
  const key = api(server.baseUrl, apiKey);
  const exam = await createExam(server.baseUrl, apiKey, ws.id, { title: 'SS3 English Language mock (second term)' });
  examId = exam.id;
  const qs = await addQuestions(server.baseUrl, apiKey, ws.id, examId, [
    { type: 'MCQ', prompt: LONG_PROMPT, marks: 1, options: [{ text: 'glad', isCorrect: true }, { text: 'tired', isCorrect: false }, { text: 'angry', isCorrect: false }] },
    {
      type: 'LONG_ESSAY', prompt: 'Write a letter to your principal about the **sports day**.', marks: 10,
      modelAnswer: 'A formal letter with the address, the date, a salutation, a body giving the timetable of the sports day, and a subscript.',
      rubric: { name: 'Letter', totalMarks: 10, criteria: [{ title: 'Format: address, date, salutation', maxMarks: 4 }, { title: 'Content: body with the timetable', maxMarks: 6 }] },
    },
  ]);
  const roster = await key.post(`/exams/${examId}/roster`, { candidates: [...NAMES, 'Absent Candidate'].map((n, i) => ({ studentId: `SS3-00${i + 1}`, candidateName: n })) });
  const pins = roster.body.candidates as { studentId: string; pin: string }[];
  for (const [i, name] of NAMES.entries()) {
    const id = `SS3-00${i + 1}`;
    const a = await startAttempt(server.baseUrl, exam.accessCode, id, pins.find((p) => p.studentId === id)!.pin, name);
    const mcq = a.questions.find((q) => q.type === 'MCQ')!;
    await api(server.baseUrl).put(`/attempts/${a.attemptId}/answers/${mcq.id}`, { optionId: mcq.options.find((o) => o.id === qs[0]!.options[i % 2]!.id)!.id });
    const essay = a.questions.find((q) => q.type !== 'MCQ')!;
    await api(server.baseUrl).put(`/attempts/${a.attemptId}/answers/${essay.id}`, { text: 'Dear Sir, I write about the sports day. We will run races and jump. Thank you. Yours faithfully, a student.' });
    expect((await api(server.baseUrl).post(`/attempts/${a.attemptId}/submit`, {})).status).toBe(200);
  }
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB' })).newPage();
  await page.goto(`${server.baseUrl}/admin`);
  await page.click('[data-tab="key"]');
  await page.click('#signin-key [name="apiKey"]');
  await page.keyboard.type(apiKey);
  await page.click('#signin-key button[type="submit"]');
  await page.waitForSelector('#new-exam');
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const go = async (tab: string, ready: string) => {
  await page.evaluate((h) => (location.hash = h), `#/exams/${encodeURIComponent(examId)}/${tab}`);
  await page.waitForSelector(ready);
};

describe('results at 1024×768', () => {
  it('the results table has no sideways scroll and every action is on screen', async () => {
    await go('results', '#results-table');
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    await page.screenshot({ path: join(SHOTS, 'results-1024x768.png') });
    const fit = await page.evaluate(() => {
      const doc = document.scrollingElement!;
      const box = document.getElementById('results-table')!.parentElement!;
      return { doc: [doc.scrollWidth, doc.clientWidth], box: [box.scrollWidth, box.clientWidth] };
    });
    expect(fit.doc[0]).toBeLessThanOrEqual(fit.doc[1]!);
    expect(fit.box[0]).toBeLessThanOrEqual(fit.box[1]!);
    const actions = await page.$$('#results-table [data-action="slip"], #print-all-slips, #download-csv, #download-xlsx');
    expect(actions.length).toBe(NAMES.length + 3);
    for (const a of actions) {
      const b = (await a.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(1024);
    }
  });

  it('"Print all result slips" prints one slip per candidate, one per page, with the Markdown rendered', async () => {
    await page.evaluate(() => { window.print = () => undefined; });
    await page.click('#print-all-slips');
    await page.waitForFunction((n) => document.querySelectorAll('#print-area .result-slip').length === n, NAMES.length);
    await page.emulateMedia({ media: 'print' });
    try {
      const slips = await page.$$eval('#print-area .result-slip', (els) => els.map((e) => ({
        name: e.querySelector('.slip-name')?.textContent,
        breakAfter: getComputedStyle(e).breakAfter,
        raw: (e.querySelector('.slip-prompt')?.textContent ?? '').includes('**'),
        bold: e.querySelectorAll('.slip-prompt strong').length,
        visible: (e as HTMLElement).offsetHeight > 0,
      })));
      expect(slips.map((s) => s.name).sort()).toEqual([...NAMES].sort());
      // one slip per page: a page break after every slip but the last (no blank last page)
      slips.forEach((s, i) => expect(s).toMatchObject({ breakAfter: i < slips.length - 1 ? 'page' : 'auto', raw: false, visible: true }));
      expect(slips.every((s) => s.bold >= 2)).toBe(true);
      const pdf = await page.pdf({ format: 'A4' });
      expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g)?.length).toBe(NAMES.length);
      await page.setViewportSize({ width: 794, height: 1123 });
      await page.screenshot({ path: join(SHOTS, 'result-slip-print.png') });
    } finally {
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.emulateMedia({ media: 'screen' });
    }
  });
});

describe('essay review', () => {
  it('"Recommend a score" fills the scores, shows the engine’s notes to the examiner and leaves the candidate’s comment empty', async () => {
    await go('review', '.review-item');
    const item = '.review-item >> nth=0';
    await page.click(`${item} >> [data-action="recommend"]`);
    await page.waitForSelector('.review-item .engine-notes');
    const first = page.locator('.review-item').first();
    expect(await first.locator('textarea[name="feedback"]').inputValue()).toBe('');
    for (const v of await first.locator('input.criterion-feedback').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))) expect(v).toBe('');
    const scores = await first.locator('input.criterion-score').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(scores.every((v) => v !== '')).toBe(true);
    const notes = (await first.locator('.engine-notes').textContent())!;
    expect(notes).toMatch(/Notes for the examiner/);
    expect(notes).toMatch(/add /);
  });
});

describe('importing the valid questions of a pasted paper', () => {
  it('offers to import the valid ones, lists the invalid by line, and asks first because attempts are submitted', async () => {
    await go('questions', '#open-bulk');
    await page.click('#open-bulk');
    await page.click('#bulk-text');
    await page.keyboard.insertText(PAPER);
    await page.click('#bulk-check-btn');
    await page.waitForSelector('#bulk-import-valid');
    expect(await page.textContent('#bulk-import-valid')).toBe('Import the 2 valid questions');
    expect((await page.$$eval('#bulk-check .error-list li', (els) => els.map((e) => e.textContent))).every((t) => t!.startsWith('line 7: '))).toBe(true);
    await page.click('#bulk-import-valid');
    await page.waitForSelector('dialog.modal');
    expect(await page.textContent('dialog.modal')).toMatch(/3 submitted attempts.*keep the score/s);
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('.question-item').length === 4);
    const prompts = ((await api(server.baseUrl, apiKey).get(`/exams/${examId}`)).body.questions as { prompt: string }[]).map((q) => q.prompt);
    expect(prompts.slice(2)).toEqual(['What is two plus two?', 'What is the capital of Nigeria?']);
  });
});

describe('adding one question in the editor to an exam already taken', () => {
  it('asks first: Cancel stores nothing, confirming stores the question', async () => {
    await go('questions', '#add-question');
    const count = async () => ((await api(server.baseUrl, apiKey).get(`/exams/${examId}`)).body.questions as unknown[]).length;
    const before = await count();
    await page.click('#add-question');
    await page.waitForSelector('#options-editor');
    await page.click('#q-prompt');
    await page.keyboard.type('Which word is a verb?');
    for (const [i, text] of ['run', 'table', 'green', 'slowly'].entries()) {
      await page.click(`#options-editor input.option-text[data-option="${i}"]`);
      await page.keyboard.type(text);
    }
    await page.check('#options-editor input.option-correct[data-option="0"]');
    await page.click('#save-question');
    await page.waitForSelector('dialog.modal');
    expect(await page.textContent('dialog.modal')).toMatch(/3 submitted attempts.*keep the score/s);
    await page.click('dialog.modal button[data-action="cancel"]');
    await page.waitForSelector('dialog.modal', { state: 'detached' });
    expect(await count()).toBe(before);
    await page.click('#save-question');
    await page.waitForSelector('dialog.modal');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForFunction((n) => document.querySelectorAll('.question-item').length === n, before + 1);
    expect(await count()).toBe(before + 1);
  });
});
