/**
 * A JAMB-style sitting on the candidate page (issue 37 item 8, "a page built for 180
 * questions"), in real Chromium at 1024×768 and 1366×768: a 180-question paper of four
 * subjects (English 60, Mathematics, Physics, Chemistry 40 each; the subjects come from the
 * questions' `section`, or the server's `sections` where it sends them) shows subject tabs,
 * numbers each question within its subject ("Mathematics 1 of 40"), keeps the timer and
 * Submit in view at question 61, and shows a navigator of the current subject only. Tabs
 * switch by click and by keyboard (← → End); A–D answer, N/P move, F flags, S opens the
 * submit dialog, which counts unanswered and flagged questions per subject; an essay typed
 * key by key sets off none of them. Flags are kept by the server: a fresh browser (another
 * PC) resuming the attempt shows them. A paper without sections looks as before (no tabs,
 * nothing more fetched). Screenshots: docs/screenshots/candidate-jamb-1024.png, -1366.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, type TestServer } from '../harness.js';
import { openPage, pageSuite, practicePaper, seedExam, signInAndStart, waitAllSaved } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
// jobs: the answer flush runs, so the page can say "All answers saved" before the screenshots
pageSuite((started) => ({ browser, server } = started), { jobs: true });

const SHOTS = join(ROOT, 'docs', 'screenshots');
const SUBJECTS: [string, number][] = [['English', 60], ['Mathematics', 40], ['Physics', 40], ['Chemistry', 40]];
/** The 180 questions: MCQs A–D, English 60 an essay. */
function jambPaper() {
  const out: unknown[] = [];
  for (const [section, n] of SUBJECTS) {
    for (let i = 1; i <= n; i++) {
      if (section === 'English' && i === n) {
        out.push({ section, type: 'SHORT_ESSAY', marks: 2, prompt: 'In two sentences, say why reading widely helps a writer.' });
        continue;
      }
      out.push({ section, type: 'MCQ', marks: 1, prompt: `${section} question ${i}: which of these is ${i} + ${i}?`, options: [0, 1, 2, 3].map((j) => ({ text: String(2 * i + j - 1), isCorrect: j === 1 })) });
    }
  }
  return out;
}

const heading = (page: Page) => page.textContent('#q-title');
const waitHeading = (page: Page, text: string) => page.waitForFunction((t) => document.querySelector('#q-title')?.textContent === t, text);
/** true when the element lies wholly inside the viewport */
const inView = (page: Page, selector: string) =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  });
const selectedTab = (page: Page) => page.getAttribute('[role=tab][aria-selected=true]', 'data-subject');

