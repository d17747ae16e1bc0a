/**
 * Issue 20 item 4: the admin page shows and accepts exam windows in the hall's local time
 * (the admin PC's time zone, here Asia/Kolkata, UTC+5:30) with the zone named, and the
 * server stores UTC. The times are typed key by key into the datetime-local inputs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, launchBrowser, registerWorkspace, startTestServer, type TestServer } from '../harness.js';

// Chromium's ICU names the zone by its older alias, Asia/Calcutta
const ZONE = /Asia\/(Kolkata|Calcutta)/;
let server: TestServer;
let browser: Browser;
let page: Page;
let apiKey = '';

beforeAll(async () => {
  server = await startTestServer();
  apiKey = (await registerWorkspace(server.baseUrl)).apiKey;
  browser = await launchBrowser();
  page = await (await browser.newContext({ timezoneId: 'Asia/Kolkata', locale: 'en-GB', viewport: { width: 1280, height: 900 } })).newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Types a local date and time into a datetime-local input, key by key. Headless Chromium
 * lays the input out in its UI language (en-US: mm/dd/yyyy, hh:mm AM), whatever the page's
 * locale.
 */
async function typeLocal(selector: string, mmddyyyy: string, hhmmAmPm: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.type(mmddyyyy);
  await page.keyboard.press('Tab');
  await page.keyboard.type(hhmmAmPm);
}

describe('exam windows in the hall’s local time', () => {
  it('accepts local times, stores UTC, and shows them back in local time with the zone named', async () => {
    await page.goto(`${server.baseUrl}/admin`);
    await page.click('[data-tab="key"]');
    await page.click('#signin-key [name="apiKey"]');
    await page.keyboard.type(apiKey);
    await page.click('#signin-key button[type="submit"]');
    await page.waitForSelector('#new-exam');
    await page.click('#new-exam');
    await page.click('#new-exam-form [name="title"]');
    await page.keyboard.type('Physics mock');
    await typeLocal('#new-exam-form [name="startsAt"]', '12012026', '0900AM');
    await typeLocal('#new-exam-form [name="endsAt"]', '12012026', '1130AM');
    expect(await page.inputValue('#new-exam-form [name="startsAt"]')).toBe('2026-12-01T09:00');
    // the form names the zone the times are in
    expect(await page.textContent('#new-exam-form')).toMatch(ZONE);
    await page.click('#new-exam-form button[type="submit"]');
    await page.waitForSelector('#tab-questions');
    const examId = decodeURIComponent(/#\/exams\/([^/]+)/.exec(page.url())![1]!);
    const exam = (await api(server.baseUrl, apiKey).get(`/exams/${examId}`)).body;
    expect(exam).toMatchObject({ startsAt: '2026-12-01T03:30:00.000Z', endsAt: '2026-12-01T06:00:00.000Z' });

    // the list shows the window in local time and names the zone
    await page.evaluate(() => (location.hash = '#/exams'));
    const cell = `tr[data-exam-id="${examId}"] td.exam-window`;
    await page.waitForSelector(cell);
    const shown = (await page.textContent(cell))!;
    expect(shown).toMatch(/09:00/);
    expect(shown).toMatch(/11:30/);
    expect(shown).toMatch(ZONE);
    expect(shown).not.toMatch(/03:30|06:00/);

    // the settings form shows the local times back
    await page.evaluate((id) => (location.hash = `#/exams/${id}/settings`), examId);
    await page.waitForSelector('#exam-settings-form');
    expect(await page.inputValue('#exam-settings-form [name="startsAt"]')).toBe('2026-12-01T09:00');
    expect(await page.inputValue('#exam-settings-form [name="endsAt"]')).toBe('2026-12-01T11:30');
  }, 60_000);
});
