/**
 * What the candidate page's answer save costs on the hall's Wi-Fi (issue 26): Chromium's PUT
 * carries no header the page can leave out — no Pragma or Cache-Control (the page bypasses
 * the HTTP cache only for reads), no Accept of its own, no Referer (no-referrer) — and the
 * server's answer carries only the headers pinned in test/core/paper-size.test.ts.
 * The page saves over its save channel when it can (test/e2e/candidate-save-channel.test.ts);
 * this is the HTTP path, its fallback, so the page here has the channel switched off.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../harness.js';
import { openPage, pageSuite, seedExam, signInAndStart } from './candidate-helpers.js';

let server: TestServer;
let browser: Browser;
pageSuite((s) => ({ server, browser } = s));

describe('an answer save from the candidate page', () => {
  it('sends only the headers the browser adds, Content-Type and Origin', async () => {
    const seeded = await seedExam(server.baseUrl, [
      { prompt: 'Simplify $\\frac{3}{4} + \\frac{1}{4}$.', type: 'MCQ', marks: 1, options: [{ text: '$1$', isCorrect: true }, { text: '$\\frac{4}{8}$', isCorrect: false }] },
    ]);
    const { context, page, errors } = await openPage(browser, server.baseUrl, { channel: false });
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Header Test', studentId: 'H-1', pin: '1234' });
    // (a current Chromium: the paper's maths as MathML, web/candidate/math.ts)
    expect(await page.locator('#q-prompt .katex > math mfrac').count()).toBe(2);
    const saving = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/answers\//.test(r.url()));
    await page.click('section.question label >> nth=0');
    const res = await saving;
    expect(res.status()).toBe(200);
    const sent = await res.request().allHeaders();
    const names = Object.keys(sent).map((k) => k.toLowerCase());
    for (const gone of ['pragma', 'cache-control', 'referer']) expect(names, gone).not.toContain(gone);
    expect(sent['accept']).toBe('*/*');
    expect(sent['content-type']).toBe('application/json');
    expect(sent['origin']).toBe(new URL(server.baseUrl).origin);
    const got = Object.keys(await res.allHeaders()).map((k) => k.toLowerCase()).sort();
    expect(got).toEqual(['connection', 'content-length', 'content-type', 'date', 'keep-alive', 'x-cbt-api-version', 'x-content-type-options', 'x-request-id']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