describe('candidate page: a 180-question paper of four subjects', () => {
  it.each([
    { width: 1024, height: 768 },
    { width: 1366, height: 768 },
  ])('tabs, per-subject numbering, timer and Submit in view, keys and the per-subject submit dialog at $width×$height', async (viewport) => {
    const seeded = await seedExam(server.baseUrl, jambPaper(), { title: 'UTME mock', durationMins: 120 });
    expect(seeded.questions).toHaveLength(180);
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    const candidate = { accessCode: seeded.accessCode, name: 'Amaka Nwosu', studentId: `UTME-${viewport.width}`, pin: '2468' };
    await signInAndStart(page, candidate);
    await page.waitForSelector('#subject-tabs');
    expect(await page.$$eval('[role=tab]', (ts) => ts.map((t) => t.getAttribute('data-subject')))).toEqual(['English', 'Mathematics', 'Physics', 'Chemistry']);
    expect(await selectedTab(page)).toBe('English');
    await waitHeading(page, 'English 1 of 60');
    // the tabs' own script and stylesheet, fetched for a paper of sections
    expect(fetched.filter((p) => /^\/candidate\/sections\.[0-9a-f]{10}\.(js|css)$/.test(p)).length).toBe(2);
    expect(await page.textContent('footer.shortcuts')).toContain('S submit');

    // question 61 of the paper is Mathematics 1 of 40; the timer and Submit stay in view
    await page.click('[role=tab][data-subject=Mathematics]');
    await waitHeading(page, 'Mathematics 1 of 40');
    expect(await page.getAttribute('section.question', 'data-question-id')).toBe(seeded.questions[60]!.id);
    expect(await selectedTab(page)).toBe('Mathematics');
    expect(await inView(page, '#timer')).toBe(true);
    expect(await inView(page, '#open-submit')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(viewport.height);
    // a navigator of this subject only, whole in view, numbered within it
    expect(await page.locator('#subject-nav .nav-q').count()).toBe(40);
    expect(await page.isHidden('#navigator')).toBe(true);
    expect(await inView(page, '#subject-nav .nav-q[data-index="99"]')).toBe(true);
    expect(await page.textContent('#subject-nav .nav-q[data-index="60"]')).toBe('1');

    // A–D answer, N/P move, F flags (sent to the server)
    await page.keyboard.press('b');
    await page.waitForSelector('label.option.chosen[data-key=B]');
    await page.keyboard.press('n');
    await waitHeading(page, 'Mathematics 2 of 40');
    await page.keyboard.press('d');
    await page.waitForSelector('label.option.chosen[data-key=D]');
    await page.keyboard.press('p');
    await waitHeading(page, 'Mathematics 1 of 40');
    expect(await page.getAttribute('label.option.chosen', 'data-key')).toBe('B');
    const flagSaved = page.waitForResponse((r) => r.url().includes('/flags/') && r.request().method() === 'PUT');
    await page.keyboard.press('f');
    expect((await flagSaved).status()).toBe(200);
    await page.waitForSelector('#subject-nav .nav-q[data-index="60"].flagged');
    expect(await page.textContent('[role=tab][data-subject=Mathematics] .subject-count')).toBe('2/40 · ⚑1');
    expect(await page.textContent('#subject-summary')).toBe('2 of 40 answered · 1 flagged');
    await waitAllSaved(page);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `candidate-jamb-${viewport.width}.png`) });

    // N past a subject's last question goes on into the next subject
    await page.click('#subject-nav .nav-q[data-index="99"]');
    await waitHeading(page, 'Mathematics 40 of 40');
    await page.keyboard.press('n');
    await waitHeading(page, 'Physics 1 of 40');
    expect(await selectedTab(page)).toBe('Physics');

    // tabs by keyboard: ← → End, the focus staying on the tabs; a subject reopens where it was left
    await page.focus('[role=tab][aria-selected=true]');
    await page.keyboard.press('ArrowLeft');
    await waitHeading(page, 'Mathematics 40 of 40');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-subject'))).toBe('Mathematics');
    await page.keyboard.press('ArrowLeft');
    await waitHeading(page, 'English 1 of 60');
    await page.keyboard.press('End');
    await waitHeading(page, 'Chemistry 1 of 40');
    await page.keyboard.press('ArrowRight');
    await waitHeading(page, 'English 1 of 60');
    expect(await selectedTab(page)).toBe('English');

    // S opens the submit dialog, counting per subject
    await page.keyboard.press('s');
    await page.waitForSelector('#submit-dialog');
    const bySubject = async (name: string) => (await page.textContent(`#submit-by-subject li[data-subject=${name}]`))!.replace(/\s+/g, ' ');
    expect(await bySubject('English')).toContain('English — 60 of 60 unanswered');
    expect(await bySubject('Mathematics')).toContain('Mathematics — 38 of 40 unanswered, 1 flagged');
    expect(await bySubject('Physics')).toContain('Physics — 40 of 40 unanswered');
    expect(await bySubject('Chemistry')).toContain('Chemistry — 40 of 40 unanswered');
    // a link back to a subject's question, numbered within it
    await page.click('#submit-by-subject li[data-subject=Mathematics] button[aria-label="Go to Mathematics question 3"]');
    await waitHeading(page, 'Mathematics 3 of 40');
    expect(await page.isHidden('#submit-dialog')).toBe(true);

    // an essay typed key by key sets off no shortcut
    await page.click('[role=tab][data-subject=English]');
    await page.click('#subject-nav .nav-q[data-index="59"]');
    await waitHeading(page, 'English 60 of 60');
    await page.click('#essay');
    const text = 'Reading widely gives a writer words: a b c d e, n p f s and 1 2 3 are only letters here. So: N, P, F, S!';
    await page.keyboard.type(text);
    expect(await page.inputValue('#essay')).toBe(text);
    expect(await heading(page)).toBe('English 60 of 60');
    expect(await page.$('#submit-dialog')).toBeNull();
    expect(await page.locator('#subject-nav .nav-q.flagged').count()).toBe(0);
    expect(await page.getAttribute('#flag', 'aria-pressed')).toBe('false');
    expect(errors).toEqual([]);
    await context.close();

    if (viewport.width !== 1024) return;
    // another PC: a fresh browser signs in again and finds the flag (and the answers)
    const other = await openPage(browser, server.baseUrl, { viewport });
    await signInAndStart(other.page, candidate);
    await other.page.waitForSelector('#subject-tabs');
    await other.page.click('[role=tab][data-subject=Mathematics]');
    await waitHeading(other.page, 'Mathematics 1 of 40');
    await other.page.waitForSelector('#subject-nav .nav-q[data-index="60"].flagged');
    expect(await other.page.getAttribute('#flag', 'aria-pressed')).toBe('true');
    expect(await other.page.getAttribute('label.option.chosen', 'data-key')).toBe('B');
    expect(await other.page.textContent('[role=tab][data-subject=Mathematics] .subject-count')).toBe('2/40 · ⚑1');
    // and clears it there, for good
    const cleared = other.page.waitForResponse((r) => r.url().includes('/flags/') && r.request().method() === 'PUT');
    await other.page.keyboard.press('f');
    expect((await cleared).status()).toBe(200);
    const session = await (await fetch(`${server.baseUrl}/attempts/${await other.page.evaluate(() => JSON.parse(localStorage.getItem('hallcbt.current') || '{}').attemptId)}`)).json();
    expect(session.flagged).toEqual([]);
    expect(other.errors).toEqual([]);
    await other.context.close();
  }, 90_000);

  it('shows a paper without sections as before: no tabs, nothing more fetched; S opens Submit there too', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 3));
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Tunde Bello', studentId: 'PLAIN-1', pin: '1357' });
    expect(await heading(page)).toBe('Question 1 of 3');
    expect(await page.$('#subject-tabs')).toBeNull();
    expect(await page.isVisible('#navigator #open-submit')).toBe(true);
    expect(fetched.filter((p) => p.includes('/sections.'))).toEqual([]);
    await page.keyboard.press('s');
    await page.waitForSelector('#submit-dialog');
    expect(await page.$('#submit-by-subject')).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
});
