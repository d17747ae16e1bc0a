/**
 * Reading the instructions costs no exam time (issue 20 item 4): after signing in a
 * candidate reads the title, duration, number of questions and rules with no attempt
 * started, no credit spent and no question sent; the clock starts when they press
 * "Start exam", which is on screen without scrolling at 1366×768 and 1024×768.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, sampleMcqs, type TestServer } from '../harness.js';
import { currentAttemptId, openPage, seedExam, shot, pageSuite } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started));

const ESSAY = { prompt: 'Describe the water cycle.', type: 'SHORT_ESSAY', marks: 5 };

describe('candidate page: instructions before the clock', () => {
  for (const viewport of [{ width: 1366, height: 768 }, { width: 1024, height: 768 }]) {
    it(`shows the instructions with no clock running and "Start exam" in view at ${viewport.width}×${viewport.height}; the clock starts at Start`, async () => {
      const seeded = await seedExam(server.baseUrl, [...sampleMcqs(3), ESSAY], { title: 'Basic Science mock', durationMins: 30, maxTabViolations: 2 });
      const examiner = api(server.baseUrl, seeded.apiKey);
      const credits = async () => (await examiner.get('/workspaces/me')).body.credits as number;
      const creditsBefore = await credits();
      const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport });
      const paperSeen: string[] = [];
      page.on('response', async (r) => {
        if (r.request().method() === 'POST' && r.url().endsWith('/attempts/preview')) paperSeen.push(await r.text());
      });
      for (const [sel, value] of [['#accessCode', seeded.accessCode], ['#candidateName', 'Halima Musa'], ['#studentId', `READ-${viewport.width}`], ['#candidatePin', '3690']]) {
        await page.click(sel!);
        await page.keyboard.type(value!);
      }
      await page.keyboard.press('Enter');
      await page.waitForSelector('#screen-instructions');
      const text = (await page.textContent('#screen-instructions'))!;
      expect(text).toContain('Basic Science mock');
      expect(text).toContain('30 minutes');
      expect(await page.textContent('#instr-questions')).toBe('4 (1 written)');
      expect(text).toContain('After 2 such events, the next one locks your exam.');
      expect(await page.isVisible('#clock-not-started')).toBe(true);
      // "Start exam" is on screen, not covered, without any scrolling
      const where = await page.$eval('#start-exam', (b) => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { top: r.top, bottom: r.bottom, vh: window.innerHeight, scrollY: window.scrollY, onTop: hit === b || b.contains(hit), label: b.textContent };
      });
      expect(where).toMatchObject({ scrollY: 0, onTop: true, label: 'Start exam' });
      expect(where.top).toBeGreaterThanOrEqual(0);
      expect(where.bottom).toBeLessThanOrEqual(where.vh);
      await shot(page, `candidate-instructions-${viewport.width}`);

      // while they read: no attempt, no credit spent, no question text sent
      expect((await examiner.get(`/exams/${seeded.examId}/attempts`)).body).toEqual([]);
      expect(await credits()).toBe(creditsBefore);
      expect(paperSeen.join('')).not.toContain('what is 0 + 1');
      await page.waitForTimeout(4000);

      await page.click('#start-exam');
      await page.waitForSelector('section.question');
      const attemptId = await currentAttemptId(page);
      const session = (await api(server.baseUrl).get(`/attempts/${attemptId}?questions=0`)).body;
      // the 4 s of reading were not charged: 30 minutes minus at most the start itself
      expect(session.remainingSeconds).toBeGreaterThanOrEqual(30 * 60 - 2);
      expect(await credits()).toBe(creditsBefore - 1);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
