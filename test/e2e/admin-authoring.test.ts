/**
 * The admin page's authoring side end to end, in real headless Chromium against the real
 * app on loopback (issue 5): registering a hall (key shown once, kept only in
 * sessionStorage), setting a password and signing in by e-mail, creating an exam scheduled
 * in hall-local time, authoring questions with the live Markdown + LaTeX preview (sanitised),
 * an essay from a rubric template, bulk paste and reorder, the roster with PIN slips in
 * print layout, question generation, and the connect screen's QR code.
 *
 * One browser and one server for the file; the steps are one examiner's morning, so they
 * run in order and share the state below. Screenshots go to test/artifacts/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import QRCode from 'qrcode';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, api, launchBrowser, startTestServer, waitFor, type TestServer, typeInto } from '../harness.js';
import { allowCspReports, PARSED_INLINE_HANDLER } from '../csp-guard.js';

// CSP: a question's prompt carries <img onerror>, which the sanitiser parses wherever the prompt is shown (nothing runs: the test checks window.__xss)
allowCspReports(PARSED_INLINE_HANDLER, 'a question\'s prompt carries <img onerror>, which the sanitiser parses wherever the prompt is shown (nothing runs: the test checks window.__xss)');

const ARTIFACTS = join(ROOT, 'test', 'artifacts');
const STEP_MS = 60_000;

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

// shared story state
const hall = { name: 'Lagos Tutorial Centre', email: `examiner.${Date.now()}@example.com`, password: 'correct horse 42' };
let apiKey = '';
let examId = '';
let accessCode = '';
let questionIds: string[] = [];
let roster: Array<{ id: string; studentId: string; candidateName: string; pin: string; smsLink: string | null }> = [];

const keyed = () => api(server.baseUrl, apiKey);
/** Saves a full-page screenshot (toasts cleared first so they hide nothing). */
const shot = async (name: string) => {
  await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
  await page.screenshot({ path: join(ARTIFACTS, `admin-${name}.png`), fullPage: true });
};
const hash = (h: string) => page.evaluate((x) => (location.hash = x), h);

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs` (npm test does it in pretest)');
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  browser = await launchBrowser();
  // the hall is in Lagos (UTC+1, no daylight saving): picker times convert predictably
  context = await browser.newContext({ timezoneId: 'Africa/Lagos', viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.sequential('admin page: authoring', () => {
  it('registers a hall, shows the key once, keeps it only in sessionStorage, sets a password and signs in by e-mail', async () => {
    await page.goto(`${server.baseUrl}/admin`);
    await page.click('[data-tab="register"]');
    await typeInto(page, '#signin-register [name="name"]', hall.name);
    await typeInto(page, '#signin-register [name="ownerName"]', 'Mrs Ngozi Bello');
    await typeInto(page, '#signin-register [name="email"]', hall.email);
    await typeInto(page, '#signin-register [name="webhookUrl"]', 'http://127.0.0.1:9/results');
    await shot('signin');
    await page.click('#signin-register button[type="submit"]');
    apiKey = (await page.textContent('#new-api-key'))!.trim();
    const webhookSecret = (await page.textContent('#new-webhook-secret'))!.trim();
    expect(apiKey).toMatch(/^cbt_[A-Za-z0-9]{32,}$/);
    expect(webhookSecret.length).toBeGreaterThan(16);
    await page.click('#continue-signed-in');
    await page.waitForSelector('#new-exam');
    expect(await page.textContent('#ws-name')).toBe(hall.name);
    expect(await page.textContent('#ws-credits')).toBe('30');
    const me = await keyed().get('/workspaces/me');
    expect(me.body.hasPassword).toBe(false);

    const storage = await page.evaluate(() => ({ local: localStorage.length, cookie: document.cookie, session: Object.values(sessionStorage), url: location.href }));
    expect(storage).toEqual({ local: 0, cookie: '', session: [apiKey], url: `${server.baseUrl}/admin#/exams` });

    await hash('#/account');
    await page.waitForSelector('#password-form');
    expect(await page.textContent('#password-status')).toContain('no password yet');
    await typeInto(page, '#password-form [name="password"]', hall.password);
    await typeInto(page, '#password-form [name="repeat"]', hall.password);
    await page.click('#password-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#password-status')?.textContent === 'A password is set.');
    await shot('account');

    await page.click('#signout');
    await page.waitForSelector('#signin-password');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await typeInto(page, '#signin-password [name="email"]', hall.email.toUpperCase());
    await typeInto(page, '#signin-password [name="password"]', hall.password);
    await page.click('#signin-password button[type="submit"]');
    await page.waitForSelector('#new-exam');
    expect(await page.textContent('#ws-name')).toBe(hall.name);
  }, STEP_MS);

  it('creates an exam scheduled in hall-local time (stored as UTC) and shows the room code large', async () => {
    await page.click('#new-exam');
    await typeInto(page, '#new-exam-form [name="title"]', 'SS2 Mathematics — Mock 1');
    await typeInto(page, '#new-exam-form [name="durationMins"]', '30');
    // date-time pickers are set as a whole (their typed form depends on the browser's locale)
    await page.fill('#new-exam-form [name="startsAt"]', '2020-01-01T08:00');
    await page.fill('#new-exam-form [name="endsAt"]', '2099-12-31T18:00');
    await typeInto(page, '#new-exam-form [name="maxTabViolations"]', '2');
    await page.click('#new-exam-form button[type="submit"]');
    await page.waitForSelector('#tab-questions');
    examId = decodeURIComponent(/#\/exams\/([^/]+)/.exec(page.url())![1]!);
    const exam = (await keyed().get(`/exams/${examId}`)).body;
    expect(exam).toMatchObject({ title: 'SS2 Mathematics — Mock 1', durationMins: 30, maxTabViolations: 2, startsAt: '2020-01-01T07:00:00.000Z', endsAt: '2099-12-31T17:00:00.000Z', isPublished: true });
    accessCode = exam.accessCode;
    expect(await page.textContent('#room-code')).toBe(accessCode);
    const px = await page.$eval('#room-code', (el) => parseFloat(getComputedStyle(el).fontSize));
    expect(px).toBeGreaterThanOrEqual(48);

    // the settings form shows the window back in local time
    await page.click('[data-tab="settings"]');
    await page.waitForSelector('#exam-settings-form');
    expect(await page.inputValue('#exam-settings-form [name="startsAt"]')).toBe('2020-01-01T08:00');
    await shot('exam-settings');
  }, STEP_MS);

  it('authors questions with a live Markdown + LaTeX preview that is sanitised, an essay from a rubric template, bulk paste and reorder', async () => {
    await page.click('[data-tab="questions"]');
    await page.click('#add-question');
    await typeInto(page, '#q-prompt', 'If $x = 3$, what is $\\frac{x^2 + 3}{4}$?\n\n<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>');
    // the preview redraws 60 ms after the last key, and keys come slower than that on a
    // busy machine: wait for a drawing of the whole prompt (both formulas, and the <img>
    // typed to its end so it is parsed as a tag, not shown as text), not the first formula
    await page.waitForFunction(() => {
      const shown = document.querySelector('#question-preview .q-prompt');
      return shown !== null && shown.querySelectorAll('.katex').length >= 2 && !/<img|onerr/.test(shown.textContent ?? '');
    }, undefined, { timeout: 10_000 }).catch(() => undefined);
    expect(await page.$$eval('#question-preview .katex', (els) => els.length)).toBeGreaterThanOrEqual(2);
    expect(await page.$$('#question-preview img, #question-preview script')).toHaveLength(0);
    const options = ['$2$', '$3$', '$\\sqrt{9}$', '4'];
    for (const [i, text] of options.entries()) await typeInto(page, `#options-editor input.option-text[data-option="${i}"]`, text);
    await page.check('#options-editor input.option-correct[data-option="1"]');
    await typeInto(page, '#q-marks', '2');
    await typeInto(page, '#q-section', 'Section A');
    await page.waitForFunction(() => document.querySelectorAll('#question-preview .q-option .katex').length === 3
      && document.querySelector('#question-preview .q-option.correct .key')?.textContent === 'B'
      && document.querySelector('#question-preview .q-marks')?.textContent === '2 marks');
    await shot('question-editor');
    await page.click('#save-question');
    await page.waitForSelector('.question-item .q-prompt .katex');

    await page.click('#add-question');
    await page.selectOption('#q-type', 'SHORT_ESSAY');
    await typeInto(page, '#q-marks', '10');
    await typeInto(page, '#q-section', 'Section B');
    await typeInto(page, '#q-prompt', 'Explain, in your own words, why $\\sqrt{2}$ is irrational.');
    await typeInto(page, '#q-model-answer', 'Assume $\\sqrt{2} = p/q$ in lowest terms; then $p^2 = 2q^2$, so both are even — a contradiction.');
    await page.waitForFunction(() => document.querySelectorAll('#rubric-template option').length > 3);
    const stem = await page.$eval('#rubric-template', (s) => Array.from((s as HTMLSelectElement).options).find((o) => o.text.startsWith('STEM'))!.value);
    await page.selectOption('#rubric-template', stem);
    await page.waitForSelector('#rubric-total.ok');
    expect(await page.textContent('#rubric-total')).toContain('10 of 10 marks');
    await page.click('#save-question');
    await page.waitForFunction(() => document.querySelectorAll('.question-item').length === 2 || document.querySelector('#question-form .error'));
    expect(await page.$('#question-form .error')).toBeNull();

    await page.click('#open-bulk');
    // a paper pasted in one go (what bulk paste is for), not typed
    await page.fill('#bulk-text', 'Which of these is a prime number?\nA. 21\nB. 27\nC. 29\nD. 33\nANSWER: C\n\nWhat is $2^5$?\nA) 10\nB) 25\nC) 32\nANSWER: C\n');
    await page.click('#bulk-check-btn');
    // the check is a dry-run request to the server: wait for its report before reading it
    await page.waitForSelector('#bulk-check p');
    expect(await page.textContent('#bulk-check')).toContain('2 questions recognised');
    await page.click('#bulk-import');
    await page.waitForFunction(() => document.querySelectorAll('.question-item').length === 4);

    let exam = (await keyed().get(`/exams/${examId}`)).body;
    expect(exam.questions.map((q: { type: string }) => q.type)).toEqual(['MCQ', 'SHORT_ESSAY', 'MCQ', 'MCQ']);
    expect(exam.questions[0].options.map((o: { isCorrect: boolean }) => o.isCorrect)).toEqual([false, true, false, false]);
    expect(exam.questions[0]).toMatchObject({ marks: 2, section: 'Section A' });
    expect(exam.questions[1].rubric.criteria.reduce((s: number, c: { maxMarks: number }) => s + c.maxMarks, 0)).toBe(10);
    expect(exam.questions[3].options.find((o: { isCorrect: boolean }) => o.isCorrect).text).toBe('32');

    // move the essay to the end: down, down
    const essayId = exam.questions[1].id;
    await page.click(`[data-question-id="${essayId}"] [data-action="down"]`);
    await page.waitForFunction((id) => document.querySelectorAll('.question-item')[2]?.getAttribute('data-question-id') === id, essayId);
    await page.click(`[data-question-id="${essayId}"] [data-action="down"]`);
    await page.waitForFunction((id) => document.querySelectorAll('.question-item')[3]?.getAttribute('data-question-id') === id, essayId);
    exam = (await keyed().get(`/exams/${examId}`)).body;
    questionIds = exam.questions.map((q: { id: string }) => q.id);
    expect(questionIds[3]).toBe(essayId);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await shot('questions');
  }, STEP_MS);

  it('adds and imports a roster, escapes names, copies the SMS link and prints PIN slips', async () => {
    await page.click('[data-tab="roster"]');
    await page.waitForSelector('#roster-add-form');
    await typeInto(page, '#roster-add-form [name="studentId"]', 'STU-001');
    await typeInto(page, '#roster-add-form [name="candidateName"]', 'Adaeze <b>Okafor</b>');
    await typeInto(page, '#roster-add-form [name="phone"]', '+2348012345678');
    await page.click('#roster-add-form button[type="submit"]');
    await page.waitForSelector('#roster-table tr[data-student-id="STU-001"]');
    await page.setInputFiles('#roster-file', { name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from('studentId,candidateName,phone\nSTU-002,Bola Adeyemi,08030000000\nSTU-003,Chidi Eze,\n') });
    await page.waitForFunction(() => document.querySelectorAll('#roster-table tbody tr').length === 3);
    roster = (await keyed().get(`/exams/${examId}/roster`)).body;
    expect(roster.map((r) => r.studentId).sort()).toEqual(['STU-001', 'STU-002', 'STU-003']);

    const nameCell = page.locator('#roster-table tr[data-student-id="STU-001"] td').nth(1);
    expect(await nameCell.textContent()).toBe('Adaeze <b>Okafor</b>');
    expect(await nameCell.locator('b').count()).toBe(0);

    const ada = roster.find((r) => r.studentId === 'STU-001')!;
    expect(ada.smsLink).toBeTruthy();
    await page.click('#roster-table tr[data-student-id="STU-001"] [data-action="copy-sms"]');
    await waitFor(async () => (await page.evaluate(() => navigator.clipboard.readText())) === ada.smsLink, 3000);
    await shot('roster');

    await page.evaluate(() => { (window as unknown as { __printed: number }).__printed = 0; window.print = () => { (window as unknown as { __printed: number }).__printed++; }; });
    await page.click('#print-slips');
    expect(await page.evaluate(() => (window as unknown as { __printed: number }).__printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.isVisible('#print-area')).toBe(true);
      expect(await page.isVisible('#app')).toBe(false);
      expect(await page.isVisible('#topbar')).toBe(false);
      const slips = await page.$$eval('#print-area .slip', (els) => els.map((el) => ({
        name: el.querySelector('.slip-name')!.textContent,
        studentId: el.querySelector('.slip-student-id')!.textContent,
        room: el.querySelector('.slip-room-code')!.textContent,
        pin: el.querySelector('.slip-pin')!.textContent,
        height: el.getBoundingClientRect().height,
        width: el.getBoundingClientRect().width,
      })));
      expect(slips.map(({ name, studentId, room, pin }) => ({ name, studentId, room, pin })).sort((a, b) => a.studentId!.localeCompare(b.studentId!)))
        .toEqual([...roster].sort((a, b) => a.studentId.localeCompare(b.studentId)).map((r) => ({ name: r.candidateName, studentId: r.studentId, room: accessCode, pin: r.pin })));
      // two slips side by side, each small enough for five rows on an A4 page
      const a4 = await page.evaluate(() => {
        const s = Array.from(document.querySelectorAll('#print-area .slip')).map((el) => el.getBoundingClientRect());
        return { sameRow: Math.abs(s[0]!.top - s[1]!.top) < 1, secondRight: s[1]!.left > s[0]!.left };
      });
      expect(a4).toEqual({ sameRow: true, secondRight: true });
      for (const s of slips) expect(s.height).toBeLessThan(297 / 5 * 96 / 25.4);
      await page.pdf({ path: join(ARTIFACTS, 'admin-pin-slips.pdf'), format: 'A4' });
      await shot('pin-slips-print');
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  }, STEP_MS);


  it('generates questions from pasted notes, drops one, edits one and imports the rest', async () => {
    await page.click('[data-tab="generate"]');
    // notes pasted in one go, not typed
    await page.fill('#gen-notes', [
      'Photosynthesis is the process by which green plants make glucose from carbon dioxide and water using light energy.',
      'It takes place in the chloroplasts, which contain the green pigment chlorophyll.',
      'Oxygen is released as a by-product of photosynthesis through the stomata of the leaves.',
      'Respiration is the process by which living cells break down glucose to release energy, and it takes place in the mitochondria.',
      'The rate of photosynthesis increases with light intensity until another factor, such as carbon dioxide concentration, becomes limiting.',
    ].join(' '));
    await typeInto(page, '#gen-subject', 'SS2 Biology');
    await typeInto(page, '#gen-count', '3');
    await page.uncheck('.gen-type[value="SHORT_ESSAY"]');
    await page.click('#gen-run');
    await page.waitForSelector('#gen-list .question-item', { timeout: 30_000 });
    const shown = await page.$$eval('#gen-list .question-item', (els) => els.length);
    expect(shown).toBeGreaterThanOrEqual(2);
    await page.uncheck('#gen-list .question-item[data-index="0"] .gen-keep');
    await page.click('#gen-list .question-item[data-index="1"] [data-action="edit"]');
    await typeInto(page, '#q-prompt', 'Edited by the examiner: where does photosynthesis take place?');
    await page.click('#save-question');
    await page.waitForFunction(() => document.querySelector('#gen-list .question-item[data-index="1"] .q-prompt')?.textContent?.includes('Edited by the examiner'));
    await shot('generate');
    const before = (await keyed().get(`/exams/${examId}`)).body.questions.length;
    await page.click('#gen-import');
    await page.waitForSelector('#tab-questions');
    const qs = (await keyed().get(`/exams/${examId}`)).body.questions;
    expect(qs.length).toBe(before + shown - 1);
    const edited = qs.find((q: { prompt: string }) => q.prompt.startsWith('Edited by the examiner'));
    expect(edited).toBeDefined();
    expect(edited.citation).toBeTruthy();
  }, STEP_MS);


  it('duplicates the exam (new room code, questions copied, unpublished), publishes the copy and deletes it', async () => {
    await hash(`#/exams/${examId}/settings`);
    await page.waitForSelector('#duplicate-exam');
    await page.click('#duplicate-exam');
    await page.waitForFunction((id) => /#\/exams\/[^/]+\/settings/.test(location.hash) && !location.hash.includes(id), examId);
    const copyId = decodeURIComponent(/#\/exams\/([^/]+)/.exec(page.url())![1]!);
    const [original, copy] = await Promise.all([keyed().get(`/exams/${examId}`), keyed().get(`/exams/${copyId}`)]);
    expect(copy.body).toMatchObject({ title: `${original.body.title} (copy)`, isPublished: false });
    expect(copy.body.accessCode).not.toBe(accessCode);
    expect(copy.body.questions.map((q: { prompt: string }) => q.prompt)).toEqual(original.body.questions.map((q: { prompt: string }) => q.prompt));
    await page.waitForSelector('#toggle-publish');
    expect(await page.textContent('#room-code')).toBe(copy.body.accessCode);
    await page.click('#toggle-publish');
    await waitFor(async () => (await keyed().get(`/exams/${copyId}`)).body.isPublished === true, 3000);
    await page.waitForFunction(() => document.querySelector('#toggle-publish')?.textContent === 'Unpublish');
    await page.click('#delete-exam');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForSelector('#exam-table');
    expect(await page.$$eval('#exam-table tbody tr', (rows) => rows.map((r) => r.getAttribute('data-exam-id')))).toEqual([examId]);
    expect((await keyed().get(`/exams/${copyId}`)).status).toBe(404);
  }, STEP_MS);

  it('shows the LAN address and a QR code that encodes the candidate URL', async () => {
    await hash('#/connect');
    await page.waitForSelector('#qr-host svg.qr');
    const url = (await page.textContent('#candidate-url'))!;
    const info = (await keyed().get('/system/info')).body;
    expect(url).toBe(info.candidateUrl ?? `${server.baseUrl}/`);
    const expected = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    const paths = (svg: string) => [...svg.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]);
    const shown = await page.$eval('#qr-host svg.qr', (el) => el.outerHTML);
    expect(paths(shown)).toEqual(paths(expected));
    expect(await page.$eval('#qr-host svg.qr', (el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(300);
    await shot('connect');
    expect(pageErrors).toEqual([]);
  }, STEP_MS);

});
