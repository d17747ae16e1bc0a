/**
 * The admin page's "Exam board" screen in real Chromium (issue #24, hall side): an
 * examiner enrols the hall with a hub by typing its address, the one-time code and the hall
 * operator's credential, loads a
 * sealed package from a file (a USB stick), sees it sealed, types a wrong release code
 * (refused, with a clear message) and then the right one key by key, and gets the exam.
 */
import { serve } from '@hono/node-server';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { systemClock } from '../../src/platform/clock.js';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { ROOT, launchBrowser, registerWorkspace, startTestServer, type TestServer, typeInto } from '../harness.js';
import { pgAvailability, startPgCluster, type PgCluster } from '../pg/cluster.js';
import { asExaminer, samplePaper, startHub } from '../hub/helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('admin page: exam board', () => {
  let cluster: PgCluster;
  let hub: Awaited<ReturnType<typeof startHub>>;
  let hubServer: Server;
  let hall: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    cluster = await startPgCluster();
    hub = await startHub(cluster, { clock: systemClock as never });
    hubServer = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: hub.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
    });
    hall = await startTestServer({ config: { CBT_HUB_ALLOW_LOCAL: '1' } }); // the hub listens on loopback
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await hall?.close();
    hubServer?.close();
    await hub?.close();
    await cluster?.stop();
  });

  it('enrols, loads a sealed paper from a file and releases it with the typed code', async () => {
    const key = hub.firstExaminer!.apiKey;
    const hubUrl = `http://127.0.0.1:${(hubServer.address() as AddressInfo).port}`;
    const ws = await registerWorkspace(hall.baseUrl);
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Abeokuta centre' });

    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${hall.baseUrl}/admin`);
    await page.click('[data-tab="key"]');
    await page.locator('input[name="apiKey"]').click();
    await page.keyboard.type(ws.apiKey);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#mainnav a[data-nav="hub"]');
    await page.click('#mainnav a[data-nav="hub"]');

    await page.locator('#hub-enrol-form input[name="hubUrl"]').click();
    await page.keyboard.type(hubUrl);
    await page.locator('#hub-enrol-form input[name="enrolmentCode"]').click();
    await page.keyboard.type(created.json.enrolmentCode);
    // enrolling needs the hall operator's credential too (issue #34, finding 1)
    await page.locator('#hub-enrol-form input[name="operatorKey"]').click();
    await page.keyboard.type(rotateOperatorCredential(hall.dataDir));
    await page.click('#hub-enrol-form button[type="submit"]');
    await page.waitForSelector('#hub-last-sync');
    expect(await page.textContent('main, #app')).toContain(created.json.id);

    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', { ...samplePaper(new Date(Date.now() + 3600_000).toISOString()) });
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [created.json.id] });
    const { packageId, releaseCode } = pub.json.packages[0];
    const file = (await asExaminer(hub, key, 'GET', `/hub/v1/package-files/${packageId}`)).text;
    await page.setInputFiles('#hub-package-file', { name: `${packageId}.hallcbt-package.json`, mimeType: 'application/json', buffer: Buffer.from(file) });
    const row = page.locator(`tr[data-package-id="${packageId}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('sealed');
    expect(await row.textContent()).toContain('Board Mathematics mock');

    // a wrong code: refused, and the paper stays sealed
    const input = row.locator('input[name="releaseCode"]');
    await input.click();
    await page.keyboard.type('ABC-DEF-GHJ-KMN-PQR-STV-WXY');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await row.textContent()) ?? '').toMatch(/wrong|character|not the one/i);
    expect(await row.getAttribute('data-state')).toBe('sealed');

    await typeInto(page, input, releaseCode);
    await page.keyboard.press('Enter');
    const released = page.locator(`tr[data-package-id="${packageId}"][data-state="released"]`);
    await released.waitFor();
    expect(await released.textContent()).toContain('Released (by code)');
    mkdirSync(join(ROOT, 'test', 'artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test', 'artifacts', 'admin-hub.png'), fullPage: true });
    await released.locator('a').click();
    await page.waitForFunction(() => location.hash.startsWith('#/exams/ex_'));
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
