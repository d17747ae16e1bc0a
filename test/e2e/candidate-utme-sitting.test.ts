/**
 * A whole UTME sitting as a candidate does it (issue 37's browser "Done when"), in real
 * Chromium at 1024×768 on one exam made through the real API: four `sections` (Use of
 * English compulsory, Mathematics, Physics and Chemistry chosen), a scientific calculator,
 * 180 questions (60 + 40 + 40 + 40, one English question a short essay) and a roster
 * candidate with those three subjects and 25 % extra time. The candidate signs in with the
 * roster PIN, turns Large text on, switches subjects by tab click and by keyboard, finds
 * question 61 (Mathematics 1 of 40) with the timer (2 h 30 min of a 2-hour paper) and
 * Submit in view, answers with A–D, flags with F, computes `2.5*(3+4)` and `sin 30` in the
 * calculator by keyboard (Alt+C, Escape), types an essay key by key that sets off no
 * shortcut, and submits through the dialog, which counts per subject; the server's result
 * has the same per-subject scores. Screenshots: docs/screenshots/candidate-utme-sitting-1024.png
 * (the calculator over the sitting) and candidate-utme-sitting-q61-1024.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, ROOT, type TestServer } from '../harness.js';
import { currentAttemptId, openPage, pageSuite, seedExam, signInAndStart, waitAllSaved } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
// jobs: the answer flush runs, so the page can say "All answers saved"
pageSuite((started) => ({ browser, server } = started), { jobs: true });

const SHOTS = join(ROOT, 'docs', 'screenshots');
const VIEWPORT = { width: 1024, height: 768 };
const ENGLISH = 'Use of English';
const SUBJECTS: [string, number][] = [[ENGLISH, 60], ['Mathematics', 40], ['Physics', 40], ['Chemistry', 40]];

/** The 180 questions: MCQs whose option B is right; English 60 a short essay. */
function utmePaper() {
  const out: unknown[] = [];
  for (const [section, n] of SUBJECTS) {
    for (let i = 1; i <= n; i++) {
      if (section === ENGLISH && i === n) {
        out.push({ section, type: 'SHORT_ESSAY', marks: 2, prompt: 'In two sentences, say why reading widely helps a writer.' });
        continue;
      }
      out.push({ section, type: 'MCQ', marks: 1, prompt: `${section} question ${i}: which of these is ${i} + ${i}?`, options: [0, 1, 2, 3].map((j) => ({ text: String(2 * i + j - 1), isCorrect: j === 1 })) });
    }
  }
  return out;
}

const tab = (subject: string) => `[role=tab][data-subject="${subject}"]`;
const heading = (page: Page) => page.textContent('#q-title');
const waitHeading = (page: Page, text: string) => page.waitForFunction((t) => document.querySelector('#q-title')?.textContent === t, text);
const selectedTab = (page: Page) => page.getAttribute('[role=tab][aria-selected=true]', 'data-subject');
const count = async (page: Page, subject: string) => page.textContent(`${tab(subject)} .subject-count`);
/** true when the element lies wholly inside the viewport */
const inView = (page: Page, selector: string) =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  });
const calculatorOpen = (page: Page) => page.evaluate(() => { const c = document.getElementById('calculator'); return !!c && !c.hidden; });
const calcShown = (page: Page) => page.evaluate(() => ({ expression: document.getElementById('calc-expr')?.textContent, value: document.getElementById('calc-value')?.textContent }));

