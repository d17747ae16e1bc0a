/**
 * The admin page for the hall operator and against sign-in guessing (issue 22 parts 2
 * and 3), in real Chromium against the real app on loopback: the operator signs in on
 * #/operator with the operator credential (a workspace API key is refused), sees the
 * backups with no machine paths and takes one; the invigilator sees wrong sign-ins per
 * student ID on the live monitor and clears one with a reason (audited), after which
 * the candidate signs in from the same computer at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { addQuestions, api, createExam, launchBrowser, registerWorkspace, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { seat } from '../security/from-address.js';
import { ensureBuilt } from './candidate-helpers.js';

let server: TestServer;
let browser: Browser;
let page: Page;
let operator = '';
let ws: Awaited<ReturnType<typeof registerWorkspace>>;

beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  operator = rotateOperatorCredential(server.dataDir);
  ws = await registerWorkspace(server.baseUrl, { name: 'Kano Study Centre' });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Types into a field key by key. */
async function typeInto(selector: string, text: string): Promise<void> {
  await page.click(selector);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

describe.sequential('admin page: hall operator', () => {
  it('signs in with the operator credential only, lists backups without paths and takes one', async () => {
    await page.goto(`${server.baseUrl}/admin`);
    await page.click('#operator-link');
    await page.waitForSelector('#operator-signin');
    // a workspace API key is not the operator's credential
    await typeInto('#operator-signin [name="operatorKey"]', ws.apiKey);
    await page.click('#operator-signin button[type="submit"]');
    await expect.poll(() => page.textContent('.signin .error')).toContain('operator');
    await typeInto('#operator-signin [name="operatorKey"]', operator);
    await page.click('#operator-signin button[type="submit"]');
    await page.waitForSelector('#backup-now');
    expect(await page.textContent('#backup-list')).toContain('No backups yet');
    expect(await page.textContent('#backup-settings')).toContain('first backup of each hour');
    await page.click('#backup-now');
    await page.waitForSelector('#backup-list tbody tr');
    const text = (await page.textContent('main')) ?? '';
    expect(text).toMatch(/hallcbt-\d{8}-\d{6}\.sqlite/);
    expect(text).not.toContain(server.dataDir);
    // the credential is kept for this tab only, apart from any workspace key
    expect(await page.evaluate(() => ({ local: localStorage.length, session: Object.entries(sessionStorage) }))).toEqual({ local: 0, session: [['hallcbt.admin.operator', operator]] });
    await page.reload();
    await page.waitForSelector('#backup-list tbody tr');
    await page.click('#operator-signout');
    await page.waitForSelector('#operator-signin');
  }, 60_000);

  it('shows wrong sign-ins per student ID on the monitor and clears one with a reason', async () => {
    const e = await createExam(server.baseUrl, ws.apiKey, ws.id, { title: 'Throttle drill' });
    await addQuestions(server.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
    const added = await api(server.baseUrl, ws.apiKey).post(`/exams/${e.id}/roster`, { candidates: [{ studentId: 'KN-7', candidateName: 'Zainab Musa' }] });
    const pin = added.body.candidates[0].pin as string;
    const pc = seat('127.0.0.2', server.baseUrl);
    for (let i = 0; i < 6; i++) await pc.post('/attempts/start', { accessCode: e.accessCode, studentId: 'KN-7', candidateName: 'x', candidatePin: pin === '000000' ? '111111' : '000000' });
    expect((await pc.post('/attempts/start', { accessCode: e.accessCode, studentId: 'KN-7', candidateName: 'x', candidatePin: pin })).status).toBe(429);

    await page.goto(`${server.baseUrl}/admin#/signin`);
    await page.click('[data-tab="key"]');
    await typeInto('#signin-key [name="apiKey"]', ws.apiKey);
    await page.click('#signin-key button[type="submit"]');
    await page.waitForSelector('#new-exam');
    await page.evaluate((id) => (location.hash = `#/exams/${id}/monitor`), e.id);
    const row = '#sign-in-failures tr[data-student-id="KN-7"]';
    await page.waitForSelector(row, { timeout: 10_000 });
    expect(await page.textContent(row)).toContain('5');
    await page.click(`${row} [data-action="clear-throttle"]`);
    await typeInto('dialog.modal [name="reason"]', 'Zainab showed her exam slip');
    await page.click('dialog.modal button[type="submit"]');
    await page.waitForSelector(row, { state: 'detached', timeout: 5000 });
    const audit = await api(server.baseUrl, ws.apiKey).get('/workspaces/me/audit');
    expect(audit.body[0]).toMatchObject({ action: 'sign-in-throttle.clear', reason: 'Zainab showed her exam slip', detail: { studentId: 'KN-7' } });
    expect((await pc.post('/attempts/start', { accessCode: e.accessCode, studentId: 'KN-7', candidateName: 'x', candidatePin: pin })).status).toBe(200);
  }, 60_000);
});
