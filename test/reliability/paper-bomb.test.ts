/**
 * Issue #34 §3 against a real hall process: several candidates at once start the largest
 * paper the authoring limits allow (scripts/bench/largest-paper.mjs: its whole text and
 * maths budget spent on the costliest Markdown and KaTeX), first while it is not rendered
 * yet, then again, while honest candidates save from a separate process
 * (scripts/bench/save-load.mjs). What must hold whatever the machine's speed: every start
 * gets its paper, every honest save is answered 200, one start's response is bounded in
 * bytes, and the hall still answers afterwards. The bound on the saves' p99 against the same
 * run's baseline is a timing assertion and runs in `npm run test:timed`
 * (test/timed/paper-bomb.test.ts; docs/decisions.md, "No timing assertion in npm test").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largestPaperHalls, saveLoad, startLargest, type LargestPaperHalls } from './largest-paper-hall.js';

describe('concurrent starts of the largest allowed paper (a real hall process)', () => {
  let halls: LargestPaperHalls;

  beforeAll(async () => {
    halls = await largestPaperHalls();
  }, 60_000);

  afterAll(async () => {
    await halls?.close();
  });

  it('accepts the paper, serves every start, answers every honest save and bounds one start’s bytes', async () => {
    expect(halls.bulk.status, JSON.stringify(halls.bulk.body).slice(0, 300)).toBe(201);
    const { main, accessCode } = halls;
    const RATE = 150;
    const during = saveLoad(main, 6_000, RATE);
    await new Promise((r) => setTimeout(r, 500));
    // four first starts at once (the paper is not rendered yet), then four later ones
    const first = await Promise.all([0, 1, 2, 3].map((i) => startLargest(main, accessCode, `FIRST-${i}`)));
    const later = await Promise.all([0, 1, 2, 3].map((i) => startLargest(main, accessCode, `LATER-${i}`)));
    const load = await during;
    console.log(`largest allowed paper: ${JSON.stringify({ load, first: first.map((s) => Math.round(s.ms)), later: later.map((s) => Math.round(s.ms)), json: first[0]!.json, wire: first[0]!.wire })}`);
    for (const s of [...first, ...later]) expect(s.status).toBe(200);
    // every start got the same paper, rendered or not when it asked
    expect(new Set([...first, ...later].map((s) => s.json)).size).toBe(1);
    // every save the loader sent was answered 200 (it waits for each; none failed), at ~150/s for 6 s
    expect(load.errors).toBe(0);
    expect(load.count).toBeGreaterThan(0.8 * RATE * 6);
    // one start's paper: ~2.2 MB of JSON at most (the KaTeX HTML form), a few hundred KB with brotli
    expect(first[0]!.json).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(first[0]!.wire).toBeLessThanOrEqual(512 * 1024);
    const health = await fetch(`${main.server.baseUrl}/health`);
    expect(health.status).toBe(200);
  }, 60_000);
});
