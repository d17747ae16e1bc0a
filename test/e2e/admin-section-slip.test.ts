/**
 * The result slip of a JAMB-style sitting (issue 37 item 5) in real Chromium: "Print all
 * result slips" shows each candidate's score per section, and lists only the questions the
 * candidate was given (a section's draw), not the whole paper.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, addQuestions, api, createExam, launchBrowser, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let examId = '';
let given = 0;
let expected: { section: string; score: number; maxScore: number }[] = [];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs`');
  server = await startTestServer();
  const ws = await registerWorkspace(server.baseUrl);
  const exam = await createExam(server.baseUrl, ws.apiKey, ws.id, { title: 'UTME mock', sections: [{ name: 'Use of English', draw: 2 }, { name: 'Physics', draw: 1 }] });
  examId = exam.id;
  const make = (section: string, n: number) => sampleMcqs(n).map((q, i) => ({ ...q, prompt: `${section} question ${i + 1}`, section }));
  await addQuestions(server.baseUrl, ws.apiKey, ws.id, examId, [...make('Use of English', 4), ...make('Physics', 3)]);
  const a = await startAttempt(server.baseUrl, exam.accessCode, 'UTME-1');
  given = a.questions.length;
  // the first given question right (option A is the key), the rest wrong
  const answers = a.questions.map((q, i) => ({ questionId: q.id, optionId: q.options.find((o) => o.text.startsWith(i === 0 ? 'A:' : 'B:'))!.id }));
  const done = await api(server.baseUrl).post(`/attempts/${a.attemptId}/submit`, { answers });
  expected = done.body.sectionScores;
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB' })).newPage();
  await page.goto(`${server.baseUrl}/admin`);
  await page.click('[data-tab="key"]');
  await page.click('#signin-key [name="apiKey"]');
  await page.keyboard.type(ws.apiKey);
  await page.click('#signin-key button[type="submit"]');
  await page.waitForSelector('#new-exam');
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('result slip of an exam with sections', () => {
  it('shows the score of each section and only the questions the candidate was given', async () => {
    expect(expected).toEqual([{ section: 'Use of English', score: 1, maxScore: 2 }, { section: 'Physics', score: 0, maxScore: 1 }]);
    await page.evaluate((h) => (location.hash = h), `#/exams/${encodeURIComponent(examId)}/results`);
    await page.waitForSelector('#results-table');
    await page.evaluate(() => { window.print = () => undefined; });
    await page.click('#print-all-slips');
    await page.waitForSelector('#print-area .result-slip', { state: 'attached' });
    const slip = await page.$eval('#print-area .result-slip', (e) => ({
      sections: [...e.querySelectorAll('.slip-sections tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      questions: e.querySelectorAll('.slip-prompt').length,
    }));
    expect(slip.sections).toEqual([['Use of English', '1 / 2'], ['Physics', '0 / 1']]);
    expect(slip.questions).toBe(given);
    expect(given).toBe(3);
  });
});
