/**
 * A tutorial centre's real exam day (issue 36), in real headless Chromium against the real
 * app on loopback, everything typed key by key:
 * - the live monitor shows the whole room: 40 rostered candidates of whom 35 started, the
 *   5 others listed as "not started" (then "absent" once the window has closed), names in
 *   natural order, counts in the singular and plural, a page not heard from for 15 s marked
 *   with when it was last seen, and at least 12 rows in view at 1024×768 (and 1366×768);
 * - the question editor starts with no option marked correct and refuses to save an MCQ
 *   (or a true/false question) until one is, saying so next to the options;
 * - the exam form's instructions reach the candidate's instructions screen before the
 *   clock starts, rendered and sanitised; "Exam finished" afterwards is a calm confirmation.
 * Screenshots go to test/artifacts/ (copies of the monitor and instructions ones are in docs/screenshots/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT, addQuestions, api, createExam, launchBrowser, registerWorkspace, sampleMcqs, startAttempt, startTestServer, typeInto, waitFor, type TestServer } from '../harness.js';

const ARTIFACTS = join(ROOT, 'test', 'artifacts');
const STEP_MS = 90_000;
const ROOM = 40;
/** the five rostered candidates who do not come */
const MISSING = new Set([3, 11, 20, 27, 38]);
/** a candidate who started and whose page then went quiet */
const QUIET = 7;

let server: TestServer;
let browser: Browser;
let apiKey = '';
let workspaceId = '';
let examId = '';
const attempts = new Map<number, string>();
let heartbeat: ReturnType<typeof setInterval> | undefined;

const keyed = () => api(server.baseUrl, apiKey);
const name = (i: number) => `Student ${i}`;

/** A fresh admin tab at `viewport`, signed in with the API key, at `hash`. */
async function adminTab(viewport: { width: number; height: number }, hash: string): Promise<Page> {
  const context = await browser.newContext({ viewport, timezoneId: 'Africa/Lagos' });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/admin`);
  await page.click('[data-tab="key"]');
  await typeInto(page, '#signin-key [name="apiKey"]', apiKey);
  await page.click('#signin-key button[type="submit"]');
  await page.waitForSelector('#new-exam');
  await page.evaluate((h) => (location.hash = h), hash);
  return page;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs`');
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  const ws = await registerWorkspace(server.baseUrl, { name: 'Bright Future Tutorial Centre' });
  apiKey = ws.apiKey;
  workspaceId = ws.id;
  // a registration's free credits are fewer than the 35 candidates who start
  server.deps.sqlite.prepare('UPDATE workspaces SET credits = 200 WHERE id = ?').run(ws.id);
  const exam = await createExam(server.baseUrl, apiKey, ws.id, { title: 'JAMB Mock — English' });
  examId = exam.id;
  await addQuestions(server.baseUrl, apiKey, ws.id, examId, sampleMcqs(5));
  // the roster in the order the centre typed it (not alphabetical)
  const order = Array.from({ length: ROOM }, (_, i) => ((i * 17) % ROOM) + 1);
  const added = await keyed().post(`/exams/${examId}/roster`, { candidates: order.map((i) => ({ studentId: `BF-${String(i).padStart(3, '0')}`, candidateName: name(i) })) });
  expect(added.status).toBe(201);
  const pins = new Map((added.body.candidates as { studentId: string; pin: string }[]).map((c) => [c.studentId, c.pin]));
  // 35 start, each from a computer of their own (startAttempt: seatOf)
  for (let i = 1; i <= ROOM; i++) {
    if (MISSING.has(i)) continue;
    const id = `BF-${String(i).padStart(3, '0')}`;
    attempts.set(i, (await startAttempt(server.baseUrl, exam.accessCode, id, pins.get(id)!, name(i))).attemptId);
  }
  // the pages of the writing candidates poll as the candidate page does; one page has gone quiet
  const beat = () => Promise.all([...attempts].filter(([i]) => i !== QUIET).map(([, id]) => api(server.baseUrl).get(`/attempts/${id}?questions=0`))).catch(() => undefined);
  await beat();
  heartbeat = setInterval(() => void beat(), 4000);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  if (heartbeat) clearInterval(heartbeat);
  await browser?.close();
  await server?.close();
});

/** The monitor's rows as the invigilator reads them: name, and absent rows' status. */
const monitorRows = (page: Page) =>
  page.$$eval('#monitor-table tbody tr', (trs) => trs.map((tr) => ({
    name: tr.querySelector('[data-field="candidate"] strong')?.textContent ?? '',
    absent: tr.getAttribute('data-absent'),
    status: tr.querySelector('[data-field="status"]')?.textContent ?? '',
    quiet: !!tr.querySelector('[data-quiet]'),
    bottom: tr.getBoundingClientRect().bottom,
  })));