describe('candidate page: a UTME sitting from sign-in to submit', () => {
  it('a roster candidate with subjects and 25 % extra time sits a 180-question, 4-subject paper at 1024×768 with large text, tabs, keys, the calculator and an essay', async () => {
    // the examiner: the exam, its paper and the roster, through the real API
    const seeded = await seedExam(server.baseUrl, utmePaper(), {
      title: 'UTME mock — sitting 1',
      durationMins: 120,
      calculator: 'scientific',
      showResultAfter: true,
      sections: [{ name: ENGLISH }, { name: 'Mathematics', compulsory: false }, { name: 'Physics', compulsory: false }, { name: 'Chemistry', compulsory: false }],
    });
    expect(seeded.questions).toHaveLength(180);
    const key = api(server.baseUrl, seeded.apiKey);
    const added = await key.post(`/exams/${seeded.examId}/roster`, { candidates: [{ studentId: 'UTME-2026-0001', candidateName: 'Amaka Nwosu', extraTimePercent: 25, subjects: ['mathematics', 'Physics', 'Chemistry'] }] });
    expect(added.status).toBe(201);
    const entry = added.body.candidates[0] as { pin: string; subjects: string[]; extraTimePercent: number };
    expect(entry).toMatchObject({ subjects: ['Mathematics', 'Physics', 'Chemistry'], extraTimePercent: 25 });

    // the candidate signs in with the roster PIN
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: VIEWPORT });
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Amaka Nwosu', studentId: 'UTME-2026-0001', pin: entry.pin });
    await page.waitForSelector('#subject-tabs');
    expect(await page.$$eval('[role=tab]', (ts) => ts.map((t) => t.getAttribute('data-subject')))).toEqual([ENGLISH, 'Mathematics', 'Physics', 'Chemistry']);
    await waitHeading(page, `${ENGLISH} 1 of 60`);
    // 120 min × 1.25 = 2 h 30 min on the clock
    await page.waitForFunction(() => /^2:(29:[45]\d|30:00)$/.test(document.getElementById('timer')?.textContent ?? ''));

    // Large text on: one click
    await page.click('button.look:has-text("Large text")');
    expect(await page.evaluate(() => ({ cls: document.documentElement.className, px: getComputedStyle(document.documentElement).fontSize }))).toEqual({ cls: 'lt', px: '20px' });
    expect(await page.getAttribute('button.look:has-text("Large text")', 'aria-pressed')).toBe('true');

    // English 1 answered with the A key
    await page.click('#q-title');
    await page.keyboard.press('a');
    await page.waitForSelector('label.option.chosen[data-key=A]');
    expect(await count(page, ENGLISH)).toBe('1/60');

    // a tab click: question 61 of the paper is Mathematics 1 of 40; timer and Submit in view, with large text
    await page.click(tab('Mathematics'));
    await waitHeading(page, 'Mathematics 1 of 40');
    expect(await page.getAttribute('section.question', 'data-question-id')).toBe(seeded.questions[60]!.id);
    expect(await selectedTab(page)).toBe('Mathematics');
    expect(await inView(page, '#timer')).toBe(true);
    expect(await inView(page, '#open-submit')).toBe(true);
    expect(await page.textContent('#timer')).toMatch(/^2:(29:[0-5]\d|30:00)$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORT.width);
    expect(await page.locator('#subject-nav .nav-q').count()).toBe(40);
    expect(await page.textContent('#subject-nav .nav-q[data-index="60"]')).toBe('1');

    // A–D answer, N moves on, P back, F flags (kept by the server)
    for (const [i, letter] of ['b', 'c', 'd', 'a'].entries()) {
      await waitHeading(page, `Mathematics ${i + 1} of 40`);
      await page.keyboard.press(letter);
      await page.waitForSelector(`label.option.chosen[data-key=${letter.toUpperCase()}]`);
      await page.keyboard.press('n');
    }
    await waitHeading(page, 'Mathematics 5 of 40');
    await page.keyboard.press('p');
    await page.keyboard.press('p');
    await waitHeading(page, 'Mathematics 3 of 40');
    expect(await page.getAttribute('label.option.chosen', 'data-key')).toBe('D');
    // large text makes the question taller than its pane: the pane scrolls, the page does not, and the choice is shown
    expect(await inView(page, 'label.option.chosen')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(VIEWPORT.height);
    const flagSaved = page.waitForResponse((r) => r.url().includes('/flags/') && r.request().method() === 'PUT');
    await page.keyboard.press('f');
    expect((await flagSaved).status()).toBe(200);
    await page.waitForSelector('#subject-nav .nav-q[data-index="62"].flagged');
    expect(await count(page, 'Mathematics')).toBe('4/40 · ⚑1');
    await waitAllSaved(page);
    mkdirSync(SHOTS, { recursive: true });
    await page.click(tab('Mathematics'));
    await page.click('#subject-nav .nav-q[data-index="60"]');
    await waitHeading(page, 'Mathematics 1 of 40');
    expect(await inView(page, '#timer')).toBe(true);
    expect(await inView(page, '#open-submit')).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'candidate-utme-sitting-q61-1024.png') });

    // tabs by keyboard: → ← Home End, the focus staying on the tabs; a subject reopens where it was left
    await page.focus('[role=tab][aria-selected=true]');
    await page.keyboard.press('ArrowRight');
    await waitHeading(page, 'Physics 1 of 40');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-subject'))).toBe('Physics');
    await page.keyboard.press('End');
    await waitHeading(page, 'Chemistry 1 of 40');
    await page.keyboard.press('Home');
    await waitHeading(page, `${ENGLISH} 1 of 60`);
    await page.keyboard.press('ArrowRight');
    await waitHeading(page, 'Mathematics 1 of 40');
    expect(await selectedTab(page)).toBe('Mathematics');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-subject'))).toBe('Mathematics');

    // the calculator by keyboard: Alt+C, 2.5*(3+4) Enter, sin 30 (s is sin), Escape
    await page.keyboard.press('Alt+KeyC');
    await page.waitForSelector('#calculator:not([hidden])');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('calculator');
    await page.keyboard.type('2.5*(3+4)');
    await page.keyboard.press('Enter');
    expect(await calcShown(page)).toEqual({ expression: '2.5×(3+4) =', value: '17.5' });
    await page.keyboard.type('s30');
    await page.keyboard.press('Enter');
    expect(await calcShown(page)).toEqual({ expression: 'sin(30) =', value: '0.5' });
    // the keys went to the calculator alone: the same question, its answer unchanged, nothing flagged or opened
    expect(await heading(page)).toBe('Mathematics 1 of 40');
    expect(await page.getAttribute('label.option.chosen', 'data-key')).toBe('B');
    expect(await count(page, 'Mathematics')).toBe('4/40 · ⚑1');
    expect(await page.$('#submit-dialog')).toBeNull();
    // the panel stays inside the window and leaves the question uncovered, large text and all
    const panel = (await page.locator('#calculator').boundingBox())!;
    const question = (await page.locator('#main').boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(question.x + question.width);
    expect(panel.y + panel.height).toBeLessThanOrEqual(VIEWPORT.height);
    expect(panel.x + panel.width).toBeLessThanOrEqual(VIEWPORT.width);
    await page.screenshot({ path: join(SHOTS, 'candidate-utme-sitting-1024.png') });
    await page.keyboard.press('Escape');
    expect(await calculatorOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('calc-open');

    // an essay typed key by key: every shortcut letter, and Alt+C, are only text there
    await page.click(tab(ENGLISH));
    await waitHeading(page, `${ENGLISH} 1 of 60`);
    await page.click('#subject-nav .nav-q[data-index="59"]');
    await waitHeading(page, `${ENGLISH} 60 of 60`);
    await page.click('#essay');
    const text = 'Reading widely gives a writer words: a b c d, n p f s, A B C D and 1 2 3 4 are only letters here. So: N, P, F, S!';
    await page.keyboard.type(text);
    await page.keyboard.press('Alt+KeyC');
    await page.keyboard.type(' Done.');
    expect(await page.inputValue('#essay')).toBe(`${text} Done.`);
    expect(await heading(page)).toBe(`${ENGLISH} 60 of 60`);
    expect(await calculatorOpen(page)).toBe(false);
    expect(await page.$('#submit-dialog')).toBeNull();
    expect(await page.getAttribute('#flag', 'aria-pressed')).toBe('false');
    expect(await page.locator('.nav-q.flagged').count()).toBe(0); // only English's navigator is shown
    expect(await count(page, ENGLISH)).toBe('2/60');
    expect(await count(page, 'Mathematics')).toBe('4/40 · ⚑1');
    expect(await count(page, 'Physics')).toBe('0/40');
    expect(await count(page, 'Chemistry')).toBe('0/40');
    await waitAllSaved(page);

    // Submit, through the dialog that counts per subject
    const attemptId = await currentAttemptId(page);
    await page.click('#open-submit');
    await page.waitForSelector('#submit-dialog');
    const bySubject = async (name: string) => (await page.textContent(`#submit-by-subject li[data-subject="${name}"]`))!.replace(/\s+/g, ' ');
    expect(await bySubject(ENGLISH)).toContain(`${ENGLISH} — 58 of 60 unanswered`);
    expect(await bySubject('Mathematics')).toContain('Mathematics — 36 of 40 unanswered, 1 flagged');
    expect(await bySubject('Physics')).toContain('Physics — 40 of 40 unanswered');
    expect(await bySubject('Chemistry')).toContain('Chemistry — 40 of 40 unanswered');
    await page.click('#confirm-submit');
    await page.waitForSelector('#screen-result');
    // English 1 (A) wrong, Mathematics 1 (B) right; the essay waits for the examiner: 1 of 181, provisional
    expect(await page.textContent('#score-value')).toBe('1 / 181');
    expect(await page.getAttribute('#score', 'data-provisional')).toBe('true');
    const result = await key.get(`/attempts/${attemptId}/result`);
    expect(result.status).toBe(200);
    expect(result.body.sectionScores).toEqual([
      { section: ENGLISH, score: 0, maxScore: 61 },
      { section: 'Mathematics', score: 1, maxScore: 40 },
      { section: 'Physics', score: 0, maxScore: 40 },
      { section: 'Chemistry', score: 0, maxScore: 40 },
    ]);
    expect(result.body).toMatchObject({ extraTimePercent: 25, totalQuestions: 180, pendingReview: true });
    const essay = (result.body.answers as { questionId: string; text: string | null }[]).find((a) => a.questionId === seeded.questions[59]!.id);
    expect(essay?.text).toBe(`${text} Done.`);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
