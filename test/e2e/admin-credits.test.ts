/**
 * Issue 36 items 1 and 2 in real Chromium, at 1366×768 and 1024×768, typing key by key:
 * the hall operator lists the workspaces with their credits and tops one up, after which
 * the 31st candidate starts; every examiner sees a warning when an exam's roster has more
 * waiting candidates than credits left (and when 10 or fewer remain); signing in with an
 * e-mail no hall uses asks before creating a hall, and a wrong password reads as a sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { addQuestions, api, createExam, launchBrowser, registerWorkspace, sampleMcqs, startAttempt, startTestServer, typeInto, type TestServer } from '../harness.js';
import { ensureBuilt } from './candidate-helpers.js';

let server: TestServer;
let browser: Browser;
let operator = '';

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  operator = rotateOperatorCredential(server.dataDir);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Signs in to the admin page with a workspace API key, typed key by key. */
async function signInWithKey(page: Page, apiKey: string): Promise<void> {
  await page.goto(`${server.baseUrl}/admin#/signin`);
  await page.click('[data-tab="key"]');
  await typeInto(page, '#signin-key [name="apiKey"]', apiKey);
  await page.click('#signin-key button[type="submit"]');
  await page.waitForSelector('#new-exam');
}

for (const [width, height] of [[1366, 768], [1024, 768]] as const) {
  describe.sequential(`credits at ${width}×${height}`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await browser.newPage({ viewport: { width, height } });
    });
    afterAll(() => page?.close());

    it('the operator tops up a hall with no credits left and the 31st candidate starts', async () => {
      const ws = await registerWorkspace(server.baseUrl, { name: `Unity Centre ${width}` });
      const e = await createExam(server.baseUrl, ws.apiKey, ws.id);
      await addQuestions(server.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
      for (let i = 1; i <= 30; i++) await startAttempt(server.baseUrl, e.accessCode, `U${width}-${i}`);
      await expect(startAttempt(server.baseUrl, e.accessCode, `U${width}-31`)).rejects.toThrow(/402/);

      await page.goto(`${server.baseUrl}/admin#/operator`);
      await typeInto(page, '#operator-signin [name="operatorKey"]', operator);
      await page.click('#operator-signin button[type="submit"]');
      const row = `#workspace-credits tr[data-workspace-id="${ws.id}"]`;
      await page.waitForSelector(row);
      expect(await page.textContent(`${row} .credits`)).toBe('0');
      const button = page.locator(`${row} [data-action="add-credits"]`);
      expect(await button.isVisible()).toBe(true);
      const box = await button.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width); // reachable without scrolling sideways
      await button.click();
      await typeInto(page, 'dialog.modal [name="add"]', '25');
      await typeInto(page, 'dialog.modal [name="note"]', 'Paid cash, receipt 0042');
      await page.click('dialog.modal button[type="submit"]');
      await expect.poll(() => page.textContent(`${row} .credits`), { timeout: 15_000 }).toBe('25');
      const audit = await api(server.baseUrl, ws.apiKey).get('/workspaces/me/audit');
      expect(audit.body[0]).toMatchObject({ action: 'credits.add', reason: 'Paid cash, receipt 0042', detail: { add: 25, credits: 25 } });

      await startAttempt(server.baseUrl, e.accessCode, `U${width}-31`);
      expect((await api(server.baseUrl, ws.apiKey).get('/workspaces/me')).body.credits).toBe(24);
      await page.click('#operator-signout');
    }, 120_000);

    it('warns every examiner when a roster has more waiting candidates than credits, and when 10 or fewer remain', async () => {
      const ws = await registerWorkspace(server.baseUrl);
      const e = await createExam(server.baseUrl, ws.apiKey, ws.id, { title: 'WAEC Biology mock' });
      await addQuestions(server.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(1));
      const candidates = Array.from({ length: 34 }, (_, i) => ({ studentId: `B${width}-${i + 1}`, candidateName: `Biology ${i + 1}` }));
      expect((await api(server.baseUrl, ws.apiKey).post(`/exams/${e.id}/roster`, { candidates })).status).toBe(201);
      await signInWithKey(page, ws.apiKey);
      const banner = page.locator('#credits-warning');
      await expect.poll(() => banner.isVisible(), { timeout: 15_000 }).toBe(true);
      const text = (await banner.textContent()) ?? '';
      expect(text).toContain('WAEC Biology mock');
      expect(text).toContain('34');
      expect(text).toContain('30');
      expect(text).toMatch(/4 of them/);

      // the operator adds enough: the warning goes at the next screen
      await api(server.baseUrl).post(`/system/workspaces/${ws.id}/credits`, { add: 10, note: 'enough for the roster' }, { 'x-operator-key': operator });
      await page.click('#mainnav a[data-nav="account"]');
      await expect.poll(() => banner.isVisible(), { timeout: 15_000 }).toBe(false);

      // a hall with 10 or fewer credits left and no roster is warned too
      const low = await registerWorkspace(server.baseUrl);
      const ex = await createExam(server.baseUrl, low.apiKey, low.id);
      await addQuestions(server.baseUrl, low.apiKey, low.id, ex.id, sampleMcqs(1));
      for (let i = 1; i <= 20; i++) await startAttempt(server.baseUrl, ex.accessCode, `L${width}-${i}`);
      await page.click('#signout');
      await signInWithKey(page, low.apiKey);
      await expect.poll(() => banner.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await banner.textContent()).toMatch(/Only 10 candidate credits left/);
      await page.click('#signout');
    }, 120_000);

    it('asks before creating a hall for an e-mail it does not know; a wrong password reads as a sentence', async () => {
      const email = `new.centre.${width}.${Date.now()}@example.com`;
      const count = () => (server.deps.sqlite.prepare('SELECT count(*) AS n FROM workspaces WHERE email_key = ?').get(email) as { n: number }).n;
      await page.goto(`${server.baseUrl}/admin#/signin`);
      await typeInto(page, '#signin-password [name="email"]', email);
      await typeInto(page, '#signin-password [name="password"]', 'centre password');
      await page.click('#signin-password button[type="submit"]');
      await page.waitForSelector('dialog.modal');
      expect(await page.textContent('dialog.modal h2')).toBe('No hall is registered with this e-mail — create a new one?');
      await page.click('dialog.modal [data-action="cancel"]');
      await page.waitForSelector('dialog.modal', { state: 'detached' });
      expect(count()).toBe(0);
      expect(await page.isVisible('#new-exam')).toBe(false);

      await page.click('#signin-password button[type="submit"]');
      await page.waitForSelector('dialog.modal');
      await page.click('dialog.modal button[type="submit"]');
      await page.waitForSelector('#new-exam');
      expect(count()).toBe(1);
      expect(await page.textContent('#ws-credits')).toBe('30');

      await page.click('#signout');
      await typeInto(page, '#signin-password [name="email"]', email);
      await typeInto(page, '#signin-password [name="password"]', 'not the password');
      await page.click('#signin-password button[type="submit"]');
      const error = page.locator('.signin .error');
      await expect.poll(() => error.isVisible(), { timeout: 15_000 }).toBe(true);
      const message = ((await error.textContent()) ?? '').trim();
      expect(message).toMatch(/^The password is wrong for this e-mail\. .*\.$/);
      expect(message).not.toMatch(/Unauthorized/);
      expect(await page.isVisible('dialog.modal')).toBe(false);
    }, 120_000);
  });
}
