/**
 * Issue 39 item 1 on the admin page, in real Chromium at 1024×768: one essay question's
 * calibrated review. The "Mark these first" scripts come first with no recommendation;
 * approving one re-asks for the rest (an "Updating" state) and they turn calibrated; once
 * high-confidence recommendations appear, "Approve all N" is live only after each is ticked
 * "Read", and its confirmation states how many and the marks in all; the group is stored
 * and every attempt re-graded. Scripts: a human-marked question of essay-marking-2
 * (test/core/essay-seed.ts). Screenshot: docs/screenshots/admin-essay-review-calibrated-1024.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, api, launchBrowser, startTestServer, type TestServer } from '../harness.js';
import { seedEssayHall, type EssayHall } from '../core/essay-seed.js';

const SHOTS = join(ROOT, 'docs', 'screenshots');
// evaluated through the DevTools protocol, as test/e2e/admin-a11y.test.ts does (the page's CSP refuses inline scripts)
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let server: TestServer;
let browser: Browser;
let page: Page;
let hall: EssayHall;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'public', 'admin', 'app.js'))) throw new Error('public/admin/app.js is missing: run `node scripts/build-web.mjs`');
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  hall = await seedEssayHall(server.baseUrl, 12);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB' })).newPage();
  await page.goto(`${server.baseUrl}/admin`);
  await page.click('[data-tab="key"]');
  await page.click('#signin-key [name="apiKey"]');
  await page.keyboard.type(hall.ws.apiKey);
  await page.click('#signin-key button[type="submit"]');
  await page.waitForSelector('#new-exam');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const human = () => new Map(hall.scripts.map((s) => [s.attemptId, s.human]));

/** Types the examiner's mark into a card: the total spread over the criteria in order, each up to its maximum. */
async function markCard(card: string, total: number) {
  const inputs = page.locator(`${card} input.criterion-score`);
  let left = total;
  for (let i = 0; i < (await inputs.count()); i++) {
    const max = Number(await inputs.nth(i).getAttribute('max'));
    const give = Math.min(max, left);
    await inputs.nth(i).fill(String(give));
    left -= give;
  }
}

