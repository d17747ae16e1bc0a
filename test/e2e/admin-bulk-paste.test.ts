/**
 * The admin page's bulk-paste box with a pasted paper (issue 21, part 1), in real headless
 * Chromium against the real app on loopback: an examiner types the start of a paper, pastes
 * the rest as copied from a website (numbered questions, "Ans:" and "Solution:" lines, a
 * stray line and page furniture), presses Check and sees the per-line warnings, imports,
 * and the stored questions have clean prompts and the solutions as explanations. A paste
 * with no answers at all is reported as importing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT, api, createExam, launchBrowser, registerWorkspace, startTestServer, type TestServer } from '../harness.js';

let server: TestServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const TYPED = '1. If 2^(x+1) = 32, find x.\nA. 3\nB. 4\nC. 5\nD. 6\nAns: B\n';
const PASTED = [
  'Solution: 2^(x+1) = 2^5, so x + 1 = 5',
  'and x = 4.',
  '',
  'Page 1 of 2',
  '',
  '2. Simplify (x^2 - 9)/(x - 3).',
  'A. x - 3',
  'B. x + 3',
  'C. 3x',
  '',
  'See the figure below',
  'Answer: B',
  'Working:',
  'x^2 - 9 = (x - 3)(x + 3)',
  '',
].join('\n');

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs` (npm test does it in pretest)');
  server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('admin page: bulk paste of a pasted paper', () => {
  it('checks a typed-and-pasted paper, shows the lines it could not place, and imports clean prompts with solutions', async () => {
    const ws = await registerWorkspace(server.baseUrl);
    const exam = await createExam(server.baseUrl, ws.apiKey, ws.id, { title: 'SS3 Mathematics' });
    await page.goto(`${server.baseUrl}/admin`);
    await page.click('[data-tab="key"]');
    await page.click('#signin-key [name="apiKey"]');
    await page.keyboard.type(ws.apiKey);
    await page.click('#signin-key button[type="submit"]');
    await page.waitForSelector('#new-exam');
    await page.evaluate((id) => (location.hash = `#/exams/${encodeURIComponent(id)}`), exam.id);
    await page.click('[data-tab="questions"]');
    await page.click('#open-bulk');
    await page.click('#bulk-text');
    await page.keyboard.type(TYPED);
    await page.keyboard.insertText(PASTED); // a paste arrives as one insertion
    expect(await page.inputValue('#bulk-text')).toBe(TYPED + PASTED);

    await page.click('#bulk-check-btn');
    await page.waitForSelector('#bulk-check p');
    const report = (await page.textContent('#bulk-check'))!;
    expect(report).toContain('2 questions recognised (pasted-paper).');
    const warnings = await page.$$eval('#bulk-check .notice li', (els) => els.map((e) => e.textContent));
    expect(warnings).toEqual([
      'line 10: Line 10 "Page 1 of 2" was left out as page furniture.',
      'line 17: Line 17 "See the figure below" follows the options of question 2 after a blank line and is neither an option nor an answer; it was left out.',
    ]);
    // the preview shows the prompts without their numbers
    const previewPrompts = await page.$$eval('#bulk-check .bulk-preview .q-prompt', (els) => els.map((e) => e.textContent!.trim()));
    expect(previewPrompts[0]).toMatch(/^If 2/);
    expect(previewPrompts[1]).toMatch(/^Simplify/);
    expect(await api(server.baseUrl, ws.apiKey).get(`/exams/${exam.id}`).then((r) => r.body.questions)).toHaveLength(0);

    await page.click('#bulk-import');
    await page.waitForFunction(() => document.querySelectorAll('.question-item').length === 2);
    const qs = (await api(server.baseUrl, ws.apiKey).get(`/exams/${exam.id}`)).body.questions as { prompt: string; explanation: string; options: { isCorrect: boolean; keyLabel: string }[] }[];
    expect(qs.map((q) => q.prompt)).toEqual(['If 2^(x+1) = 32, find x.', 'Simplify (x^2 - 9)/(x - 3).']);
    expect(qs.map((q) => q.explanation)).toEqual(['2^(x+1) = 2^5, so x + 1 = 5\nand x = 4.', 'x^2 - 9 = (x - 3)(x + 3)']);
    expect(qs.map((q) => q.options.find((o) => o.isCorrect)!.keyLabel)).toEqual(['B', 'B']);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('says so when a paste holds nothing importable', async () => {
    await page.click('#open-bulk');
    await page.click('#bulk-text');
    await page.keyboard.insertText('1. Which planet is closest to the sun?\nA. Venus\nB. Mercury\n\n2. What is 6 x 7?\nA. 42\nB. 36\n');
    await page.click('#bulk-check-btn');
    await page.waitForSelector('#bulk-check p.warn');
    expect(await page.textContent('#bulk-check p.warn')).toBe('0 questions recognised (pasted-paper), 3 problems.');
    const errors = await page.$$eval('#bulk-check .error-list li', (els) => els.map((e) => e.textContent));
    expect(errors[0]).toBe('No importable questions were found in the pasted-paper text.');
    expect(errors[1]).toBe('line 1: missing answer: question 1 has no answer line and no answer key entry');
  }, 60_000);
});
