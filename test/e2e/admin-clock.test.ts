/**
 * The admin page's time-sync warning (issue 9 §5), in real headless Chromium against the
 * real app on loopback. The server's clock is the injected one, moved by an offset; the
 * browser's is Playwright's fake clock, so the periodic re-check runs without waiting.
 * Both clocks otherwise follow real time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Clock } from '../../src/platform/clock.js';
import { CHECK_EVERY_MS } from '../../web/admin/clock-check.js';
import { ROOT, launchBrowser, registerWorkspace, startTestServer, type TestServer, typeInto } from '../harness.js';

const ARTIFACTS = join(ROOT, 'test', 'artifacts');
const STEP_MS = 60_000;
const BANNER = '#clock-warning';

/** The hall machine's clock: real time plus `offsetMs`. */
const hall = { offsetMs: 0 };
const clock: Clock = { now: () => Date.now() + hall.offsetMs };

let server: TestServer;
let browser: Browser;
let apiKey = '';
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs` (npm test does it in pretest)');
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startTestServer({ clock });
  apiKey = (await registerWorkspace(server.baseUrl, { name: 'Kano Study Centre' })).apiKey;
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh tab whose clock is faked (starting at `time`, default now) and signed in with the API key. */
async function signedInTab(time?: Date): Promise<Page> {
  const context = await browser.newContext({ timezoneId: 'Africa/Lagos', locale: 'en-GB', viewport: { width: 1280, height: 800 } });
  await context.clock.install(time ? { time } : {});
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${server.baseUrl}/admin`);
  await page.click('[data-tab="key"]');
  await typeInto(page, '#signin-key [name="apiKey"]', apiKey);
  await page.click('#signin-key button[type="submit"]');
  await page.waitForSelector('#new-exam');
  return page;
}

/** Waits until the page has finished its `n`th clock check. */
const checked = (page: Page, n: number) => page.waitForSelector(`${BANNER}[data-checks="${n}"]`, { state: 'attached' });

describe.sequential('admin page: time-sync warning', () => {
  it('stays quiet while the clocks agree, warns at the next check when the hall clock is off, and clears once it is set', async () => {
    hall.offsetMs = 0;
    const page = await signedInTab();
    await checked(page, 1);
    expect(await page.isHidden(BANNER)).toBe(true);

    // the hall machine's clock jumps 15 minutes ahead; a few minutes later the page looks again
    hall.offsetMs = 15 * 60_000;
    await page.clock.fastForward(CHECK_EVERY_MS);
    await checked(page, 2);
    expect(await page.isVisible(BANNER)).toBe(true);
    expect(await page.getAttribute(BANNER, 'role')).toBe('alert');
    const text = (await page.textContent(BANNER))!;
    expect(text).toMatch(/^The hall machine's clock reads \d{1,2} \w{3} \d{4}, \d\d:\d\d but this computer reads \d{1,2} \w{3} \d{4}, \d\d:\d\d\. /);
    expect(text).toContain('Exam timing uses the server clock; set the correct time before starting an exam (see docs/operations.md).');
    // it stays across screens
    await page.click('[data-nav="connect"]');
    await page.waitForSelector('#candidate-url', { state: 'attached' });
    expect(await page.isVisible(BANNER)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'admin-clock-warning.png') });

    // the invigilator sets the time: the browser has moved on 2 × CHECK_EVERY_MS by the next check
    hall.offsetMs = 2 * CHECK_EVERY_MS;
    await page.clock.fastForward(CHECK_EVERY_MS);
    await checked(page, 3);
    expect(await page.isHidden(BANNER)).toBe(true);
  }, STEP_MS);

  it('warns when the hall machine reads a date before this release, even when this computer agrees (flat CMOS battery)', async () => {
    const cmos = new Date('2001-01-01T08:05:00.000Z');
    hall.offsetMs = cmos.getTime() - Date.now();
    const page = await signedInTab(cmos);
    await checked(page, 1);
    expect(await page.isVisible(BANNER)).toBe(true);
    const text = (await page.textContent(BANNER))!;
    expect(text).toMatch(/^The hall machine's clock reads 1 Jan 2001, 09:0\d, before this version of HallCBT was released \(\d{1,2} \w{3} 20\d\d\), so it is wrong\. /);
    expect(text).not.toContain('this computer reads');
    expect(text).toContain('(see docs/operations.md)');
    // signing out hides it with the rest of the session
    await page.click('#signout');
    await page.waitForSelector(BANNER, { state: 'hidden' });
    expect(pageErrors).toEqual([]);
  }, STEP_MS);
});
