/**
 * Exam start on a busy hall Wi-Fi: the whole hall downloads its papers in the same minute,
 * so the last candidates' start responses are slow, and some requests get no answer at
 * all. The page must wait for a slow paper (not give up after the 10 s every other call
 * has), never take a body cut short for an answer, and ask again by itself when nothing
 * came back — resuming the same attempt, not making a second one.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, type TestServer } from '../harness.js';
import { fillSignIn, openPage, pageSuite, practicePaper, seedExam, shot } from './candidate-helpers.js';

let server: TestServer;
let browser: Browser;
pageSuite((s) => ({ browser, server } = s));

/** Signs in and waits on the instructions screen, Start not yet pressed. */
async function toInstructions(page: Page, accessCode: string, studentId: string): Promise<void> {
  await fillSignIn(page, { accessCode, name: 'Chiamaka Obi', studentId, pin: '4242' });
  await page.waitForSelector('#start-exam');
}

describe('candidate page: starting on a busy network', () => {
  it('waits for a paper that takes longer than 10 s to arrive, and shows it whole', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper());
    // how many bytes the start response takes on the wire, from a first candidate's start
    const first = await openPage(browser, server.baseUrl);
    await toInstructions(first.page, seeded.accessCode, 'SLOW-0');
    const [startResponse] = await Promise.all([first.page.waitForResponse((r) => r.url().includes('/attempts/start')), first.page.click('#start-exam')]);
    const sizes = await startResponse.request().sizes();
    const wireBytes = sizes.responseHeadersSize + sizes.responseBodySize;
    await first.page.waitForSelector('section.question');
    await first.context.close();

    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await toInstructions(page, seeded.accessCode, 'SLOW-1');
    // the link now delivers that response in ~14 s: its headers come at once, its body slowly
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: Math.ceil(wireBytes / 14), uploadThroughput: -1 });
    const t0 = Date.now();
    await page.click('#start-exam');
    await page.waitForSelector('section.question', { timeout: 45_000 });
    const waited = Date.now() - t0;
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(waited).toBeGreaterThan(10_000);
    // the whole paper is on screen: every question in the navigator
    expect(await page.locator('.nav-q').count()).toBe(seeded.questions.length);
    expect(await page.locator('#screen-signin').count()).toBe(0);
    await shot(page, 'candidate-slow-start');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('asks again by itself when a start gets no answer, and resumes the same attempt', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper());
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await toInstructions(page, seeded.accessCode, 'DROP-1');
    // the first start reaches the server (the attempt and its clock begin) but its answer is lost
    let starts = 0;
    await page.route('**/attempts/start**', async (route) => {
      starts++;
      if (starts === 1) {
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.click('#start-exam');
    await page.waitForSelector('#screen-message');
    expect(await page.textContent('#screen-message')).toContain('The hall network is busy');
    await page.waitForSelector('section.question', { timeout: 20_000 });
    expect(starts).toBe(2);
    const monitor = await api(server.baseUrl, seeded.apiKey).get(`/exams/${seeded.examId}/monitor`);
    expect(monitor.status).toBe(200);
    expect(monitor.body.attempts.filter((a: { studentId?: string; candidate?: { studentId?: string } }) => JSON.stringify(a).includes('DROP-1'))).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
