/**
 * Safe Exam Browser lockdown end to end (issue 25): real server on loopback, real
 * Chromium. SEB is played by a request interceptor that adds
 * X-SafeExamBrowser-ConfigKeyHash to every request, computed per request URL exactly as
 * SEB does (SHA-256 of the absolute URL without fragment + Config Key); newer SEB
 * versions by a `window.SafeExamBrowser` injected before the page loads (the JS API).
 * The page must refuse calmly without the header, with a stale key, with a hash for
 * another URL and with another exam's key, and stop and lock a running exam whose
 * requests stop carrying a valid hash.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, launchBrowser, sampleMcqs, startTestServer, type TestServer } from '../harness.js';
import { ensureBuilt, seedExam, shot, waitAllSaved, type SeededExam } from './candidate-helpers.js';

const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');

type Mode = 'valid' | 'none' | 'stale' | 'other-url' | 'other-exam';

let s: TestServer;
let browser: Browser;
let exam: SeededExam & { key: string; staleKey: string };
let otherKey: string;

beforeAll(async () => {
  ensureBuilt();
  // several candidates sign in from Chromium on this one loopback address, as no hall does: the open room's one-attempt-per-computer rule is off (it has its own tests, test/security/open-room.test.ts)
  s = await startTestServer({ jobs: true, config: { CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0 } });
  const seeded = await seedExam(s.baseUrl, sampleMcqs(3), { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } });
  const a = api(s.baseUrl, seeded.apiKey);
  const staleKey = (await a.get(`/exams/${seeded.examId}`)).body.safeExamBrowser.configKey as string;
  // the examiner changed the quit password: configurations handed out before are stale
  const patched = await a.patch(`/exams/${seeded.examId}`, { safeExamBrowser: { quitPassword: 'HALL-QUIT-2' } });
  exam = { ...seeded, key: patched.body.safeExamBrowser.configKey, staleKey };
  const other = await seedExam(s.baseUrl, sampleMcqs(1), { requireSafeExamBrowser: true, safeExamBrowser: { baseUrl: s.baseUrl } });
  otherKey = (await api(s.baseUrl, other.apiKey).get(`/exams/${other.examId}`)).body.safeExamBrowser.configKey;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/**
 * A browser context whose requests carry the header SEB would send in `mode()`.
 * Without the candidate page's service worker: request interception and a service worker do
 * not mix reliably (Playwright's documented advice is `serviceWorkers: 'block'`), and here
 * the worker the first page registers finished installing before or after the test's next
 * navigation by chance (about one navigation in three was answered by it under load), so the
 * same test took two paths. The hall's default setting has no worker either: the page
 * registers one only in a secure context (HTTPS or localhost), not on the LAN's plain HTTP.
 */
async function sebContext(mode: () => Mode): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB', serviceWorkers: 'block' });
  await context.route('**/*', (route) => {
    const url = route.request().url().split('#')[0]!;
    const m = mode();
    const hash = m === 'valid' ? sha(url + exam.key) : m === 'stale' ? sha(url + exam.staleKey) : m === 'other-url' ? sha(`${s.baseUrl}/attempts/elsewhere` + exam.key) : m === 'other-exam' ? sha(url + otherKey) : null;
    const headers = { ...route.request().headers() };
    if (hash) headers['x-safeexambrowser-configkeyhash'] = hash;
    return route.continue({ headers });
  });
  return { context, page: await context.newPage() };
}

/** Types the sign-in form key by key and submits it. */
async function signIn(page: Page, studentId: string): Promise<void> {
  await page.waitForSelector('#candidateName');
  if (!(await page.inputValue('#accessCode'))) await page.type('#accessCode', exam.accessCode);
  await page.type('#candidateName', `Candidate ${studentId}`);
  await page.type('#studentId', studentId);
  await page.type('#candidatePin', '2468');
  await page.keyboard.press('Enter');
}

async function answerCurrent(page: Page, index: number): Promise<void> {
  await page.click(`.nav-q[data-index="${index}"]`);
  await page.click('label.option >> nth=0');
}

const roomPath = () => `/?room=${exam.accessCode}`;

