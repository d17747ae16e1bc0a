/**
 * The candidate page in real Chromium against the real app (issue 4): Markdown, LaTeX
 * and <sup>/<sub> render safely (also without the newer built-ins that Chrome 80 lacks),
 * a reload or another PC resumes the same question order and answers, three tab
 * switches with a limit of 2 lock the page (and a reinstatement reopens it), and the
 * layout holds at phone width and 200 % zoom.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, type TestServer } from '../harness.js';
import { currentAttemptId, openPage, practicePaper, questionOrder, seedExam, shot, signInAndStart, waitAllSaved, fillSignIn, pageSuite, typeInto } from './candidate-helpers.js';
import { allowCspReports, PARSED_INLINE_HANDLER } from '../csp-guard.js';

// CSP: a question's prompt carries <img onerror>, which the sanitiser parses when the question is shown (nothing runs: the test checks window.__xss)
allowCspReports(PARSED_INLINE_HANDLER, 'a question\'s prompt carries <img onerror>, which the sanitiser parses when the question is shown (nothing runs: the test checks window.__xss)');

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started), { jobs: true });

const mathQuestions = [
  {
    prompt: 'A body starts from rest and accelerates uniformly at $a = 5\\,\\text{m s}^{-2}$. Using $v = u + at$, its velocity after $t = 4\\,\\text{s}$ is',
    type: 'MCQ',
    marks: 1,
    options: [
      { text: '$1.25\\,\\text{m s}^{-1}$', isCorrect: false },
      { text: '$20\\,\\text{m s}^{-1}$', isCorrect: true },
      { text: '$25\\,\\text{m s}^{-1}$', isCorrect: false },
      { text: '$100\\,\\text{m s}^{-1}$', isCorrect: false },
    ],
  },
  {
    prompt: 'The escape velocity of a rocket from a planet of mass $M$ and radius $R$ is\n\n$$V = \\sqrt{\\frac{2GM}{R}}$$\n\nIf $R$ is halved and $M$ stays the same, $V$ becomes',
    type: 'MCQ',
    marks: 2,
    section: 'Section A — Mechanics',
    options: [
      { text: '$\\frac{V}{2}$', isCorrect: false },
      { text: '$\\sqrt{2}\\,V$', isCorrect: true },
      { text: '$2V$', isCorrect: false },
      { text: '$4V$', isCorrect: false },
    ],
  },
  {
    prompt: 'Express 0.00088 in standard form (NECO style: 10<sup>n</sup>, H<sub>2</sub>O).',
    type: 'MCQ',
    marks: 1,
    options: [
      { text: '8.8 x 10<sup>-1</sup>', isCorrect: false },
      { text: '8.8 x 10<sup>-4</sup>', isCorrect: true },
      { text: '8.8 x 10<sup>-2</sup>', isCorrect: false },
      { text: '8.8 x 10<sup>3</sup>', isCorrect: false },
    ],
  },
  {
    prompt: 'Pick one. <img src=x onerror="window.__xss=1"><script>window.__xss=2</script> <a href="javascript:window.__xss=3">here</a> $\\href{javascript:window.__xss=4}{x}$',
    type: 'MCQ',
    marks: 1,
    options: [
      { text: '<b onmouseover="window.__xss=5">bold</b>', isCorrect: true },
      { text: '<iframe src="javascript:window.__xss=6"></iframe>plain', isCorrect: false },
    ],
  },
];

/** Deletes built-ins newer than Chrome 80 before any page script runs. */
const OLD_BROWSER = `
  for (const [o, k] of [[Array.prototype,'at'],[String.prototype,'at'],[Object,'hasOwn'],[String.prototype,'replaceAll'],
    [Array.prototype,'findLast'],[Array.prototype,'findLastIndex'],[Array.prototype,'toSorted'],[Object,'groupBy'],
    [window,'structuredClone'],[Promise,'any'],[window,'WeakRef'],[AbortSignal,'timeout']]) { try { delete o[k]; } catch (e) {} }
  window.__oldBrowser = typeof Array.prototype.at === 'undefined' && typeof Object.hasOwn === 'undefined';
`;

async function questionText(page: Page): Promise<string> {
  return (await page.innerText('section.question')) ?? '';
}

