/**
 * Content-Security-Policy violations in the browser tests (issue 22 part 4): every
 * browser made by harness.launchBrowser() records, in each of its pages, the
 * `securitypolicyviolation` events and Chromium's "Content Security Policy" console
 * errors; test/setup/csp-violations.ts fails the test during which any was recorded.
 * So a page that starts to need an inline script, eval or a foreign origin fails every
 * browser test that opens it, not only a dedicated one.
 */
import type { Browser, BrowserContext } from 'playwright-core';

const violations: string[] = [];
const allowed: { pattern: RegExp; why: string }[] = [];

/** The violations recorded since the last call (and forgets them). */
export function takeCspViolations(): string[] {
  return violations.splice(0);
}

/**
 * Violations recorded since the last call that no allowance of this test file covers
 * (and forgets all of them); what test/setup/csp-violations.ts fails a test with.
 */
export function takeUnexpectedCspViolations(): string[] {
  return takeCspViolations().filter((v) => !allowed.some((a) => a.pattern.test(v)));
}

/**
 * Reports Chromium makes when hostile HTML is *parsed* by the pages' sanitiser: an inline
 * event handler attribute (`<img onerror=…>`) is reported as a `script-src-attr`
 * violation as soon as it is parsed, even in the inert DOMParser document DOMPurify
 * works in, where nothing could run. Files that render such payloads on purpose (the
 * XSS corpus, a hostile prompt in the editor) allow exactly these; every other
 * violation, and these in every other file, fails the test.
 */
export const PARSED_INLINE_HANDLER = /inline event handler|^script-src-attr /;

/** Lets this test file's pages make reports matching `pattern` (say why); call in beforeAll. */
export function allowCspReports(pattern: RegExp, why: string): void {
  if (!why.trim()) throw new Error('say why these CSP reports are expected');
  allowed.push({ pattern, why });
}

/** Makes `context` record CSP violations of all its pages. */
export async function guardContext(context: BrowserContext): Promise<BrowserContext> {
  await context.exposeBinding('__hallcbtCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __hallcbtCspViolation?: (t: string) => void }).__hallcbtCspViolation;
      report?.(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} in ${e.documentURI} (${e.sourceFile || '?'}:${e.lineNumber})`);
    });
  });
  context.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  return context;
}

/** Makes every context (and page) `browser` creates record CSP violations. */
export function guardBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => guardContext(await newContext(...args));
  browser.newPage = async (...args: Parameters<Browser['newPage']>) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    // like Browser.newPage: closing the page closes its own context
    page.once('close', () => void context.close().catch(() => undefined));
    return page;
  };
  return browser;
}