describe('a candidate page in Safe Exam Browser', () => {
  it('with the header on every request: signs in, answers, submits, and offers the quit link', async () => {
    const { context, page } = await sebContext(() => 'valid');
    try {
      await page.goto(s.baseUrl + roomPath());
      await signIn(page, 'E2E-SEB-OK');
      await page.click('#start-exam');
      await answerCurrent(page, 0);
      await waitAllSaved(page);
      await page.click('#open-submit');
      await page.click('#confirm-submit');
      await page.waitForSelector('#screen-result');
      expect(await page.getAttribute('#seb-quit', 'href')).toBe(`${s.baseUrl}/?quit=1`);
      const row = s.deps.sqlite.prepare("SELECT status FROM attempts WHERE student_id = 'E2E-SEB-OK'").get();
      expect(row).toEqual({ status: 'COMPLETED' });
    } finally {
      await context.close();
    }
  }, 60_000);

  for (const mode of ['none', 'stale', 'other-url', 'other-exam'] as const) {
    it(`refuses calmly (${mode === 'none' ? 'no header' : mode === 'stale' ? 'a stale key' : mode === 'other-url' ? 'a hash for another URL' : 'another exam’s key'}) and points to the invigilator’s seb:// link; sign-in is refused too`, async () => {
      const { context, page } = await sebContext(() => mode);
      try {
        await page.goto(s.baseUrl + roomPath());
        await page.waitForSelector('#screen-seb');
        // issue #34 finding 6: the .seb link needs the download code, so the page cannot offer it
        expect(await page.textContent('#seb-how')).toContain('PIN slip');
        expect(await page.locator('#seb-open').count()).toBe(0);
        if (mode === 'none') await shot(page, 'candidate-seb-required');
        // the plain page without a room link: the start itself is refused
        await page.goto(s.baseUrl + '/');
        await signIn(page, `E2E-SEB-${mode}`);
        await page.waitForSelector('#screen-seb');
        const n = s.deps.sqlite.prepare('SELECT count(*) AS n FROM attempts WHERE student_id = ?').get(`E2E-SEB-${mode}`) as { n: number };
        expect(n.n).toBe(0);
      } finally {
        await context.close();
      }
    }, 60_000);
  }

  it('stops and locks a running exam whose requests lose the valid hash; keeps the answers; the invigilator reinstates', async () => {
    let mode: Mode = 'valid';
    const { context, page } = await sebContext(() => mode);
    try {
      await page.goto(s.baseUrl + roomPath());
      await signIn(page, 'E2E-SEB-LOCK');
      await page.click('#start-exam');
      await answerCurrent(page, 0);
      await waitAllSaved(page);
      mode = 'other-exam';
      await answerCurrent(page, 1);
      await page.waitForSelector('#screen-locked');
      expect(await page.textContent('#screen-locked')).toContain('Safe Exam Browser');
      const row = s.deps.sqlite.prepare("SELECT id, status, lock_reason FROM attempts WHERE student_id = 'E2E-SEB-LOCK'").get() as { id: string; status: string; lock_reason: string };
      expect(row).toMatchObject({ status: 'DISQUALIFIED', lock_reason: 'SAFE_EXAM_BROWSER' });
      const answers = s.deps.sqlite.prepare('SELECT count(*) AS n FROM answers WHERE attempt_id = ?').get(row.id) as { n: number };
      expect(answers.n).toBe(1);
      const re = await api(s.baseUrl, exam.apiKey).post(`/attempts/${row.id}/reinstate`, { reason: 'SEB restarted from the hall configuration' });
      expect(re.status).toBe(200);
      mode = 'valid';
      // the lock screen polls every 10 s and reopens the exam by itself
      await page.waitForSelector('section.question', { timeout: 25_000 });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('newer SEB (JS API, no header): the page sends SafeExamBrowser.security.configKey for its URL and the exam runs', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB' });
    try {
      const pageValue = sha(`${s.baseUrl}${roomPath()}` + exam.key);
      // SEB 3.0 for macOS/iOS style: the value appears only after updateKeys(callback)
      await context.addInitScript(`window.SafeExamBrowser = { version: 'SEB_macOS_3.0_test', security: { updateKeys: function (cb) { var s = this; setTimeout(function () { s.configKey = '${pageValue}'; cb(); }, 50); } } };`);
      const page = await context.newPage();
      await page.goto(s.baseUrl + roomPath());
      await signIn(page, 'E2E-SEB-JS');
      await page.click('#start-exam');
      await answerCurrent(page, 0);
      await waitAllSaved(page);
      const row = s.deps.sqlite.prepare("SELECT status FROM attempts WHERE student_id = 'E2E-SEB-JS'").get();
      expect(row).toEqual({ status: 'IN_PROGRESS' });
      const mon = await api(s.baseUrl, exam.apiKey).get(`/exams/${exam.examId}/monitor`);
      expect(mon.body.attempts.find((a: { studentId: string }) => a.studentId === 'E2E-SEB-JS').sebValid).toBe(true);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('the admin page with Safe Exam Browser', () => {
  it('switches SEB on in the exam settings, shows the Config Key, quit password and seb:// link, and the monitor’s SEB column', async () => {
    const seeded = await seedExam(s.baseUrl, sampleMcqs(2));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    try {
      const page = await context.newPage();
      await page.goto(`${s.baseUrl}/admin`);
      await page.click('[data-tab="key"]');
      await page.type('#signin-key [name="apiKey"]', seeded.apiKey);
      await page.click('#signin-key button[type="submit"]');
      await page.waitForSelector('#new-exam');
      await page.evaluate((id) => (location.hash = `#/exams/${id}/settings`), seeded.examId);
      await page.click('#exam-settings-form [name="requireSafeExamBrowser"]');
      await page.click('#exam-settings-form button[type="submit"]');
      await page.waitForSelector('#seb-card');
      const read = (await api(s.baseUrl, seeded.apiKey).get(`/exams/${seeded.examId}/safe-exam-browser`)).body;
      expect(read.required).toBe(true);
      expect(await page.textContent('#seb-config-key')).toBe(read.configKey);
      expect(await page.textContent('#seb-quit-password')).toBe(read.quitPassword);
      expect(await page.textContent('#seb-link')).toBe(read.sebUrl);
      expect(await page.textContent('#seb-download-code')).toBe(read.downloadCode);
      expect(await page.locator('#seb-card svg.qr').count()).toBe(1);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-seb')]);
      expect(download.suggestedFilename()).toBe(`${seeded.accessCode}.seb`);
      await shot(page, 'admin-seb-settings');
      // a candidate through SEB (valid hash per URL) appears with a valid SEB mark
      const p = `${s.baseUrl}/attempts/start`;
      const started = await api('').post(p, { accessCode: seeded.accessCode, studentId: 'E2E-MON', candidateName: 'Monitor Seat', candidatePin: '2468' }, { 'x-safeexambrowser-configkeyhash': sha(p + read.configKey) });
      expect(started.status).toBe(200);
      await page.evaluate((id) => (location.hash = `#/exams/${id}/monitor`), seeded.examId);
      await page.waitForSelector('td[data-field="seb"]');
      // issue #34 finding 6: the Config check and the BEK check, separately
      expect(await page.textContent('td[data-field="seb"]')).toBe('Config ✓ · BEK not checked');
      // PIN slips carry the seb:// link and its QR code; the exam's poster too
      expect((await api(s.baseUrl, seeded.apiKey).post(`/exams/${seeded.examId}/roster`, { candidates: [{ studentId: 'SLIP-1', candidateName: 'Slip Holder' }] })).status).toBe(201);
      await page.evaluate((id) => (location.hash = `#/exams/${id}/roster`), seeded.examId);
      await page.waitForSelector('#print-area.print-slips .slip-seb svg', { state: 'attached' });
      expect(await page.textContent('#print-area .slip-seb')).toContain(read.sebUrl);
      await page.evaluate((id) => (location.hash = `#/exams/${id}/settings`), seeded.examId);
      await page.waitForSelector('#print-area.print-poster svg', { state: 'attached' });
      expect(await page.textContent('#print-area.print-poster')).toContain(read.sebUrl);
    } finally {
      await context.close();
    }
  }, 60_000);
});
