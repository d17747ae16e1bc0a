/**
 * The candidate's calculator in real Chromium at 1024×768 (issue 37 item 7): Alt+C opens it
 * beside the question (never over it), `2.5*(3+4)` Enter gives 17.5 and `sin 30` gives 0.5
 * by keyboard without a key reaching the exam's shortcuts (its script and stylesheet fetched
 * only for an exam that has one), the mouse works too, Escape
 * closes it; an essay typed key by key (shortcut letters and Alt+C included) opens
 * nothing; an exam without a calculator shows no button; the admin page's exam form sets
 * and shows the setting; after a reload with the server unreachable, the service worker's
 * copy of the calculator still works. The screenshot goes to
 * docs/screenshots/candidate-calculator-1024.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, registerWorkspace, ROOT, spawnServer, type TestServer } from '../harness.js';
import { openPage, pageSuite, seedExam, signInAndStart, waitAllSaved } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started));

const SHOTS = join(ROOT, 'docs', 'screenshots');
const QUESTIONS = [
  { prompt: 'A car moves at $15\\,\\text{m s}^{-1}$ for $2.5\\,\\text{s}$, then $20\\,\\text{m s}^{-1}$ for $4\\,\\text{s}$. Which is the distance covered at the higher speed?', type: 'MCQ', marks: 1, options: [{ text: '80 m', isCorrect: true }, { text: '37.5 m', isCorrect: false }, { text: '117.5 m', isCorrect: false }, { text: '50 m', isCorrect: false }] },
  { prompt: 'Explain how you would calculate the force on a 3 kg mass accelerating at $2\\,\\text{m s}^{-2}$.', type: 'SHORT_ESSAY', marks: 2 },
];

const shown = (page: Page) => page.evaluate(() => ({ value: document.getElementById('calc-value')?.textContent, expression: document.getElementById('calc-expr')?.textContent }));
const calculatorOpen = (page: Page) => page.evaluate(() => { const c = document.getElementById('calculator'); return !!c && !c.hidden; });

describe('candidate page: calculator', () => {
  it('opens with Alt+C beside the question, computes by keyboard and mouse, and closes with Escape (1024×768)', async () => {
    const seeded = await seedExam(server.baseUrl, QUESTIONS, { calculator: 'scientific', title: 'Physics mock' });
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: { width: 1024, height: 768 } });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Ada Obi', studentId: 'CALC-E1', pin: '1234' });
    expect(await page.textContent('#calc-open')).toBe('Calculator');
    // its own script and stylesheet, fetched at the start of an exam that has a calculator
    expect(fetched.filter((p) => /^\/candidate\/calculator\.[0-9a-f]{10}\.(js|css)$/.test(p)).length).toBe(2);
    expect(await page.textContent('footer.shortcuts')).toContain('Alt+C calculator');
    expect(await calculatorOpen(page)).toBe(false);

    await page.keyboard.press('Alt+KeyC');
    await page.waitForSelector('#calculator:not([hidden])');
    expect(await page.evaluate(() => document.activeElement && document.activeElement.id)).toBe('calculator');
    await page.keyboard.type('2.5*(3+4)');
    await page.keyboard.press('Enter');
    expect(await shown(page)).toEqual({ expression: '2.5×(3+4) =', value: '17.5' });
    // the digits went to the calculator alone: no option was chosen by the 1–9 shortcuts, no question left
    expect(await page.locator('label.option.chosen').count()).toBe(0);
    expect(await page.textContent('#q-title')).toContain('Question 1');

    // sin 30, in degrees, by keyboard: s is sin
    await page.keyboard.type('s30');
    await page.keyboard.press('Enter');
    expect(await shown(page)).toEqual({ expression: 'sin(30) =', value: '0.5' });

    // the panel leaves the question uncovered
    const panel = (await page.locator('#calculator').boundingBox())!;
    const question = (await page.locator('#main').boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(question.x + question.width);
    expect(panel.y + panel.height).toBeLessThanOrEqual(768);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'candidate-calculator-1024.png') });

    await page.keyboard.press('Escape');
    expect(await calculatorOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement && document.activeElement.id)).toBe('calc-open');

    // by mouse: 7 × 6 = 42, then M+, C, MR; the close button
    await page.click('#calc-open');
    await page.waitForSelector('#calculator:not([hidden])');
    for (const key of ['C', '7', '×', '6', '=']) await page.click(`#calculator button[data-key="${key}"]`);
    expect((await shown(page)).value).toBe('42');
    for (const key of ['M+', 'C', 'MR', '÷', '0', '=']) await page.click(`#calculator button[data-key="${key}"]`);
    expect(await shown(page)).toEqual({ expression: '42÷0', value: 'Cannot divide by zero' });
    expect(await page.isVisible('#calc-mem')).toBe(true);
    await page.click('#calculator .calc-close');
    expect(await calculatorOpen(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('never opens while the candidate types an essay key by key', async () => {
    const seeded = await seedExam(server.baseUrl, QUESTIONS, { calculator: 'basic' });
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: { width: 1024, height: 768 } });
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Bola Ade', studentId: 'CALC-E2', pin: '1234' });
    await page.click('.nav-q[data-index="1"]');
    await page.waitForSelector('#essay');
    await page.click('#essay');
    const text = 'Calculate F = ma: c, C, n, p, f, 1 and 2 are just letters; 3 kg × 2 = 6 N. (Press C to calculate.)';
    await page.keyboard.type(text);
    await page.keyboard.press('Alt+KeyC');
    await page.keyboard.type(' Done.');
    expect(await page.inputValue('#essay')).toBe(text + ' Done.');
    expect(await calculatorOpen(page)).toBe(false);
    expect(await page.textContent('#q-title')).toContain('Question 2');
    // out of the essay, the key opens it
    await page.click('#q-title');
    await page.keyboard.press('Alt+KeyC');
    await page.waitForSelector('#calculator:not([hidden])');
    // the basic calculator has no sin: s does nothing there
    await page.keyboard.type('s9-4');
    await page.keyboard.press('Enter');
    expect(await shown(page)).toEqual({ expression: '9−4 =', value: '5' });
    expect(await page.locator('#calculator button[data-key="sin"]').count()).toBe(0);
    await page.keyboard.press('Alt+KeyC');
    expect(await calculatorOpen(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows no calculator when the exam has none', async () => {
    const seeded = await seedExam(server.baseUrl, QUESTIONS);
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: { width: 1024, height: 768 } });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Chidi Eze', studentId: 'CALC-E3', pin: '1234' });
    await page.waitForTimeout(500);
    expect(await page.locator('#calc-open').count()).toBe(0);
    // the calculator's script and stylesheet are fetched only for an exam that has one
    expect(fetched.filter((p) => p.indexOf('/candidate/calculator.') === 0)).toEqual([]);
    await page.keyboard.press('Alt+KeyC');
    expect(await page.locator('#calculator').count()).toBe(0);
    expect(await page.textContent('footer.shortcuts')).not.toContain('calculator');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('admin page: the exam form’s calculator', () => {
  it('creates an exam with a scientific calculator and changes it to basic in the settings', async () => {
    const { apiKey } = await registerWorkspace(server.baseUrl);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin`);
    await page.click('[data-tab="key"]');
    await page.click('#signin-key [name="apiKey"]');
    await page.keyboard.type(apiKey);
    await page.click('#signin-key button[type="submit"]');
    await page.waitForSelector('#new-exam');
    await page.click('#new-exam');
    await page.click('#new-exam-form [name="title"]');
    await page.keyboard.type('Further maths mock');
    expect(await page.inputValue('#new-exam-form [name="calculator"]')).toBe('none');
    await page.selectOption('#new-exam-form [name="calculator"]', 'scientific');
    await page.click('#new-exam-form button[type="submit"]');
    await page.waitForSelector('#tab-questions');
    const examId = decodeURIComponent(/#\/exams\/([^/]+)/.exec(page.url())![1]!);
    expect((await api(server.baseUrl, apiKey).get(`/exams/${examId}`)).body.calculator).toBe('scientific');

    await page.evaluate((id) => (location.hash = `#/exams/${id}/settings`), examId);
    await page.waitForSelector('#exam-settings-form');
    expect(await page.inputValue('#exam-settings-form [name="calculator"]')).toBe('scientific');
    await page.selectOption('#exam-settings-form [name="calculator"]', 'basic');
    await page.click('#exam-settings-form button[type="submit"]');
    await expect.poll(async () => (await api(server.baseUrl, apiKey).get(`/exams/${examId}`)).body.calculator).toBe('basic');
    await context.close();
  });
});

describe('candidate page: the calculator offline', () => {
  it('is still there after a reload while the server is unreachable (the service worker kept its files)', async () => {
    const spawned = await spawnServer();
    try {
      const seeded = await seedExam(spawned.baseUrl, QUESTIONS, { calculator: 'scientific' });
      const { page, context, errors } = await openPage(browser, spawned.baseUrl);
      await page.waitForFunction(async () => !!(await navigator.serviceWorker.ready).active);
      await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Tunde Bakare', studentId: 'CALC-OFF', pin: '1234' });
      await page.waitForSelector('#calc-open');
      await page.keyboard.press('a');
      await waitAllSaved(page);
      await spawned.stop();
      // the browser's own cache off (it would hand back the immutable files itself): the worker must have them
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await page.reload();
      await page.waitForSelector('section.question', { timeout: 15_000 });
      await page.waitForSelector('#calc-open');
      await page.click('#q-title');
      await page.keyboard.press('Alt+KeyC');
      await page.waitForSelector('#calculator:not([hidden])');
      await page.keyboard.type('3^2+4^2');
      await page.keyboard.press('Enter');
      expect(await shown(page)).toEqual({ expression: '3^2+4^2 =', value: '25' });
      expect(errors.filter((e) => !/Failed to fetch|NetworkError|network/i.test(e))).toEqual([]);
      await context.close();
    } finally {
      await spawned.stop().catch(() => undefined);
    }
  }, 90_000);
});
