/**
 * Nothing a candidate answers is lost (issue 4 point 5, docs/design.md §7): an answer given
 * while the network is cut (Playwright offline mode) is kept in localStorage, shown as
 * "offline — kept on this computer" and saved after reconnection, with the proctoring
 * events of the offline period delivered late; and the real server process killed with
 * SIGKILL mid-exam — while answers were acknowledged but not yet on disk — and restarted
 * on the same data directory and port: the page replays them and loses nothing.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, launchBrowser, spawnServer, startTestServer, type SpawnedServer, type TestServer } from '../harness.js';
import { currentAttemptId, currentQuestionId, ensureBuilt, localPending, openPage, practicePaper, seedExam, shot, signInAndStart, waitAllSaved } from './candidate-helpers.js';

let browser: Browser;

beforeAll(async () => {
  ensureBuilt();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('candidate page: network cut', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ jobs: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps an answer given offline and saves it after reconnection; offline events arrive late', async () => {
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 5), { maxTabViolations: 5 });
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Kemi Adeyemi', studentId: 'OFF-1', pin: '5150' });
    const attemptId = await currentAttemptId(page);
    const candidate = api(server.baseUrl);
    await page.keyboard.press('c');
    await waitAllSaved(page);

    await context.setOffline(true);
    await page.keyboard.press('n');
    await page.waitForFunction(() => document.querySelector('#q-title')?.textContent?.startsWith('Question 2'));
    const q2 = await currentQuestionId(page);
    await page.keyboard.press('b');
    const q2Option = (await page.getAttribute('label.option.chosen', 'data-option-id'))!;
    await expect.poll(() => page.textContent('#save-state')).toBe('Offline — kept on this computer');
    expect(await page.getAttribute('#conn-status', 'data-state')).toBe('offline');
    expect(await page.isVisible('#banner-network')).toBe(true);
    // a right-click while offline: queued, counted later
    await page.evaluate(() => document.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true })));
    await expect.poll(() => page.textContent('#banner-violation')).toContain('Violations: 1 of 5');
    await shot(page, 'candidate-offline');

    // kept in the browser, unknown to the server
    const pending = await localPending(page, attemptId);
    expect(pending[q2]).toMatchObject({ optionId: q2Option });
    const before = await candidate.get(`/attempts/${attemptId}`);
    expect(before.body.answers.find((a: { questionId: string }) => a.questionId === q2)?.optionId ?? null).toBeNull();
    expect(before.body.violations).toBe(0);
    await page.waitForTimeout(3000); // the page keeps retrying in the background meanwhile

    await context.setOffline(false);
    await waitAllSaved(page);
    expect(await page.textContent('#save-state')).toBe('Saved');
    const after = await candidate.get(`/attempts/${attemptId}`);
    expect(after.body.answers.find((a: { questionId: string }) => a.questionId === q2)).toMatchObject({ optionId: q2Option });
    expect(after.body.durableSeq).toBeGreaterThanOrEqual(pending[q2]!.seq);
    expect(after.body.violations).toBe(1);
    expect(await localPending(page, attemptId)).toEqual({});
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe('candidate page: server killed', () => {
  let first: SpawnedServer | undefined;
  let second: SpawnedServer | undefined;
  afterAll(async () => {
    if (first && first.proc.exitCode === null) await first.kill();
    if (second && second.proc.exitCode === null) await second.stop();
  });

  it('recovers with no answer lost after SIGKILL and a restart on the same data directory', async () => {
    const port = await freePort();
    // a long flush interval: acknowledged answers are still only in memory at the kill
    first = await spawnServer({ env: { PORT: String(port), CBT_FLUSH_INTERVAL_MS: '60000' } });
    const seeded = await seedExam(first.baseUrl, practicePaper().slice(0, 10), { shuffleQuestions: true });
    const { page, context, errors } = await openPage(browser, first.baseUrl);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Ifeoma Nwosu', studentId: 'KILL-9', pin: '9090' });
    const attemptId = await currentAttemptId(page);
    const chosen = new Map<string, string>();
    const answer = async (letter: string) => {
      const qid = await currentQuestionId(page);
      await page.keyboard.press(letter);
      chosen.set(qid, (await page.getAttribute('label.option.chosen', 'data-option-id'))!);
      await page.keyboard.press('n');
      await page.waitForFunction((id) => document.querySelector('section.question')?.getAttribute('data-question-id') !== id, qid);
    };
    for (const letter of ['a', 'b', 'c', 'd', 'a']) await answer(letter);
    // acknowledged by the server, not yet durable: the page must still hold them
    await page.waitForFunction(() => document.getElementById('conn-status')?.textContent === 'Saving…');
    // "Saving…" shows while saves are pending, so the last one may still be on its way (seen under a loaded machine)
    const serverHolds = async () => (await api(first.baseUrl).get(`/attempts/${attemptId}`)).body as { answers: { optionId: string | null }[]; durableSeq: number };
    await expect.poll(async () => (await serverHolds()).answers.filter((a) => a.optionId).length, { timeout: 10_000 }).toBe(5);
    expect((await serverHolds()).durableSeq).toBe(0);
    expect(Object.keys(await localPending(page, attemptId))).toHaveLength(5);

    await first.kill();
    // answering goes on while the server is down
    for (const letter of ['b', 'c']) await answer(letter);
    await expect.poll(() => page.getAttribute('#conn-status', 'data-state'), { timeout: 15_000 }).toBe('offline');
    expect(Object.keys(await localPending(page, attemptId))).toHaveLength(7);

    second = await spawnServer({ dataDir: first.dataDir, env: { PORT: String(port) } });
    expect(second.baseUrl).toBe(first.baseUrl);
    await waitAllSaved(page, 40_000);
    const after = await api(second.baseUrl).get(`/attempts/${attemptId}`);
    const onServer = new Map<string, string>(after.body.answers.filter((a: { optionId: string | null }) => a.optionId).map((a: { questionId: string; optionId: string }) => [a.questionId, a.optionId]));
    expect(onServer).toEqual(chosen);
    expect(after.body.durableSeq).toBeGreaterThanOrEqual(7);
    expect(await localPending(page, attemptId)).toEqual({});
    expect(await page.getAttribute('#conn-status', 'data-state')).toBe('ok');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
