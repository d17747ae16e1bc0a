/**
 * Security headers of the pages (issue 22 part 4): Content-Security-Policy with scripts
 * only from the server and no framing, X-Frame-Options, nosniff and Referrer-Policy on
 * the pages and their assets, nosniff on the API; in real Chromium the pages (KaTeX
 * maths included) and the API reference run under that policy without a violation, and
 * the browser tests' CSP guard (test/csp-guard.ts) does catch one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { addQuestions, api, createExam, launchBrowser, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { takeCspViolations } from '../csp-guard.js';
import { withoutMathml } from '../e2e/candidate-helpers.js';

let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  // two candidates sign in from this one loopback address, as no hall does: the open room's one-attempt-per-computer rule is off (it has its own tests, test/security/open-room.test.ts)
  s = await startTestServer({ config: { CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('security headers', () => {
  it('pages and their assets carry CSP, X-Frame-Options, nosniff and Referrer-Policy', async () => {
    for (const path of ['/', '/admin', '/admin/', '/candidate/app.js', '/admin/styles.css', '/vendor/katex/katex.min.css', '/docs', '/docs/init.js']) {
      const res = await fetch(s.baseUrl + path);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
    const html = await (await fetch(`${s.baseUrl}/docs`)).text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/); // no inline script on /docs either
    const health = await fetch(`${s.baseUrl}/health`);
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('in Chromium', () => {
  it('the candidate page with maths (MathML, and KaTeX HTML for a browser without MathML), the admin page and /docs run without a CSP violation', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const exam = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, exam.id, [{ type: 'MCQ', marks: 1, prompt: 'Evaluate $\\frac{x^2+3}{4}$ when $x = 3$.', options: [{ text: '$3$', isCorrect: true }, { text: '$\\sqrt{9}+1$', isCorrect: false }] }]);
    for (const mathml of [true, false]) {
      const context = await browser.newContext();
      if (!mathml) await withoutMathml(context);
      const page = await context.newPage();
      await page.goto(`${s.baseUrl}/`);
      await page.locator('input[name="accessCode"]').click();
      await page.keyboard.type(exam.accessCode);
      await page.locator('input[name="studentId"]').click();
      await page.keyboard.type(mathml ? 'CSP-1' : 'CSP-2');
      await page.locator('input[name="candidateName"]').click();
      await page.keyboard.type('Csp Candidate');
      await page.locator('input[name="candidatePin"]').click();
      await page.keyboard.type('2468');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#start-exam');
      await page.click('#start-exam');
      await page.waitForSelector('section.question .katex', { timeout: 15_000 });
      // the fractions laid out: MathML natively; KaTeX's HTML with its inline styles, the
      // stylesheet the page's script linked and its fonts from /vendor
      const fracHeight = await page.locator(mathml ? '.katex > math mfrac' : '.katex-html .mfrac').first().evaluate((el) => el.getBoundingClientRect().height);
      expect(fracHeight).toBeGreaterThan(10);
      expect(await page.locator('link#katex-css').count()).toBe(mathml ? 0 : 1);
      await context.close();
    }

    const page = await browser.newPage();
    await page.goto(`${s.baseUrl}/admin`);
    await page.waitForSelector('#signin-password');
    await page.goto(`${s.baseUrl}/docs`);
    await page.waitForSelector('#swagger-ui .info .title', { timeout: 15_000 });
    await page.close();
    expect(takeCspViolations()).toEqual([]);
  }, 60_000);

  it('the guard sees a violation: an injected inline script is blocked and reported', async () => {
    const page = await browser.newPage();
    await page.goto(`${s.baseUrl}/admin`);
    await page.waitForSelector('#signin-password');
    const ran = await page.evaluate(() => {
      const el = document.createElement('script');
      el.textContent = 'window.__injected = true;';
      document.head.appendChild(el);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await page.waitForTimeout(200);
    await page.close();
    const seen = takeCspViolations();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.join('\n')).toMatch(/script-src/);
  });

  it('the API answers are not affected (no CSP on JSON)', async () => {
    const r = await api(s.baseUrl).get('/version');
    expect(r.headers.get('content-security-policy')).toBeNull();
  });
});
