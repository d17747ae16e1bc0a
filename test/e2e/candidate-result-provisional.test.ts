/**
 * The result screen while essays are unmarked (issue 20 item 4): score, percentage and
 * grade count the essay as 0 until an examiner marks it, so each is tagged "provisional"
 * and the title and note say so; the large grade alone must never read as final. An exam
 * without essays shows a plain, final result.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sampleMcqs, type TestServer } from '../harness.js';
import { openPage, seedExam, shot, pageSuite } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started));

const ESSAY = { prompt: 'Why do we boil drinking water?', type: 'SHORT_ESSAY', marks: 4 };

/** Signs in typing key by key, presses Start, answers every MCQ with A, types the essay, submits. */
async function sitAndSubmit(page: Page, accessCode: string, studentId: string): Promise<void> {
  for (const [sel, value] of [['#accessCode', accessCode], ['#candidateName', 'Tunde Bello'], ['#studentId', studentId], ['#candidatePin', '2580']]) {
    await page.click(sel!);
    await page.keyboard.type(value!);
  }
  await page.keyboard.press('Enter');
  await page.click('#start-exam');
  await page.waitForSelector('section.question');
  const n = await page.locator('.nav-q').count();
  for (let i = 0; i < n; i++) {
    await page.click(`.nav-q[data-index="${i}"]`);
    await page.waitForFunction((k) => document.querySelector('#q-title')?.textContent?.startsWith(`Question ${k + 1}`), i);
    if (await page.locator('#essay').count()) {
      await page.click('#essay');
      await page.keyboard.type('Boiling kills the germs in the water so that people do not catch cholera or typhoid from drinking it at home or at school.');
    } else await page.keyboard.press('a');
  }
  await page.click('#open-submit');
  await page.click('#confirm-submit');
  await page.waitForSelector('#screen-result');
}

describe('candidate result screen', () => {
  it('marks score, percentage and grade as provisional while an essay awaits marking', async () => {
    // four MCQs, all answered right (key A): 4 of 8 marks → 50 %, C6, with the essay at 0
    const seeded = await seedExam(server.baseUrl, [...sampleMcqs(4), ESSAY]);
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await sitAndSubmit(page, seeded.accessCode, 'PROV-1');
    expect(await page.textContent('#result-title')).toBe('Your provisional result');
    expect(await page.getAttribute('#score', 'data-provisional')).toBe('true');
    expect(await page.textContent('#score-grade')).toBe('C6');
    // each figure carries the tag, next to it and visible
    for (const id of ['#score-value', '#score-percentage', '#score-grade']) {
      const tag = page.locator(`dd:has(${id}) .provisional-tag`);
      expect(await tag.isVisible()).toBe(true);
      expect((await tag.textContent())!.trim().toLowerCase()).toBe('provisional');
    }
    expect(await page.textContent('#provisional-note')).toContain('will change when the examiner marks them');
    await shot(page, 'candidate-result-provisional');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows a final result, with no provisional tag, when there is nothing left to mark', async () => {
    const seeded = await seedExam(server.baseUrl, sampleMcqs(4));
    const { page, context } = await openPage(browser, server.baseUrl);
    await sitAndSubmit(page, seeded.accessCode, 'FINAL-1');
    expect(await page.textContent('#result-title')).toBe('Your result');
    expect(await page.getAttribute('#score', 'data-provisional')).toBe('false');
    expect(await page.textContent('#score-grade')).toBe('A1');
    expect(await page.locator('.provisional-tag, #provisional-note').count()).toBe(0);
    await context.close();
  }, 60_000);
});
