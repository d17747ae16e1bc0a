/**
 * The candidate page in real Chromium against the real app (issue 4): sign-in
 * messages, a whole WAEC Physics 2023 paper taken with keyboard and mouse and graded
 * as expected, the navigator and submit confirmation, and the result screen.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, startAttempt, type TestServer } from '../harness.js';
import { answerKey, currentQuestionId, fillSignIn, openPage, physicsPaper, practicePaper, seedExam, shot, signInAndStart, pageSuite } from './candidate-helpers.js';
import { describeReal } from '../real-papers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started), { jobs: true });

describe('candidate page: sign-in', () => {
  it('explains a wrong room code, a wrong PIN (or student ID) and an exam that is not open yet', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 3));
    const opensAt = new Date(Date.now() + 3 * 3600_000);
    const later = await seedExam(server.baseUrl, practicePaper().slice(0, 3), { startsAt: opensAt.toISOString() });
    await startAttempt(server.baseUrl, seeded.accessCode, 'PIN-1', '1234');
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await shot(page, 'candidate-signin');

    await fillSignIn(page, { accessCode: 'ZZZZZZ', name: 'Ada Obi', studentId: 'S1', pin: '1234' });
    await expect.poll(() => page.textContent('#signin-alert')).toContain('Room code not recognised');

    await fillSignIn(page, { accessCode: seeded.accessCode, name: 'Ada Obi', studentId: 'PIN-1', pin: '9999' });
    // a wrong PIN and an ID not on the roster get one message: check both, ask the invigilator
    await expect.poll(() => page.textContent('#signin-alert')).toContain('Student ID or PIN not accepted');
    expect(await page.textContent('#signin-alert')).toMatch(/student ID and your PIN.*invigilator/);

    await fillSignIn(page, { accessCode: later.accessCode.toLowerCase(), name: 'Ada Obi', studentId: 'S2', pin: '1234' });
    await expect.poll(() => page.textContent('#signin-alert')).toContain('Exam not open yet');
    const shown = await page.textContent('#signin-alert');
    // the opening time is shown in the PC's local time, not as a raw ISO string
    expect(shown).not.toContain(opensAt.toISOString());
    expect(shown).toMatch(/opens at .*\d{2}:\d{2}/);

    // client-side validation: a PIN must be 4–8 digits
    await fillSignIn(page, { accessCode: seeded.accessCode, name: 'Ada Obi', studentId: 'S3', pin: '12' });
    await expect.poll(() => page.textContent('#candidatePin-err')).toContain('4 to 8 digits');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describeReal('candidate page: a whole paper', () => {
  it('takes the 50-question WAEC Physics 2023 paper and gets the expected score', async () => {
    const seeded = await seedExam(server.baseUrl, physicsPaper(), { title: 'WAEC Physics 2023', shuffleQuestions: true, shuffleChoices: true, durationMins: 60, maxTabViolations: 5 });
    expect(seeded.questions).toHaveLength(50);
    const key = answerKey(seeded);
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await fillSignIn(page, { accessCode: seeded.accessCode, name: 'Chinedu Okafor', studentId: 'WAEC-001', pin: '2468' });
    await page.waitForSelector('#start-exam');
    expect(await page.textContent('#screen-instructions')).toContain('50');
    await shot(page, 'candidate-instructions');
    await page.click('#start-exam');
    await page.waitForSelector('section.question');

    // Plan: 38 right, 10 wrong, 2 left blank → 38 / 50 = 76 % → A1.
    const plan = new Map<number, 'right' | 'wrong' | 'blank'>();
    for (let i = 0; i < 50; i++) plan.set(i, i < 38 ? 'right' : i < 48 ? 'wrong' : 'blank');
    for (let i = 0; i < 50; i++) {
      const qid = await currentQuestionId(page);
      const action = plan.get(i)!;
      if (action !== 'blank') {
        const correct = key.get(qid)!;
        const stored = seeded.questions.find((q) => q.id === qid)!;
        const optionId = action === 'right' ? correct : stored.options.find((o) => !o.isCorrect)!.id;
        if (i % 2 === 0) {
          // keyboard, as CBT centres teach: the letter shown next to the option
          const letter = (await page.getAttribute(`label[data-option-id="${optionId}"]`, 'data-key'))!;
          await page.keyboard.press(letter.toLowerCase());
        } else {
          await page.click(`label[data-option-id="${optionId}"]`);
        }
        await page.waitForSelector(`label.chosen[data-option-id="${optionId}"]`);
      }
      if (i === 7) await page.keyboard.press('f');
      if (i < 49) {
        await page.keyboard.press('n');
        await page.waitForFunction((n) => document.querySelector('#q-title')?.textContent?.startsWith(`Question ${n}`), i + 2);
      }
    }
    await page.click('.nav-q[data-index="3"]');
    await page.waitForFunction(() => document.querySelector('#q-title')?.textContent?.startsWith('Question 4'));
    await page.waitForFunction(() => document.getElementById('conn-status')?.textContent === 'All answers saved', undefined, { timeout: 20_000 });
    expect(await page.textContent('#save-state')).toBe('Saved');
    expect(await page.locator('.nav-q.answered').count()).toBe(48);
    expect(await page.locator('.nav-q.flagged').count()).toBe(1);
    await shot(page, 'candidate-navigator');

    await page.click('#open-submit');
    await page.waitForSelector('#submit-dialog');
    const dialog = (await page.textContent('#submit-dialog'))!;
    expect(dialog).toContain('You have not answered 2 questions');
    expect(await page.locator('#submit-dialog ul[aria-label="Unanswered questions"] li').allTextContents()).toEqual(['49', '50']);
    expect(await page.locator('#submit-dialog ul[aria-label="Flagged questions"] li').allTextContents()).toEqual(['8']);
    await shot(page, 'candidate-submit-confirm');
    await page.click('#confirm-submit');
    await page.waitForSelector('#screen-result');
    expect(await page.textContent('#score-value')).toBe('38 / 50');
    expect(await page.textContent('#score-percentage')).toBe('76%');
    expect(await page.textContent('#score-grade')).toBe('A1');
    await shot(page, 'candidate-result');

    // the server agrees, answer by answer
    const attemptId = await page.evaluate(() => JSON.parse(localStorage.getItem('hallcbt.current') || '{}').attemptId);
    const result = await api(server.baseUrl, seeded.apiKey).get(`/attempts/${attemptId}/result`);
    expect(result.status).toBe(200);
    expect(result.body.score).toBe(38);
    expect(result.body.grade).toBe('A1');
    // local copies are dropped once the server holds the final answers
    expect(await page.evaluate((id) => localStorage.getItem(`hallcbt.${id}.pending`), attemptId)).toBeNull();
    // Finish returns the PC to the sign-in form for the next candidate
    await page.click('#finish');
    await page.waitForSelector('#screen-signin');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('candidate page: the result', () => {
  it('shows a receipt instead of the score when the exam hides results', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 2), { showResultAfter: false });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Bola Ade', studentId: 'R-1', pin: '1357' });
    await page.keyboard.press('a');
    await page.click('#next');
    await page.click('#next'); // "Review and submit" on the last question
    await page.click('#confirm-submit');
    await page.waitForSelector('#screen-result');
    expect(await page.textContent('#result-title')).toBe('Exam submitted');
    expect(await page.locator('#score').count()).toBe(0);
    const attemptId = await page.evaluate(() => JSON.parse(localStorage.getItem('hallcbt.current') || '{}').attemptId);
    expect(await page.textContent('#receipt-attempt')).toBe(attemptId);
    expect(await page.textContent('#receipt-time')).toMatch(/\d{2}:\d{2}/);
    // a reload shows the same receipt (the PC keeps pointing at the finished attempt)
    await page.reload();
    await page.waitForSelector('#screen-result');
    expect(await page.textContent('#receipt-attempt')).toBe(attemptId);
    expect(errors).toEqual([]);
    await context.close();
  });
});
