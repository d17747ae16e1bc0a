/**
 * The save channel's two hall settings in Chromium (web/candidate/channel.ts,
 * src/modules/candidate/save-channel.ts):
 * - the operator switched it off (`CBT_SAVE_CHANNEL=off`): the page's one failed open is
 *   followed by one question over HTTP, whose 404 SAVE_CHANNEL_OFF stops it trying for that
 *   page; typed answers go as PUTs, nothing is lost across a reload, and there is one
 *   upgrade attempt per page load, not one every few seconds for the whole exam;
 * - a candidate who stops typing for longer than the channel's idle time keeps the one
 *   channel: the server pings it, Chromium answers, and no second channel is opened.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { answerMcq, currentAttemptId, localPending, openPage, pageSuite, seedExam, signInAndStart, typeEssay, waitAllSaved } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started), { jobs: true, config: { CBT_SAVE_CHANNEL: 'off' } });

const ESSAY = { prompt: 'Describe the harmattan.', type: 'SHORT_ESSAY', marks: 5 };

/** What the page does about saving: PUT/POST saves, channel opens tried, frames sent, its questions over HTTP. */
function watch(page: Page) {
  const seen = { saves: [] as string[], upgrades: 0, frames: 0, asked: [] as number[] };
  page.on('websocket', (ws) => {
    seen.upgrades++;
    ws.on('framesent', () => seen.frames++);
  });
  page.on('request', (req) => {
    if (/\/attempts\/[^/]+\/answers/.test(req.url()) && ['PUT', 'POST'].includes(req.method())) seen.saves.push(req.method());
  });
  page.on('response', (res) => {
    if (/\/attempts\/[^/]+\/channel$/.test(res.url())) seen.asked.push(res.status());
  });
  return seen;
}

async function serverAnswers(baseUrl: string, attemptId: string) {
  const b = (await api(baseUrl).get(`/attempts/${attemptId}?questions=0`)).body as { durableSeq: number; answers: { questionId: string; optionId: string | null; text: string | null; seq: number }[] };
  return { durableSeq: b.durableSeq, byQuestion: new Map(b.answers.map((a) => [a.questionId, a])) };
}

/** The page's console errors, but Chromium's own line for the refused handshake (expected here). */
const unexpected = (errors: string[]) => errors.filter((e) => !/WebSocket connection to .*\/channel' failed/.test(e));

describe('candidate page: the save channel switched off by the operator', () => {
  it('saves typed answers over PUT, loses nothing across a reload, and tries the upgrade once per page load', async () => {
    const seeded = await seedExam(server.baseUrl, [ESSAY, ...sampleMcqs(3)]);
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    const seen = watch(page);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Chidi Eze', studentId: 'OFF-1', pin: '4826' });
    const attemptId = await currentAttemptId(page);
    const [essay, m1, m2, m3] = seeded.questions;

    await typeEssay(page, 'Dry dusty wind');
    await answerMcq(page, 1, 'B');
    await answerMcq(page, 2, 'C');
    await waitAllSaved(page, 10_000);
    // long enough for a page that kept retrying (1 s, 2 s, 4 s, 8 s …) to have tried 4 more times
    await page.waitForTimeout(12_000);
    await typeEssay(page, ' from the north');
    await waitAllSaved(page, 10_000);
    expect(seen.frames).toBe(0);
    expect(seen.saves.length).toBeGreaterThanOrEqual(3);
    expect(seen.saves.every((m) => m === 'PUT')).toBe(true);
    expect(seen.upgrades).toBe(1);
    expect(seen.asked).toEqual([404]);
    let onServer = await serverAnswers(server.baseUrl, attemptId);
    expect(onServer.byQuestion.get(essay!.id)?.text).toBe('Dry dusty wind from the north');
    expect(onServer.byQuestion.get(m1!.id)?.optionId).toBe(m1!.options[1]!.id);
    expect(onServer.byQuestion.get(m2!.id)?.optionId).toBe(m2!.options[2]!.id);
    expect(await localPending(page, attemptId)).toEqual({});

    // a reload: the page shows everything saved, tries the upgrade once more and goes on over PUT
    await page.reload();
    await page.waitForSelector('section.question');
    await page.click('.nav-q[data-index="0"]');
    await page.waitForSelector('#essay');
    expect(await page.inputValue('#essay')).toBe('Dry dusty wind from the north');
    await answerMcq(page, 3, 'D');
    await typeEssay(page, ' in December.');
    await waitAllSaved(page, 10_000);
    await page.waitForTimeout(4_000);
    expect(seen.frames).toBe(0);
    expect(seen.upgrades).toBe(2);
    expect(seen.asked).toEqual([404, 404]);
    onServer = await serverAnswers(server.baseUrl, attemptId);
    expect(onServer.byQuestion.get(m3!.id)?.optionId).toBe(m3!.options[3]!.id);
    expect(onServer.byQuestion.get(essay!.id)?.text).toBe('Dry dusty wind from the north in December.');
    expect(onServer.byQuestion.get(m1!.id)?.optionId).toBe(m1!.options[1]!.id);
    expect(await localPending(page, attemptId)).toEqual({});
    // quietly: no banner, nothing on the console but Chromium's line for the refused handshake
    expect(await page.locator('#conn-status').getAttribute('data-state')).toBe('ok');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  }, 90_000);
});

describe('candidate page: an idle save channel', () => {
  it('stays open while the candidate thinks longer than its idle time (the server pings, Chromium answers): no second channel', async () => {
    // idle time 1.5 s: before, the server closed the channel then and the page opened a new
    // one at its next poll (≤ 15 s), a ~650 B handshake every idle minute in a real hall
    const t = await startTestServer({ jobs: true, channelIdleMs: 1500 });
    try {
      const seeded = await seedExam(t.baseUrl, sampleMcqs(3));
      const { page, context, errors } = await openPage(browser, t.baseUrl);
      const seen = watch(page);
      const closes: number[] = [];
      page.on('websocket', (ws) => ws.on('close', () => closes.push(Date.now())));
      await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Ngozi Ade', studentId: 'IDLE-1', pin: '5937' });
      const attemptId = await currentAttemptId(page);
      await answerMcq(page, 0, 'A');
      await waitAllSaved(page, 10_000);
      const framesBefore = seen.frames;
      expect(framesBefore).toBeGreaterThanOrEqual(1);
      // thinking: more than ten idle times and past the page's 15 s poll
      await page.waitForTimeout(17_000);
      expect(closes).toEqual([]);
      expect(seen.upgrades).toBe(1);
      expect(t.channels.size).toBe(1);
      // the next answer goes over the same channel
      await answerMcq(page, 1, 'C');
      await waitAllSaved(page, 10_000);
      expect(seen.frames).toBeGreaterThan(framesBefore);
      expect(seen.saves).toEqual([]);
      expect(seen.upgrades).toBe(1);
      expect((await serverAnswers(t.baseUrl, attemptId)).byQuestion.get(seeded.questions[1]!.id)?.optionId).toBe(seeded.questions[1]!.options[2]!.id);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await t.close();
    }
  }, 90_000);
});
