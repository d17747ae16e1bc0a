/**
 * The candidate's result screen of a JAMB-style sitting (issue 37's leftovers, item 2): when
 * the exam shows results and has sections, the screen lists the score of each subject the
 * candidate sat (the server's `sectionScores`) under the total, also after a reload; an exam
 * without sections shows no such list. Signed in, answered and submitted in real Chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sampleMcqs, type TestServer } from '../harness.js';
import { openPage, pageSuite, seedExam, signInAndStart } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started));

describe('candidate page: per-subject scores on the result', () => {
  it('lists each subject’s score under the total, also after a reload', async () => {
    const make = (section: string, n: number) => sampleMcqs(n).map((q, i) => ({ ...q, prompt: `${section} question ${i + 1}`, section }));
    const seeded = await seedExam(server.baseUrl, [...make('Use of English', 3), ...make('Physics', 2)], { sections: [{ name: 'Use of English', draw: 2 }, { name: 'Physics', draw: 1 }], showResultAfter: true });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Ngozi Eze', studentId: 'UTME-7', pin: '4826' });
    // the first question answered with B (a wrong option of sampleMcqs: option A is the key), the rest left
    await page.keyboard.press('b');
    await page.click('#open-submit');
    await page.click('#confirm-submit');
    await page.waitForSelector('#screen-result');
    for (let pass = 0; pass < 2; pass++) {
      expect(await page.textContent('#score-value')).toBe('0 / 3');
      await page.waitForSelector('#section-scores');
      const rows = await page.$$eval('#section-scores tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
      expect(rows).toEqual([['Use of English', '0 / 2'], ['Physics', '0 / 1']]);
      await page.reload();
      await page.waitForSelector('#screen-result');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows no subject list for an exam without sections', async () => {
    const seeded = await seedExam(server.baseUrl, sampleMcqs(2), { showResultAfter: true });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Tunde Ade', studentId: 'PLAIN-7', pin: '4826' });
    await page.click('#open-submit');
    await page.click('#confirm-submit');
    await page.waitForSelector('#screen-result');
    expect(await page.textContent('#score-value')).toBe('0 / 2');
    expect(await page.locator('#section-scores').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