describe('candidate page: rendering', () => {
  it('renders LaTeX with KaTeX and <sup>/<sub>, runs no script from questions, without post-Chrome-80 built-ins', async () => {
    const seeded = await seedExam(server.baseUrl, mathQuestions, { title: 'Physics with math' });
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    await context.addInitScript(OLD_BROWSER);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.baseUrl + '/');
    expect(await page.evaluate(() => (window as unknown as { __oldBrowser: boolean }).__oldBrowser)).toBe(true);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Musa Bello', studentId: 'M-1', pin: '4321' });

    // Q1: inline math in prompt and options
    expect(await page.locator('#q-prompt .katex').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('label.option .katex').count()).toBe(4);
    expect(await questionText(page)).not.toContain('$');
    await page.keyboard.press('b');

    // Q2: display math
    await page.keyboard.press('n');
    await page.waitForSelector('#q-prompt .katex-display');
    expect(await questionText(page)).not.toContain('$');
    expect(await page.textContent('.section-name')).toContain('Mechanics');
    await page.keyboard.press('2');
    await page.waitForSelector('label.option.chosen[data-key="B"]');
    await shot(page, 'candidate-question-math');

    // Q3: HTML superscripts and subscripts from real papers
    await page.keyboard.press('n');
    await page.waitForFunction(() => document.querySelectorAll('#q-prompt sup, #q-prompt sub').length === 2);
    expect(await page.locator('label.option sup').count()).toBe(4);

    // Q4: hostile content is inert
    await page.keyboard.press('n');
    await page.waitForFunction(() => document.querySelector('#q-title')?.textContent?.startsWith('Question 4'));
    await page.hover('label.option[data-key="A"]');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('section.question img, section.question script, section.question iframe, section.question a[href]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone and 200 % zoom on a 1024×768 screen without sideways scrolling', async () => {
    const seeded = await seedExam(server.baseUrl, [...mathQuestions.slice(0, 2), { prompt: 'Explain **Newton’s first law** with an example.', type: 'SHORT_ESSAY', marks: 5, minWords: 5, maxWords: 20 }]);
    // 200 % zoom of a 1024×768 screen lays out like a 512×384 CSS viewport at 2 device pixels per CSS pixel
    for (const [name, viewport, scale] of [['phone', { width: 360, height: 740 }, 2], ['zoom200', { width: 512, height: 384 }, 2]] as const) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: scale });
      const page = await context.newPage();
      await page.goto(server.baseUrl + '/');
      await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Ngozi Eze', studentId: `Z-${name}`, pin: '1111' });
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
      expect(await fits()).toBe(true);
      await page.click('.nav-q[data-index="2"]');
      await page.waitForSelector('#essay');
      await typeInto(page, '#essay', 'An object stays at rest unless a force acts');
      await expect.poll(() => page.textContent('#essay-count')).toContain('9 words — within 5–20 words');
      expect(await fits()).toBe(true);
      // the essay is saved (debounced) and reaches the server's disk
      await waitAllSaved(page);
      const essayId = await page.getAttribute('section.question', 'data-question-id');
      const view = await api(server.baseUrl).get(`/attempts/${await currentAttemptId(page)}`);
      expect(view.body.answers.find((a: { questionId: string }) => a.questionId === essayId)?.text).toBe('An object stays at rest unless a force acts');
      if (name === 'phone') await shot(page, 'candidate-phone-essay');
      await context.close();
    }
  });
});

describe('candidate page: resume', () => {
  it('a reload, and another PC, resume the same question order and answers', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 12), { shuffleQuestions: true, shuffleChoices: true });
    const candidate = { accessCode: seeded.accessCode, name: 'Tunde Bakare', studentId: 'RES-9', pin: '8080' };
    const first = await openPage(browser, server.baseUrl);
    await signInAndStart(first.page, candidate);
    const order = await questionOrder(first.page);
    expect(order).toHaveLength(12);
    expect(new Set(order).size).toBe(12);
    // answer the shown questions 1, 2 and 5 with the option in the third place
    const chosen = new Map<string, string>();
    for (const i of [0, 1, 4]) {
      await first.page.click(`.nav-q[data-index="${i}"]`);
      await first.page.waitForFunction((n) => document.querySelector('#q-title')?.textContent?.startsWith(`Question ${n}`), i + 1);
      const label = first.page.locator('label.option').nth(2);
      chosen.set(order[i]!, (await label.getAttribute('data-option-id'))!);
      await label.click();
    }
    await waitAllSaved(first.page);
    // a last answer, and reload at once (it may still be only in localStorage)
    await first.page.click('.nav-q[data-index="6"]');
    await first.page.waitForFunction(() => document.querySelector('#q-title')?.textContent?.startsWith('Question 7'));
    chosen.set(order[6]!, (await first.page.locator('label.option').nth(0).getAttribute('data-option-id'))!);
    await first.page.keyboard.press('a');
    await first.page.reload();
    await first.page.waitForSelector('section.question');
    // back on the question the candidate was on
    expect(await first.page.textContent('#q-title')).toContain('Question 7');
    expect(await questionOrder(first.page)).toEqual(order);
    for (const [i, qid] of order.entries()) {
      await first.page.click(`.nav-q[data-index="${i}"]`);
      const want = chosen.get(qid);
      if (want) await first.page.waitForSelector(`label.option.chosen[data-option-id="${want}"]`);
      else expect(await first.page.locator('label.option.chosen').count()).toBe(0);
    }
    await waitAllSaved(first.page);
    // leaving the page by reloading it is not a tab switch
    const view = await api(server.baseUrl).get(`/attempts/${await currentAttemptId(first.page)}`);
    expect(view.body.violations).toBe(0);

    // another PC: same student ID and PIN
    const second = await openPage(browser, server.baseUrl);
    await fillSignIn(second.page, candidate);
    await second.page.waitForSelector('#start-exam');
    expect(await second.page.textContent('#screen-instructions')).toContain('Welcome back');
    await second.page.click('#start-exam');
    await second.page.waitForSelector('section.question');
    expect(await questionOrder(second.page)).toEqual(order);
    expect(await second.page.locator('.nav-q.answered').count()).toBe(4);
    expect(await currentAttemptId(second.page)).toBe(await currentAttemptId(first.page));
    expect([...first.errors, ...second.errors]).toEqual([]);
    await first.context.close();
    await second.context.close();
  }, 90_000);
});