describe.sequential('admin page: a tutorial centre\'s exam day', () => {
  for (const viewport of [{ width: 1024, height: 768 }, { width: 1366, height: 768 }]) {
    it(`the monitor shows the whole room at ${viewport.width}×${viewport.height}: 35 started, 5 not started, natural order, at least 12 rows in view`, async () => {
      const page = await adminTab(viewport, `#/exams/${examId}/monitor`);
      await page.waitForFunction(() => document.querySelector('#monitor-connection')?.textContent === '● Live');
      await page.waitForFunction(() => document.querySelectorAll('#monitor-table tbody tr').length === 40);
      const rows = await monitorRows(page);
      expect(rows.map((r) => r.name)).toEqual(Array.from({ length: ROOM }, (_, i) => name(i + 1)));
      const absent = rows.filter((r) => r.absent);
      expect(absent.map((r) => r.name)).toEqual([...MISSING].map(name));
      expect(absent.every((r) => r.status === 'Not started')).toBe(true);
      expect(await page.textContent('#monitor-summary')).toMatch(/^40 candidates: 35 writing, 0 submitted, 0 disqualified, 5 not started/);
      const inView = await page.evaluate(() => window.innerHeight);
      expect(rows.filter((r) => r.bottom <= inView).length).toBeGreaterThanOrEqual(12);
      // the page that went quiet is marked with when it was last seen, the others are not
      await waitFor(async () => (await monitorRows(page)).find((r) => r.name === name(QUIET))?.quiet, 30_000, 250);
      const marked = (await monitorRows(page)).filter((r) => r.quiet).map((r) => r.name);
      expect(marked).toEqual([name(QUIET)]);
      expect(await page.textContent(`tr[data-attempt-id="${attempts.get(QUIET)}"]`)).toMatch(/last seen \d+ s ago/);
      expect(await page.textContent('#monitor-summary')).toContain('; 1 candidate not heard from for 15 s or more.');
      await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
      await page.screenshot({ path: join(ARTIFACTS, `monitor-${viewport.width}x${viewport.height}.png`) });
      await page.context().close();
    }, STEP_MS);
  }

  it('after the window closes the five are "absent", and a room of one says "1 candidate"', async () => {
    const page = await adminTab({ width: 1024, height: 768 }, `#/exams/${examId}/monitor`);
    await page.waitForFunction(() => document.querySelectorAll('#monitor-table tbody tr[data-absent]').length === 5);
    const now = Date.now();
    expect((await keyed().patch(`/exams/${examId}`, { startsAt: new Date(now - 3_600_000).toISOString(), endsAt: new Date(now - 1000).toISOString() })).status).toBe(200);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('#monitor-table tbody tr[data-absent]')).every((tr) => tr.textContent?.includes('Absent')), undefined, { timeout: 15_000 });
    expect(await page.textContent('#monitor-summary')).toContain('5 absent');

    const single = await createExam(server.baseUrl, apiKey, workspaceId, { title: 'Resit' });
    await addQuestions(server.baseUrl, apiKey, workspaceId, single.id, sampleMcqs(1));
    await keyed().post(`/exams/${single.id}/roster`, { candidates: [{ studentId: 'RS-1', candidateName: 'Ngozi Eze' }] });
    await page.evaluate((h) => (location.hash = h), `#/exams/${single.id}/monitor`);
    await page.waitForSelector('#monitor-table tbody tr[data-absent="RS-1"]');
    expect(await page.textContent('#monitor-summary')).toBe('1 candidate: 0 writing, 0 submitted, 0 disqualified, 1 not started.');
    await page.context().close();
  }, STEP_MS);

  it('the question editor marks no answer correct and will not save an MCQ or a true/false question without one', async () => {
    const exam = await createExam(server.baseUrl, apiKey, workspaceId, { title: 'Keys' });
    const page = await adminTab({ width: 1024, height: 768 }, `#/exams/${exam.id}/questions`);
    await page.click('#add-question');
    await page.waitForSelector('#options-editor');
    expect(await page.$$eval('#options-editor input.option-correct', (els) => els.filter((e) => (e as HTMLInputElement).checked).length)).toBe(0);
    await typeInto(page, '#q-prompt', 'Which word is a noun?');
    for (const [i, text] of ['quickly', 'happiness', 'blue', 'run'].entries()) await typeInto(page, `#options-editor input.option-text[data-option="${i}"]`, text);
    await page.click('#save-question');
    await page.waitForSelector('#key-missing:not([hidden])');
    expect(await page.textContent('#key-missing')).toContain('Mark the correct answer');
    // the message sits with the options, and nothing reached the server
    expect(await page.$('#options-editor + #key-missing')).not.toBeNull();
    expect((await keyed().get(`/exams/${exam.id}`)).body.questions).toHaveLength(0);
    await page.check('#options-editor input.option-correct[data-option="1"]');
    expect(await page.isHidden('#key-missing')).toBe(true);
    await page.click('#save-question');
    await page.waitForSelector('.question-item');
    expect((await keyed().get(`/exams/${exam.id}`)).body.questions[0].options.map((o: { isCorrect: boolean }) => o.isCorrect)).toEqual([false, true, false, false]);

    // True / false: neither is marked at first, and it is refused the same way
    await page.click('#add-question');
    await page.selectOption('#q-type', 'TRUE_FALSE');
    await typeInto(page, '#q-prompt', 'Lagos is the capital of Nigeria.');
    expect(await page.$$eval('#options-editor input.option-correct', (els) => els.map((e) => (e as HTMLInputElement).checked))).toEqual([false, false]);
    await page.click('#save-question');
    await page.waitForSelector('#key-missing:not([hidden])');
    expect((await keyed().get(`/exams/${exam.id}`)).body.questions).toHaveLength(1);
    await page.check('#options-editor input.option-correct[data-option="1"]');
    await page.click('#save-question');
    await page.waitForFunction(() => document.querySelectorAll('.question-item').length === 2);
    const tf = (await keyed().get(`/exams/${exam.id}`)).body.questions[1];
    expect(tf.options.map((o: { text: string; isCorrect: boolean }) => [o.text, o.isCorrect])).toEqual([['True', false], ['False', true]]);
    await page.context().close();
  }, STEP_MS);

  for (const viewport of [{ width: 1024, height: 768 }, { width: 1366, height: 768 }]) {
    it(`the exam form's instructions reach the candidate before the clock starts, sanitised (${viewport.width}×${viewport.height})`, async () => {
      const exam = await createExam(server.baseUrl, apiKey, workspaceId, { title: `WAEC Mock — Biology ${viewport.width}` });
      await addQuestions(server.baseUrl, apiKey, workspaceId, exam.id, sampleMcqs(3));
      const admin = await adminTab({ width: 1280, height: 900 }, `#/exams/${exam.id}/settings`);
      await admin.waitForSelector('#exam-instructions');
      await typeInto(admin, '#exam-instructions', 'Answer **all** questions. Each carries $\\frac{1}{2}$ mark.\n\n- Switch off your phone\n- Raise your hand if the screen freezes<script>window.__xss=1</script>');
      await admin.click('#exam-settings-form button[type="submit"]');
      await waitFor(async () => (await keyed().get(`/exams/${exam.id}`)).body.instructions?.includes('Switch off your phone'));
      await admin.context().close();

      const context = await browser.newContext({ viewport, locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(server.baseUrl + '/');
      await typeInto(page, '#accessCode', exam.accessCode);
      await typeInto(page, '#candidateName', 'Amina Bello');
      await typeInto(page, '#studentId', `BIO-${viewport.width}`);
      await typeInto(page, '#candidatePin', '2468');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#exam-instructions');
      expect(await page.$('#clock-not-started')).not.toBeNull();
      expect(await page.innerHTML('#exam-instructions strong')).toBe('all');
      expect(await page.$$eval('#exam-instructions li', (lis) => lis.map((li) => li.textContent))).toEqual(['Switch off your phone', 'Raise your hand if the screen freezes']);
      expect(await page.$('#exam-instructions .katex, #exam-instructions math')).not.toBeNull();
      expect(await page.$('#screen-instructions script')).toBeNull();
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      // no attempt and no clock until Start
      expect((await keyed().get(`/exams/${exam.id}/attempts`)).body).toEqual([]);
      const start = await page.$eval('#start-exam', (b) => b.getBoundingClientRect().bottom);
      expect(start).toBeLessThanOrEqual(viewport.height);
      await page.screenshot({ path: join(ARTIFACTS, `candidate-exam-instructions-${viewport.width}x${viewport.height}.png`) });
      await page.click('#start-exam');
      await page.waitForSelector('section.question');
      expect((await keyed().get(`/exams/${exam.id}/attempts`)).body).toHaveLength(1);
      // item 8: after Finish, "Exam finished" is a calm confirmation (a status), not the red error box
      await page.click('#open-submit');
      await page.click('#confirm-submit');
      await page.click('#finish');
      await page.waitForSelector('#signin-notice');
      expect(await page.getAttribute('#signin-notice', 'role')).toBe('status');
      expect(await page.textContent('#signin-notice')).toContain('Exam finished');
      expect(await page.isHidden('#signin-alert')).toBe(true);
      const colours = await page.$eval('#signin-notice', (el) => getComputedStyle(el).backgroundColor);
      expect(colours).toBe('rgb(227, 244, 232)'); // --ok-bg, the green of a confirmation
      await context.close();
    }, STEP_MS);
  }
});
