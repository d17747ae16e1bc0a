/**
 * The candidate page saves over its save channel (issue 26; web/candidate/channel.ts):
 * answers typed key by key and chosen by keyboard travel as WebSocket frames — not one
 * PUT among them — and the page says "All answers saved" from the durableSeq the channel
 * pushes; offline then online and a reload lose nothing. When the channel is cut and new
 * ones are turned away, the page saves over HTTP at once with the same seqs and loses
 * nothing, and goes back to the channel once it opens again.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, sampleMcqs, type TestServer } from '../harness.js';
import { answerMcq, channelGate, currentAttemptId, localPending, typeEssay, openPage, pageSuite, seedExam, signInAndStart, waitAllSaved } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started), { jobs: true });

const ESSAY = { prompt: 'Describe the harmattan.', type: 'SHORT_ESSAY', marks: 5 };

/** Every HTTP answer save (PUT or batch POST) the page sends. */
function httpSaves(page: Page): { method: string; seqs: number[] }[] {
  const out: { method: string; seqs: number[] }[] = [];
  page.on('request', (req) => {
    if (!/\/attempts\/[^/]+\/answers/.test(req.url()) || !['PUT', 'POST'].includes(req.method())) return;
    const body = req.postDataJSON() as { seq?: number; answers?: { seq?: number }[] };
    out.push({ method: req.method(), seqs: (body.answers ?? [body]).map((a) => a.seq!).filter((s) => typeof s === 'number') });
  });
  return out;
}

async function serverAnswers(attemptId: string) {
  const b = (await api(server.baseUrl).get(`/attempts/${attemptId}?questions=0`)).body as { durableSeq: number; answers: { questionId: string; optionId: string | null; text: string | null; seq: number }[] };
  return { durableSeq: b.durableSeq, byQuestion: new Map(b.answers.map((a) => [a.questionId, a])) };
}

describe('candidate page: the save channel', () => {
  it('saves typed answers over the channel (no PUT), says "All answers saved" from its push, and loses nothing offline or across a reload', async () => {
    const seeded = await seedExam(server.baseUrl, [ESSAY, ...sampleMcqs(4)]);
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    const frames: { q: string; s: number; t?: string; o?: string }[] = [];
    const pushes: number[] = [];
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => frames.push(JSON.parse(String(f.payload))));
      ws.on('framereceived', (f) => {
        const m = JSON.parse(String(f.payload));
        if (!('i' in m)) pushes.push(m.d);
      });
    });
    const http = httpSaves(page);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Amaka Obi', studentId: 'WS-1', pin: '1357' });
    const attemptId = await currentAttemptId(page);
    const [essay, m1, m2, m3] = seeded.questions;

    await typeEssay(page, 'Dry dusty wind from the Sahara');
    await answerMcq(page, 1, 'B');
    await answerMcq(page, 2, 'C');
    await waitAllSaved(page, 5_000);
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expect(http).toEqual([]);
    expect(pushes.length).toBeGreaterThan(0);
    let onServer = await serverAnswers(attemptId);
    expect(onServer.byQuestion.get(essay!.id)?.text).toBe('Dry dusty wind from the Sahara');
    expect(onServer.byQuestion.get(m1!.id)?.optionId).toBe(m1!.options[1]!.id);
    expect(onServer.durableSeq).toBe(Math.max(...frames.map((f) => f.s)));
    expect(await localPending(page, attemptId)).toEqual({});

    // offline: kept on this PC; back online: saved (over whichever way is open), nothing lost
    await context.setOffline(true);
    await answerMcq(page, 3, 'D');
    await typeEssay(page, ' in December');
    await page.waitForTimeout(1500);
    expect((await serverAnswers(attemptId)).byQuestion.get(m3!.id)).toBeUndefined();
    await context.setOffline(false);
    await waitAllSaved(page, 20_000);
    onServer = await serverAnswers(attemptId);
    expect(onServer.byQuestion.get(m3!.id)?.optionId).toBe(m3!.options[3]!.id);
    expect(onServer.byQuestion.get(essay!.id)?.text).toBe('Dry dusty wind from the Sahara in December');

    // a reload: the page reopens its channel and goes on saving over it
    await page.reload();
    await page.waitForSelector('section.question');
    const before = { frames: frames.length, http: http.length };
    await answerMcq(page, 2, 'A');
    await typeEssay(page, ' and January.');
    await waitAllSaved(page, 5_000);
    expect(frames.length).toBeGreaterThan(before.frames);
    expect(http.length).toBe(before.http);
    onServer = await serverAnswers(attemptId);
    expect(onServer.byQuestion.get(m2!.id)?.optionId).toBe(m2!.options[0]!.id);
    expect(onServer.byQuestion.get(essay!.id)?.text).toBe('Dry dusty wind from the Sahara in December and January.');
    expect(await localPending(page, attemptId)).toEqual({});
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('falls back to HTTP at once when the channel is cut and refused, loses nothing, and returns to the channel', async () => {
    const seeded = await seedExam(server.baseUrl, [ESSAY, ...sampleMcqs(4)]);
    const { page, context, errors } = await openPage(browser, server.baseUrl);
    const gate = await channelGate(page);
    const http = httpSaves(page);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Bola Ade', studentId: 'WS-2', pin: '2468' });
    const attemptId = await currentAttemptId(page);
    const [essay, m1, m2, m3] = seeded.questions;
    await answerMcq(page, 1, 'A');
    await waitAllSaved(page, 5_000);
    expect(gate.frames.length).toBe(1);
    expect(http).toEqual([]);

    // the channel dies and no new one gets through: the answers go over HTTP
    await gate.block();
    await answerMcq(page, 2, 'B');
    await typeEssay(page, 'Cold mornings');
    await answerMcq(page, 3, 'C');
    await waitAllSaved(page, 10_000);
    expect(http.length).toBeGreaterThanOrEqual(3);
    expect(http.every((h) => h.method === 'PUT')).toBe(true);
    let onServer = await serverAnswers(attemptId);
    expect(onServer.byQuestion.get(m2!.id)?.optionId).toBe(m2!.options[1]!.id);
    expect(onServer.byQuestion.get(m3!.id)?.optionId).toBe(m3!.options[2]!.id);
    expect(onServer.byQuestion.get(essay!.id)?.text).toBe('Cold mornings');
    // every seq up to the highest reached the server by one way or the other: no gap
    const seqs = [...gate.frames.map((f) => f.s!), ...http.flatMap((h) => h.seqs)];
    const highest = Math.max(...seqs);
    expect([...new Set(seqs)].sort((a, b) => a - b)).toEqual(Array.from({ length: highest }, (_, i) => i + 1));
    expect(onServer.durableSeq).toBe(highest);

    // the channel can open again: the page comes back to it (its retry backs off, ≤ 8 s here)
    gate.unblock();
    const opened = gate.opened;
    await expect.poll(() => gate.opened, { timeout: 20_000 }).toBeGreaterThan(opened);
    const httpBefore = http.length;
    await answerMcq(page, 1, 'D');
    await waitAllSaved(page, 5_000);
    expect(http.length).toBe(httpBefore);
    expect(gate.frames.at(-1)).toMatchObject({ q: m1!.id, o: m1!.options[3]!.id });
    expect((await serverAnswers(attemptId)).byQuestion.get(m1!.id)?.optionId).toBe(m1!.options[3]!.id);
    expect(await localPending(page, attemptId)).toEqual({});
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