describe('candidate page: proctoring', () => {
  it('counts a tab switch once, warns against the limit, locks on the third with a limit of 2, and reopens when reinstated', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 3), { maxTabViolations: 2 });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Efe Okoro', studentId: 'TAB-3', pin: '2020' });
    await page.keyboard.press('c');
    const switchTab = () =>
      page.evaluate(() => {
        // what a real tab switch does: the window loses focus and the page becomes hidden, then comes back
        const set = (v: string) => Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => v });
        window.dispatchEvent(new Event('blur'));
        set('hidden');
        document.dispatchEvent(new Event('visibilitychange'));
        set('visible');
        document.dispatchEvent(new Event('visibilitychange'));
        window.dispatchEvent(new Event('focus'));
      });
    await switchTab();
    await expect.poll(() => page.textContent('#banner-violation')).toContain('Violations: 1 of 2 allowed');
    await page.waitForTimeout(600); // the blur's own decision window has passed: still 1
    expect(await page.textContent('#banner-violation')).toContain('Violations: 1 of 2 allowed');
    await switchTab();
    await expect.poll(() => page.textContent('#banner-violation')).toContain('Violations: 2 of 2 allowed. One more and your exam will be locked.');
    await shot(page, 'candidate-violation-warning');
    await switchTab();
    await page.waitForSelector('#screen-locked', { timeout: 10_000 });
    expect(await page.textContent('#screen-locked')).toContain('the limit is 2');
    await shot(page, 'candidate-locked');
    const attemptId = await currentAttemptId(page);
    const key = api(server.baseUrl, seeded.apiKey);
    expect((await key.get(`/attempts/${attemptId}/result`)).body.status).toBe('DISQUALIFIED');
    expect((await api(server.baseUrl).post(`/attempts/${attemptId}/answers`, { answers: [] })).status).toBe(403);

    // the invigilator reinstates: the page reopens by itself, answers intact
    expect((await key.post(`/attempts/${attemptId}/reinstate`, { reason: 'Tab switches were a projector test' })).status).toBe(200);
    await page.waitForSelector('section.question', { timeout: 15_000 });
    await page.waitForSelector('label.option.chosen[data-key="C"]');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe('candidate page: invigilator pause', () => {
  it('shows "paused by the invigilator", stops the clock, and carries on after the resume', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 3));
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Halima Sani', studentId: 'PAUSE-1', pin: '3030' });
    const key = api(server.baseUrl, seeded.apiKey);
    expect((await key.post(`/exams/${seeded.examId}/pause`, { reason: 'Power fluctuation in hall B' })).status).toBe(200);
    await page.keyboard.press('a'); // the save's reply brings the next poll forward
    await page.waitForSelector('#paused-overlay', { timeout: 10_000 });
    expect(await page.textContent('#banner-paused')).toContain('paused');
    expect(await page.textContent('#timer')).toContain('(paused)');
    const frozen = await page.textContent('#timer');
    await page.waitForTimeout(1500);
    expect(await page.textContent('#timer')).toBe(frozen);
    await page.keyboard.press('n'); // shortcuts are off while paused
    expect(await page.textContent('#q-title')).toContain('Question 1');
    expect((await key.post(`/exams/${seeded.examId}/resume`, { reason: 'Power back' })).status).toBe(200);
    await page.waitForSelector('#paused-overlay', { state: 'detached', timeout: 10_000 });
    expect(await page.isVisible('#banner-paused')).toBe(false);
    await expect.poll(() => page.textContent('#timer')).not.toContain('(paused)');
    expect(errors).toEqual([]);
    await context.close();
  }, 40_000);
});
