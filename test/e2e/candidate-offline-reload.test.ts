/**
 * Issue 20 item 4: reloading the candidate page while the server is unreachable.
 * - Where the browser allows a service worker (here http://127.0.0.1, a secure context
 *   like localhost or HTTPS), the page shell stays loadable: stop the server, reload, and
 *   the exam is still on screen from the answers kept on this PC — not the browser's own
 *   "no internet" page. API responses are never served from the worker's cache. With the
 *   paper's maths as MathML (a current Chromium) no KaTeX file is fetched or kept; as
 *   KaTeX HTML (a browser without MathML) the worker keeps KaTeX's stylesheet and fonts once
 *   fetched, and the reloaded page shows the maths with them.
 * - On plain HTTP to a hall address (not a secure context: no service worker), the
 *   sign-in screen says before the exam that reloading needs the hall network, and the
 *   offline banner offers the page's own "Try again now" button.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, spawnServer, type SpawnedServer } from '../harness.js';
import { currentQuestionId, ensureBuilt, openPage, practicePaper, seedExam, signInAndStart, waitAllSaved } from './candidate-helpers.js';

/** A question whose maths needs KaTeX's stylesheet and its Main font in the KaTeX HTML form. */
const MATHS = { prompt: 'Evaluate $\\frac{3}{4} + \\frac{1}{4}$ and $$\\sqrt{49} + 2^{3}$$', type: 'MCQ', marks: 1, options: [{ text: '$1$', isCorrect: true }, { text: '$\\frac{1}{2}$', isCorrect: false }] };

/** What the page shows of its maths: MathML fractions, KaTeX HTML fractions, KaTeX's stylesheet applied, KaTeX fonts loaded. */
async function mathsShown(page: import('playwright-core').Page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    const mathml = document.querySelector('.katex-mathml');
    return {
      mathmlFractions: document.querySelectorAll('#q-prompt .katex > math mfrac').length,
      katexFractions: document.querySelectorAll('#q-prompt .katex-html .mfrac').length,
      // KaTeX's stylesheet hides the MathML copy of its HTML form (clip)
      katexCssApplied: !!mathml && getComputedStyle(mathml).position === 'absolute',
      katexFonts: Array.from(document.fonts).filter((f) => /KaTeX/.test(f.family) && f.status === 'loaded').length,
    };
  });
}

let browser: Browser;
let server: SpawnedServer | undefined;
beforeAll(async () => {
  ensureBuilt();
  // hall.test stands for a hall LAN address: plain HTTP there is not a secure context
  browser = await launchBrowser(['--host-resolver-rules=MAP hall.test 127.0.0.1']);
});
afterEach(async () => {
  await server?.stop().catch(() => undefined);
  server = undefined;
});
afterAll(async () => {
  await browser?.close();
});

describe('candidate page: reload while the server is unreachable', () => {
  it.each([
    ['MathML', true],
    ['KaTeX HTML', false],
  ])('on localhost: the page shell comes from the service worker and the exam is still shown (maths as %s)', async (form, mathml) => {
    server = await spawnServer();
    const seeded = await seedExam(server.baseUrl, [MATHS, ...practicePaper().slice(0, 3)]);
    const { page, context } = await openPage(browser, server.baseUrl, { mathml });
    // a secure context: no reload warning, and the worker takes control of the page
    expect(await page.$('#reload-advice')).toBeNull();
    await page.waitForFunction(async () => !!(await navigator.serviceWorker.ready).active);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Tunde Bakare', studentId: `SW-${form.length}`, pin: '4321' });
    await page.click('.nav-q[data-index="0"]');
    await page.waitForSelector('#q-prompt .katex');
    const qid = await currentQuestionId(page);
    const online = await mathsShown(page);
    await page.keyboard.press('b');
    await waitAllSaved(page);
    expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    // API responses are never in the worker's cache
    const cached = await page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).map((r) => new URL(r.url).pathname)))).flat());
    expect(cached).toContain('/');
    expect(cached.filter((p) => p.startsWith('/attempts') || p.startsWith('/exams') || p.startsWith('/workspaces'))).toEqual([]);
    const katexKept = cached.filter((p) => p.startsWith('/vendor/katex/'));
    if (mathml) {
      expect(online).toEqual({ mathmlFractions: 2, katexFractions: 0, katexCssApplied: false, katexFonts: 0 });
      expect(katexKept).toEqual([]);
    } else {
      expect(online).toMatchObject({ mathmlFractions: 0, katexFractions: 2, katexCssApplied: true });
      expect(online.katexFonts).toBeGreaterThan(0);
      expect(katexKept.some((p) => /^\/vendor\/katex\/katex\.[0-9a-f]{10}\.css$/.test(p))).toBe(true);
      expect(katexKept.some((p) => /\/fonts\/KaTeX_Main-Regular/.test(p))).toBe(true);
    }

    await server.stop();
    server = undefined;
    await page.reload();
    expect(page.url()).not.toMatch(/^chrome-error:/);
    await page.waitForSelector('section.question', { timeout: 15_000 });
    expect(await currentQuestionId(page)).toBe(qid);
    expect(await page.getAttribute('label.option.chosen', 'data-option-id')).toBeTruthy();
    // the maths as before the reload, from the copy kept on this PC and (KaTeX HTML) the worker's KaTeX files
    expect(await mathsShown(page)).toEqual(online);
    await expect.poll(() => page.getAttribute('#conn-status', 'data-state'), { timeout: 15_000 }).toBe('offline');
    await context.close();
  }, 90_000);

  it('on plain HTTP to a hall address: says before the exam that reloading needs the network, and offers its own retry', async () => {
    server = await spawnServer();
    const seeded = await seedExam(server.baseUrl, practicePaper().slice(0, 2));
    const hall = `http://hall.test:${server.port}`;
    const { page, context } = await openPage(browser, hall);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    await page.waitForSelector('#reload-advice');
    expect(await page.textContent('#reload-advice')).toMatch(/reloading needs the hall network.*“Try again”/);
    expect(await page.evaluate(async () => ('serviceWorker' in navigator ? (await navigator.serviceWorker.getRegistrations()).length : 0))).toBe(0);
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Ngozi Eze', studentId: 'HTTP-1', pin: '2468' });
    await server.stop();
    server = undefined;
    await page.keyboard.press('a');
    await page.waitForSelector('#retry-now', { timeout: 20_000 });
    expect(await page.textContent('#banner-network')).toMatch(/Do not reload the page/);
    // issue 36 item 8: the banner's words read as sentences, the button inside the last one
    expect(await page.textContent('#banner-network')).toMatch(/Do not reload the page\. To reconnect at once, press Try again now\.$/);
    await context.close();
  }, 90_000);
});
