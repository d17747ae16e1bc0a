/**
 * The exam's instructions stay with the candidate (issue 37, "the instructions after a
 * reload"): at 1024×768 an "Instructions" button on the exam's top bar, in view and
 * reachable with Tab, opens them in a dialog while the clock runs on in view; the exam's
 * shortcut keys do nothing meanwhile and Escape closes it. After a reload mid-exam — with
 * the server answering, with this PC's copy of the instructions gone (the page asks GET
 * /attempts/:id/instructions) and with the server unreachable (the copy kept on this PC) —
 * the button and the text are back and the answer given is still there. An exam without
 * instructions shows no button.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, sampleMcqs, type TestServer } from '../harness.js';
import { currentAttemptId, currentQuestionId, openPage, pageSuite, seedExam, shot, signInAndStart, waitAllSaved } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
// jobs: the answer flush, so the page can say "All answers saved" before the reload
pageSuite((started) => ({ browser, server } = started), { jobs: true });

const VIEWPORT = { width: 1024, height: 768 };
const INSTRUCTIONS = 'Answer **all** questions in Use of English.\n\n- Calculators are *not* allowed in this paper\n- Each question carries one mark';

/** Where the button is: on screen without scrolling and not covered. */
async function buttonInView(page: Page) {
  return page.$eval('#open-instructions', (b) => {
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { inView: r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth, onTop: hit === b, scrollY: window.scrollY, label: b.textContent };
  });
}

/** Presses Tab until the Instructions button has the focus (at most 40 times); true when it got there. */
async function tabToButton(page: Page): Promise<boolean> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.id === 'open-instructions')) return true;
  }
  return false;
}

/** Opens the dialog with the keyboard and returns its text. */
async function openWithKeyboard(page: Page): Promise<string> {
  expect(await tabToButton(page)).toBe(true);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#instructions-dialog');
  return (await page.textContent('#instructions-dialog'))!;
}

describe('candidate page: the instructions during the exam', () => {
  it('opens them from the top bar at 1024×768, keeps the clock running in view, closes with Escape, and has them after a reload — online, without the local copy, and offline', async () => {
    const seeded = await seedExam(server.baseUrl, sampleMcqs(3), { title: 'UTME Use of English', durationMins: 30, instructions: INSTRUCTIONS });
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: VIEWPORT, serviceWorkers: 'block' });
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Ngozi Eze', studentId: 'INR-1', pin: '2468' });
    const attemptId = await currentAttemptId(page);
    const qid = await currentQuestionId(page);
    const optionB = seeded.questions.find((q) => q.id === qid)!.options[1]!.id;
    await page.keyboard.press('b');
    await page.waitForSelector(`label.chosen[data-option-id="${optionB}"]`);
    await waitAllSaved(page);

    // a reload mid-exam (F5, a browser restart)
    await page.reload();
    await page.waitForSelector(`label.chosen[data-option-id="${optionB}"]`);
    expect(await buttonInView(page)).toEqual({ inView: true, onTop: true, scrollY: 0, label: 'Instructions' });
    const text = await openWithKeyboard(page);
    expect(text).toContain('Answer all questions in Use of English.');
    expect(text).toContain('Calculators are not allowed in this paper');
    expect(await page.$eval('#instructions-dialog strong', (e) => e.textContent)).toBe('all');
    // the clock runs on, in view and not covered by the dialog
    const timerBefore = await page.textContent('#timer');
    await page.waitForTimeout(2200);
    const timer = await page.$eval('#timer', (t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, onTop: document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === t, inView: r.top >= 0 && r.bottom <= window.innerHeight };
    });
    expect(timer.text).not.toBe(timerBefore);
    expect(timer).toMatchObject({ onTop: true, inView: true });
    // the exam's shortcut keys do nothing while the dialog is open
    for (const k of ['c', 'n', 'f', 's']) await page.keyboard.press(k);
    expect(await page.$$('#submit-dialog')).toHaveLength(0);
    await shot(page, 'candidate-instructions-dialog-1024');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#instructions-dialog', { state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('open-instructions');
    // the same question, the same answer, no flag
    expect(await currentQuestionId(page)).toBe(qid);
    expect(await page.$$(`label.chosen[data-option-id="${optionB}"]`)).toHaveLength(1);
    expect(await page.getAttribute('#flag', 'aria-pressed')).toBe('false');
    const session = (await api(server.baseUrl).get(`/attempts/${attemptId}?questions=0`)).body;
    expect(session.answers).toEqual(expect.arrayContaining([expect.objectContaining({ questionId: qid, optionId: optionB })]));

    // a PC without the local copy (kept by an older page, or its storage was cleared): the page asks the server once and keeps it
    const asked: string[] = [];
    page.on('request', (r) => /\/attempts\/[^/?]+\/instructions/.test(r.url()) && asked.push(r.url()));
    await page.evaluate((id) => localStorage.removeItem(`hallcbt.${id}.instructions`), attemptId);
    await page.reload();
    await page.waitForSelector('#open-instructions');
    expect(asked).toHaveLength(1);
    expect(await page.evaluate((id) => localStorage.getItem(`hallcbt.${id}.instructions`), attemptId)).toContain('Use of English');
    await page.click('#open-instructions');
    expect(await page.textContent('#instructions-dialog')).toContain('Use of English');
    await page.click('#close-instructions');
    await page.waitForSelector('#instructions-dialog', { state: 'detached' });

    // the server unreachable: the exam goes on from this PC's copy, the instructions with it
    await context.route('**/attempts/**', (r) => r.abort());
    await page.reload();
    await page.waitForSelector(`label.chosen[data-option-id="${optionB}"]`);
    expect(await openWithKeyboard(page)).toContain('Calculators are not allowed in this paper');
    expect(asked).toHaveLength(1);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#instructions-dialog', { state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows no Instructions button for an exam without instructions, before or after a reload', async () => {
    const seeded = await seedExam(server.baseUrl, sampleMcqs(2), { title: 'No instructions' });
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: VIEWPORT });
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Bola Ade', studentId: 'INR-2', pin: '1357' });
    expect(await page.$$('#open-instructions')).toHaveLength(0);
    await page.reload();
    await page.waitForSelector('section.question');
    await page.waitForTimeout(500);
    expect(await page.$$('#open-instructions')).toHaveLength(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
