/**
 * Time running out (issue 4 point 4): a 1-minute exam; the page shows the server's
 * remainingSeconds, warns at 1 minute, re-syncs from the next response, and submits by
 * itself at zero. The server's clock is moved forward (an injected clock: real time
 * plus an offset) instead of waiting the whole minute; the expiry sweep is off (no
 * scheduled jobs), so the submission can only have come from the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, launchBrowser, startTestServer, type TestServer } from '../harness.js';
import { currentAttemptId, ensureBuilt, openPage, practicePaper, seedExam, shot, signInAndStart } from './candidate-helpers.js';

let server: TestServer;
let browser: Browser;
let offsetMs = 0;

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer({ clock: { now: () => Date.now() + offsetMs } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('candidate page: time', () => {
  it('counts down from the server, warns at 1 minute and submits automatically at zero', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 3), { durationMins: 1, title: 'One-minute quiz' });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Yusuf Lawal', studentId: 'TIME-1', pin: '6060' });
    const attemptId = await currentAttemptId(page);
    expect(await page.textContent('#timer')).toMatch(/^0:5\d|^1:00$/);
    await expect.poll(() => page.textContent('#banner-time')).toContain('1 minute left');
    expect(await page.getAttribute('#timer', 'data-low')).toBe('critical');

    // 52 s pass on the server's clock; the page learns it from the next response (this save)
    offsetMs += 52_000;
    await page.keyboard.press('c');
    await expect.poll(async () => Number((await page.textContent('#timer'))!.replace('0:', '')), { timeout: 5000 }).toBeLessThan(10);
    const t0 = Date.now();
    await page.waitForSelector('#screen-result', { timeout: 20_000 });
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(await page.textContent('#screen-result')).toContain('Time ran out, so your answers were submitted automatically.');
    await shot(page, 'candidate-time-up');

    const result = await api(server.baseUrl, seeded.apiKey).get(`/attempts/${attemptId}/result`);
    expect(result.body.status).toBe('COMPLETED');
    expect(result.body.answers.filter((a: { optionId: string | null }) => a.optionId)).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
