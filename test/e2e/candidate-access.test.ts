/**
 * Access arrangements in real Chromium (issue 37 item 6): the admin page's roster form adds
 * a candidate with extra time (25 % and 15 minutes) and subjects; that candidate's clock on
 * the candidate page reads 1:30:00 of a 60-minute exam; large text on and high contrast on
 * are one click each (axe finds no contrast problem with both on), and a reload keeps both
 * (kept per attempt); the monitor shows
 * "+25% +15 min" with the candidate's own end time. Screenshot:
 * docs/screenshots/candidate-large-text-1024.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, ROOT, typeInto, type TestServer } from '../harness.js';
import { openPage, pageSuite, seedExam, signInAndStart } from './candidate-helpers.js';

let browser: Browser;
let server: TestServer;
pageSuite((started) => ({ browser, server } = started));

const SHOTS = join(ROOT, 'docs', 'screenshots');

/** A fresh admin tab signed in with the API key, at `hash`. */
async function adminTab(apiKey: string, hash: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, timezoneId: 'Africa/Lagos', locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/admin`);
  await page.click('[data-tab="key"]');
  await typeInto(page, '#signin-key [name="apiKey"]', apiKey);
  await page.click('#signin-key button[type="submit"]');
  await page.waitForSelector('#new-exam');
  await page.evaluate((h) => (location.hash = h), hash);
  return page;
}

// evaluated through the DevTools protocol: the page's CSP refuses inline scripts
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** axe's colour-contrast and button-name violations on the page as it is now. */
async function contrastProblems(p: Page): Promise<string[]> {
  if (!(await p.evaluate(() => 'axe' in window))) await p.evaluate(AXE_SOURCE);
  const violations = await p.evaluate(async () => {
    const w = window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } };
    return (await w.axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast', 'button-name'] } })).violations;
  });
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

const looks = (page: Page) =>
  page.evaluate(() => ({
    classes: document.documentElement.className,
    rootFontPx: getComputedStyle(document.documentElement).fontSize,
    bodyBackground: getComputedStyle(document.body).backgroundColor,
    pressed: Array.from(document.querySelectorAll('button.look')).map((b) => `${b.textContent}:${b.getAttribute('aria-pressed')}`),
  }));

describe('access arrangements', () => {
  it('extra time from the roster form runs on the candidate’s clock; large text on and high contrast on survive a reload; the monitor shows both', async () => {
    // a UTME-style paper: English for everyone, Physics for those who chose it (the subjects typed below are its sections)
    const seeded = await seedExam(
      server.baseUrl,
      [
        { prompt: 'Which is a noun?', type: 'MCQ', marks: 1, section: 'English', options: [{ text: 'Table', isCorrect: true }, { text: 'Quickly', isCorrect: false }] },
        { prompt: 'The unit of force is the', type: 'MCQ', marks: 1, section: 'Physics', options: [{ text: 'newton', isCorrect: true }, { text: 'joule', isCorrect: false }] },
      ],
      { durationMins: 60, title: 'JAMB mock — English', sections: [{ name: 'English' }, { name: 'Physics', compulsory: false }] },
    );

    // the examiner adds the candidate on the roster tab, typing the arrangements
    const admin = await adminTab(seeded.apiKey, `#/exams/${seeded.examId}/roster`);
    await admin.waitForSelector('#roster-add-form');
    const posted: unknown[] = [];
    admin.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/exams/${seeded.examId}/roster`)) posted.push(r.postDataJSON());
    });
    await typeInto(admin, '#roster-add-form [name="studentId"]', 'AA-01');
    await typeInto(admin, '#roster-add-form [name="candidateName"]', 'Amina Bello');
    await typeInto(admin, '#roster-add-form [name="extraTimePercent"]', '25');
    await typeInto(admin, '#roster-add-form [name="extraTimeMins"]', '15');
    await typeInto(admin, '#roster-add-form [name="subjects"]', 'English, Physics ,');
    await admin.click('#roster-add-form button[type="submit"]');
    await admin.waitForSelector('#roster-table tr[data-student-id="AA-01"]');
    expect(posted).toEqual([{ candidates: [{ studentId: 'AA-01', candidateName: 'Amina Bello', extraTimePercent: 25, extraTimeMins: 15, subjects: ['English', 'Physics'] }] }]);
    expect(await admin.textContent('#roster-table tr[data-student-id="AA-01"] [data-field="extra-time"]')).toBe('+25% +15 min');
    const roster = (await api(server.baseUrl, seeded.apiKey).get(`/exams/${seeded.examId}/roster`)).body as { studentId: string; pin: string; extraTimePercent: number; extraTimeMins: number }[];
    expect(roster).toMatchObject([{ studentId: 'AA-01', extraTimePercent: 25, extraTimeMins: 15 }]);

    // the candidate: 60 × 1.25 + 15 = 90 minutes on the clock
    const { page, context, errors } = await openPage(browser, server.baseUrl, { viewport: { width: 1024, height: 768 } });
    await signInAndStart(page, { accessCode: seeded.accessCode, name: 'Amina Bello', studentId: 'AA-01', pin: roster[0]!.pin });
    await page.waitForFunction(() => /^1:(29:5\d|30:00)$/.test(document.getElementById('timer')?.textContent ?? ''));
    const before = await looks(page);
    expect(before.rootFontPx).toBe('16px');
    expect(before.pressed).toEqual(['Large text:false', 'High contrast:false']);

    // large text on: one click
    await page.click('button.look:has-text("Large text")');
    expect(await looks(page)).toMatchObject({ classes: 'lt', rootFontPx: '20px', pressed: ['Large text:true', 'High contrast:false'] });
    // high contrast on: one click
    await page.click('button.look:has-text("High contrast")');
    const both = await looks(page);
    expect(both).toMatchObject({ rootFontPx: '20px', bodyBackground: 'rgb(255, 255, 255)', pressed: ['Large text:true', 'High contrast:true'] });
    expect(both.classes.split(' ').sort()).toEqual(['hc', 'lt']);
    expect(await contrastProblems(page)).toEqual([]);
    // the question still fits the width at 1024×768 with large text
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'candidate-large-text-1024.png') });

    // a reload keeps both for this attempt
    await page.reload();
    await page.waitForSelector('section.question');
    const after = await looks(page);
    expect(after.rootFontPx).toBe('20px');
    expect(after.classes.split(' ').sort()).toEqual(['hc', 'lt']);
    expect(after.pressed).toEqual(['Large text:true', 'High contrast:true']);
    await page.waitForFunction(() => /^1:(29:\d\d|30:00)$/.test(document.getElementById('timer')?.textContent ?? ''));
    // turned off again, and that is kept too
    await page.click('button.look:has-text("High contrast")');
    await page.reload();
    await page.waitForSelector('section.question');
    expect(await looks(page)).toMatchObject({ classes: 'lt', pressed: ['Large text:true', 'High contrast:false'] });
    expect(errors).toEqual([]);

    // the invigilator's monitor: the arrangements and the candidate's own end time
    await admin.evaluate((h) => (location.hash = h), `#/exams/${seeded.examId}/monitor`);
    await admin.waitForSelector('#monitor-table [data-field="extra-time"]');
    const timeUpAt = ((await api(server.baseUrl, seeded.apiKey).get(`/exams/${seeded.examId}/monitor`)).body.attempts[0] as { timeUpAt: string }).timeUpAt;
    const hallTime = new Date(timeUpAt).toLocaleTimeString('en-GB', { timeZone: 'Africa/Lagos', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    expect(await admin.textContent('#monitor-table [data-field="extra-time"]')).toBe(` +25% +15 min · ends ${hallTime}`);
    // about 90 minutes after the start
    expect(Date.parse(timeUpAt) - Date.now()).toBeGreaterThan(89 * 60_000);
    await admin.context().close();
    await context.close();
  }, 60_000);
});
