/**
 * The score on the candidate page follows the exam's showResultAfter (issue 34, finding
 * 4: in an open room a visible score is a key oracle, so an examiner may hide it): hidden,
 * the page shows the receipt only — no score, percentage or grade anywhere on it, and not
 * after a reload either; shown, it shows them. Signed in key by key, as a person would.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sampleMcqs, type TestServer } from '../harness.js';
import { openPage, pageSuite, seedExam, typeInto } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started));

/** Signs in typing key by key, presses Start, answers every question with A, submits. */
async function sitAndSubmit(page: Page, accessCode: string, studentId: string): Promise<void> {
  await typeInto(page, '#accessCode', accessCode);
  await typeInto(page, '#candidateName', 'Ngozi Eze');
  await typeInto(page, '#studentId', studentId);
  await typeInto(page, '#candidatePin', '4826');
  await page.keyboard.press('Enter');
  await page.click('#start-exam');
  await page.waitForSelector('section.question');
  const n = await page.locator('.nav-q').count();
  for (let i = 0; i < n; i++) {
    await page.click(`.nav-q[data-index="${i}"]`);
    await page.waitForFunction((k) => document.querySelector('#q-title')?.textContent?.startsWith(`Question ${k + 1}`), i);
    await page.keyboard.press('a');
  }
  await page.click('#open-submit');
  await page.click('#confirm-submit');
  await page.waitForSelector('#screen-result');
}

/** Whether the result screen's text carries any of the result's numbers or its grade. */
async function resultText(page: Page): Promise<string> {
  return (await page.textContent('#screen-result')) ?? '';
}

describe('candidate page: the score follows showResultAfter', () => {
  it('hidden: a receipt without score, percentage or grade, also after a reload', async () => {
    const seeded = await seedExam(server.baseUrl, sampleMcqs(3), { showResultAfter: false });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await sitAndSubmit(page, seeded.accessCode, 'HID-1');
    for (let pass = 0; pass < 2; pass++) {
      expect(await page.textContent('#result-title')).toBe('Exam submitted');
      expect(await page.locator('#score, #score-value, #score-percentage, #score-grade').count()).toBe(0);
      const text = await resultText(page);
      expect(text).not.toMatch(/Score|Percentage|Grade|\b3 \/ 3\b|100%|A1/);
      expect(await page.locator('#receipt-attempt').count()).toBe(1);
      await page.reload();
      await page.waitForSelector('#screen-result');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shown: score, percentage and grade', async () => {
    const seeded = await seedExam(server.baseUrl, sampleMcqs(3), { showResultAfter: true });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await sitAndSubmit(page, seeded.accessCode, 'SHOW-1');
    expect(await page.textContent('#result-title')).toBe('Your result');
    expect(await page.textContent('#score-value')).toBe('3 / 3');
    expect(await page.textContent('#score-percentage')).toBe('100%');
    expect(await page.textContent('#score-grade')).toBe('A1');
    expect(errors).toEqual([]);
    await context.close();
  });
});