/** Watches #review-updating: resolves whether it was shown at some point since the call. */
async function watchUpdating() {
  await page.evaluate(() => {
    const w = window as unknown as { __updatingSeen: boolean };
    w.__updatingSeen = false;
    const el = document.getElementById('review-updating')!;
    new MutationObserver(() => { if (!el.hidden) w.__updatingSeen = true; }).observe(el, { attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { __updatingSeen: boolean }).__updatingSeen);
}

/** Approves the first "Mark these first" script with the examiner's mark and waits for the refreshed lists. */
async function markFirstOne(): Promise<string> {
  const card = '#mark-first .script-card >> nth=0';
  const id = (await page.getAttribute(card, 'data-attempt-id'))!;
  await markCard(`#mark-first .script-card[data-attempt-id="${id}"]`, human().get(id)!);
  const seen = await watchUpdating();
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/recommendations') && r.status() === 200);
  await page.click(`#mark-first .script-card[data-attempt-id="${id}"] [data-action="approve"]`);
  await refreshed;
  await page.waitForSelector(`#marked li[data-attempt-id="${id}"]`);
  expect(await seen()).toBe(true);
  return id;
}

describe('calibrated essay review at 1024×768', () => {
  it('lists the scripts to mark first, without a recommendation; the others show theirs with confidence in words', async () => {
    await page.evaluate((h) => (location.hash = h), `#/exams/${encodeURIComponent(hall.exam.id)}/review`);
    await page.click(`.review-by-question a[data-question-id="${hall.questionId}"]`);
    await page.waitForSelector('#mark-first .script-card');
    expect(await page.textContent('#mark-first-title')).toBe('Mark these first');
    const first = await page.$$eval('#mark-first .script-card', (els) => els.map((e) => ({ id: e.getAttribute('data-attempt-id'), badge: e.querySelector('.badge.mark-first')?.textContent, rec: !!e.querySelector('.rec-line'), text: e.querySelector('.essay-answer')?.textContent ?? '' })));
    const api0 = (await api(server.baseUrl, hall.ws.apiKey).get(`/exams/${hall.exam.id}/essay-review/${hall.questionId}/recommendations`)).body;
    expect(first.map((f) => f.id)).toEqual(api0.markFirst);
    first.forEach((f, i) => expect(f).toMatchObject({ badge: `Mark first: ${i + 1} of 3`, rec: false }));
    expect(first.every((f) => f.text.length > 20)).toBe(true);
    const recs = await page.$$eval('#recommended .script-card', (els) => els.map((e) => ({ conf: e.querySelector('.badge.conf')?.getAttribute('data-confidence'), word: e.querySelector('.badge.conf')?.textContent, line: e.querySelector('.rec-line')?.textContent ?? '' })));
    expect(recs).toHaveLength(hall.scripts.length - 3);
    for (const r of recs) {
      expect(r.word).toBe(`${r.conf} confidence`);
      expect(r.line).toContain('not yet fitted to your marks');
    }
  });

  it('has no axe violations of the admin page\'s rules (labels, names, headers)', async () => {
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async (rules) => {
      const w = window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } };
      return (await w.axe.run(document, { runOnly: { type: 'rule', values: rules } })).violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
    }, ['empty-table-header', 'th-has-data-cells', 'label', 'aria-input-field-name', 'button-name', 'link-name', 'duplicate-id-aria', 'aria-allowed-attr', 'aria-prohibited-attr', 'scrollable-region-focusable', 'color-contrast']);
    expect(violations).toEqual([]);
  });

  it('approving one script re-asks for the others ("Updating"), and they are then fitted to the examiner\'s mark', async () => {
    await markFirstOne();
    await page.waitForFunction(() => document.querySelectorAll('#recommended .rec-line').length > 0 && [...document.querySelectorAll('#recommended .rec-line')].every((e) => e.textContent!.includes('fitted to your marks on this question')));
    expect(await page.textContent('#review-progress')).toContain(`1 of ${hall.scripts.length} scripts marked`);
    expect(await page.isHidden('#review-updating')).toBe(true);
  });

  it('"Approve all N high-confidence recommendations" is live only once each is ticked read; it confirms how many and the marks, then re-grades each', async () => {
    // the examiner keeps marking the scripts asked for until recommendations are high-confidence
    for (let i = 0; i < 8 && !(await page.$('#recommended [data-confidence="high"]')); i++) await markFirstOne();
    const high = await page.$$eval('#recommended .script-card.rec-high', (els) => els.map((e) => ({ id: e.getAttribute('data-attempt-id')!, total: Number(/^([\d.]+) \//.exec(e.querySelector('.review-total')!.textContent!)![1]) })));
    expect(high.length).toBeGreaterThan(0);
    const button = page.locator('#approve-group');
    expect(await button.textContent()).toBe(high.length === 1 ? 'Approve the 1 high-confidence recommendation' : `Approve all ${high.length} high-confidence recommendations`);
    expect(await button.isDisabled()).toBe(true);
    for (const [i, r] of high.entries()) {
      await page.check(`#recommended .script-card[data-attempt-id="${r.id}"] [data-action="read"]`);
      expect(await page.locator('#approve-group').isDisabled()).toBe(i < high.length - 1);
    }
    const sum = high.reduce((s, r) => s + r.total, 0);
    expect(await page.textContent('#group-read-count')).toContain(`${sum} marks in all`);
    // fits 1024 wide: nothing scrolls sideways, the group button is on screen
    const fit = await page.evaluate(() => [document.scrollingElement!.scrollWidth, document.scrollingElement!.clientWidth]);
    expect(fit[0]).toBeLessThanOrEqual(fit[1]!);
    await page.locator('#group-approve').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    await page.screenshot({ path: join(SHOTS, 'admin-essay-review-calibrated-1024.png') });

    await page.click('#approve-group');
    await page.waitForSelector('dialog.modal #group-confirm-text');
    const text = await page.textContent('#group-confirm-text');
    expect(text).toContain(`${high.length} script${high.length === 1 ? '' : 's'}: ${sum} marks in all`);
    const group = page.waitForResponse((r) => r.url().endsWith('/approve') && r.request().method() === 'POST');
    await page.click('dialog.modal button[type="submit"]');
    expect((await group).status()).toBe(200);
    for (const r of high) await page.waitForSelector(`#marked li[data-attempt-id="${r.id}"]`);
    const attempts = new Map(((await api(server.baseUrl, hall.ws.apiKey).get(`/exams/${hall.exam.id}/attempts`)).body as any[]).map((a) => [a.attemptId, a]));
    for (const r of high) expect(attempts.get(r.id)).toMatchObject({ score: r.total, pendingReview: false });
    const audit = ((await api(server.baseUrl, hall.ws.apiKey).get('/workspaces/me/audit')).body as any[]).filter((a) => a.detail?.group === high.length);
    expect(audit.map((a) => a.targetId).sort()).toEqual(high.map((r) => r.id).sort());
  });
});
