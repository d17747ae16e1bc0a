/**
 * Helpers for the candidate-page end-to-end tests (test/e2e/candidate-*.test.ts):
 * building the page once, seeding an exam through the real API, driving the page in
 * Chromium (sign in, start, answer, read state) and saving screenshots under
 * test/artifacts/ (git-ignored). Not a test file itself.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { addQuestions, createExam, FIXTURES, launchBrowser, parsePastPaper, registerWorkspace, ROOT, startTestServer, typeInto, type TestServer } from '../harness.js';

export { typeInto };

export const ARTIFACTS = join(ROOT, 'test', 'artifacts');

/** Builds public/ with scripts/build-web.mjs unless the candidate bundle is newer than every source. */
export function ensureBuilt(): void {
  const out = join(ROOT, 'public', 'candidate', 'app.js');
  const newest = (dir: string): number =>
    readdirSync(dir).reduce((m, f) => {
      const p = join(dir, f);
      const s = statSync(p);
      return Math.max(m, s.isDirectory() ? newest(p) : s.mtimeMs);
    }, 0);
  const srcTime = Math.max(newest(join(ROOT, 'web', 'candidate')), newest(join(ROOT, 'web', 'shared')));
  const fresh = existsSync(out) && existsSync(join(ROOT, 'public', 'vendor', 'katex', 'katex.min.css')) && statSync(out).mtimeMs >= srcTime;
  if (!fresh) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-web.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * Gives the test file a built page bundle, a real server (started with `serverOpts`) and a
 * Chromium before its tests (then calls `onReady`), and closes both after them. Every page
 * of one Chromium reaches the server from 127.0.0.1, so the one-attempt-per-computer rule
 * of open rooms is off on this server unless `serverOpts` sets CBT_OPEN_ROOM_SEAT_ATTEMPTS
 * (the rule has its own tests: test/security/open-room.test.ts).
 */
export function pageSuite(onReady: (started: { browser: Browser; server: TestServer }) => void, serverOpts: Parameters<typeof startTestServer>[0] = {}): void {
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    ensureBuilt();
    server = await startTestServer({ ...serverOpts, config: { CBT_OPEN_ROOM_SEAT_ATTEMPTS: 0, ...serverOpts.config } });
    browser = await launchBrowser();
    onReady({ browser, server });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

/**
 * The 12-question practice paper in this repository (test/fixtures/papers), as
 * QuestionInput: for every test that needs a realistic paper but not a real one.
 */
export function practicePaper() {
  const parsed = parsePastPaper(readFileSync(join(ROOT, 'test', 'fixtures', 'papers', 'practice-physics.md'), 'utf8'));
  return parsed.map(({ answer: _answer, ...q }) => q);
}

/**
 * The 50 WAEC Physics 2023 questions as QuestionInput (../shared/fixtures/real: only
 * inside `describeReal`, test/real-papers.ts).
 */
export function physicsPaper() {
  const parsed = parsePastPaper(readFileSync(join(FIXTURES, 'WAEC_Physics_2023.md'), 'utf8'));
  return parsed.map(({ answer: _answer, ...q }) => q);
}

export interface SeededExam {
  apiKey: string;
  workspaceId: string;
  examId: string;
  accessCode: string;
  questions: Awaited<ReturnType<typeof addQuestions>>;
}

/** Registers a workspace, creates an exam with `overrides` and adds `questions`. */
export async function seedExam(baseUrl: string, questions: unknown[], overrides: Record<string, unknown> = {}): Promise<SeededExam> {
  const ws = await registerWorkspace(baseUrl);
  const exam = await createExam(baseUrl, ws.apiKey, ws.id, overrides);
  const stored = await addQuestions(baseUrl, ws.apiKey, ws.id, exam.id, questions);
  return { apiKey: ws.apiKey, workspaceId: ws.id, examId: exam.id, accessCode: exam.accessCode, questions: stored };
}

/** The correct option id of each stored question, by question id. */
export function answerKey(seeded: SeededExam): Map<string, string> {
  const key = new Map<string, string>();
  for (const q of seeded.questions) {
    const c = q.options.find((o) => o.isCorrect);
    if (c) key.set(q.id, c.id);
  }
  return key;
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** uncaught page errors and console errors (network failures excluded) */
  errors: string[];
}

/**
 * Makes the pages of `context` read as a browser without MathML (a Chrome 80-era hall PC):
 * the page's probe (web/candidate/math.ts) measures an `<mspace width=77px height=23px>`,
 * which such a browser shows as an empty inline element of no size, so here every MathML
 * `<mspace>` measures 0 × 0. The page then asks for the paper in KaTeX's HTML and links
 * KaTeX's stylesheet, as it does on those PCs; nothing else changes.
 */
export async function withoutMathml(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const measure = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      return this.localName === 'mspace' && this.namespaceURI === 'http://www.w3.org/1998/Math/MathML' ? new DOMRect(0, 0, 0, 0) : measure.call(this);
    };
  });
}

/**
 * A fresh browser context (own localStorage) with a page at `baseUrl` + `path`;
 * `mathml: false` makes it a browser without MathML (withoutMathml); `channel: false`
 * makes it save over HTTP only (httpSavesOnly); `serviceWorkers: 'block'` keeps the page's
 * service worker from registering, so page.route sees every request the page makes.
 */
export async function openPage(browser: Browser, baseUrl: string, opts: { viewport?: { width: number; height: number }; path?: string; mathml?: boolean; channel?: boolean; serviceWorkers?: 'allow' | 'block' } = {}): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1024, height: 768 }, locale: 'en-GB', serviceWorkers: opts.serviceWorkers ?? 'allow' });
  if (opts.mathml === false) await withoutMathml(context);
  if (opts.channel === false) await httpSavesOnly(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource|net::ERR_/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  await page.goto(baseUrl + (opts.path ?? '/'));
  return { context, page, errors };
}

export interface Candidate {
  accessCode: string;
  name: string;
  studentId: string;
  pin: string;
}

/** Types into and submits the sign-in form (does not wait for the next screen). */
export async function fillSignIn(page: Page, c: Candidate): Promise<void> {
  await typeInto(page, '#accessCode', c.accessCode);
  await typeInto(page, '#candidateName', c.name);
  await typeInto(page, '#studentId', c.studentId);
  await typeInto(page, '#candidatePin', c.pin);
  await page.click('#signin-title ~ button[type=submit], form.signin button[type=submit]');
}

/** Signs in and presses Start on the instructions screen; resolves on the first question. */
export async function signInAndStart(page: Page, c: Candidate): Promise<void> {
  await fillSignIn(page, c);
  await page.waitForSelector('#start-exam');
  await page.click('#start-exam');
  await page.waitForSelector('section.question');
}

/** Id of the question on screen. */
export async function currentQuestionId(page: Page): Promise<string> {
  return (await page.getAttribute('section.question', 'data-question-id')) as string;
}

/** Question ids in the order the navigator shows them (walks with the navigator buttons). */
export async function questionOrder(page: Page): Promise<string[]> {
  const n = await page.locator('.nav-q').count();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    await page.click(`.nav-q[data-index="${i}"]`);
    await page.waitForSelector(`section.question`);
    ids.push(await currentQuestionId(page));
  }
  return ids;
}

/** Waits until the page says every answer is durable on the server. */
export async function waitAllSaved(page: Page, timeoutMs = 20_000): Promise<void> {
  await page.waitForFunction(() => {
    const s = document.getElementById('conn-status');
    return !!s && s.getAttribute('data-state') === 'ok' && /All answers saved/.test(s.textContent || '');
  }, undefined, { timeout: timeoutMs });
}

/** Saves a screenshot to test/artifacts/<name>.png and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The pending answers this page keeps in localStorage for an attempt. */
export async function localPending(page: Page, attemptId: string): Promise<Record<string, { seq: number; optionId?: string; text?: string }>> {
  return page.evaluate((id) => JSON.parse(localStorage.getItem(`hallcbt.${id}.pending`) || '{}'), attemptId);
}

/** The attempt id this page remembers. */
export async function currentAttemptId(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('hallcbt.current') || '{}').attemptId as string);
}

/**
 * Makes the pages of `context` save over HTTP only, never over the save channel: the
 * page's switch (localStorage `hallcbt.channel` = "off", web/candidate/storage.ts). For
 * tests of the HTTP save path itself (its headers, failures injected with page.route).
 */
export async function httpSavesOnly(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => localStorage.setItem('hallcbt.channel', '"off"'));
}

/** One save frame the page sent over the channel ({i, q, o|t, s}: src/modules/candidate/save-channel.ts). */
export interface ChannelFrame {
  i: number;
  q: string;
  o?: string;
  t?: string;
  s?: number;
}

/**
 * Puts the page's save channel behind a switch (Playwright's WebSocket routing, proxying
 * to the real server): `frames` records every save frame the page sent; `block()` cuts
 * the open channels and turns new ones away (the page sees them close), `unblock()` lets
 * new ones through again. `onFrame` sees each frame as it passes.
 */
export async function channelGate(page: Page, onFrame: (f: ChannelFrame) => void = () => {}) {
  let blocked = false;
  const live = new Set<import('playwright-core').WebSocketRoute>();
  const frames: ChannelFrame[] = [];
  let opened = 0;
  await page.routeWebSocket(/\/attempts\/[^/]+\/channel$/, (ws) => {
    if (blocked) return ws.close({ code: 1011, reason: 'blocked by the test' });
    opened++;
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const f = JSON.parse(String(m)) as ChannelFrame;
      frames.push(f);
      onFrame(f);
      server.send(m);
    });
    ws.onClose(() => live.delete(ws));
    live.add(ws);
  });
  return {
    frames,
    /** channels opened through the gate so far */
    get opened() {
      return opened;
    },
    async block() {
      blocked = true;
      for (const ws of live) await ws.close({ code: 1011, reason: 'blocked by the test' });
      live.clear();
    },
    unblock() {
      blocked = false;
    },
  };
}

/**
 * Chooses option `label` (A–D) of question `index` (0-based) through the navigator, with the
 * key a candidate presses; resolves when the choice shows, with the time it showed (ms).
 */
export async function answerMcq(page: Page, index: number, label: string): Promise<number> {
  await page.click(`.nav-q[data-index="${index}"]`);
  await page.waitForFunction((i) => document.querySelector('#q-title')?.textContent?.startsWith(`Question ${i + 1}`), index);
  await page.keyboard.press(label.toLowerCase());
  await page.waitForSelector('label.option.chosen');
  return Date.now();
}

/** Types `text` key by key at the end of the essay box of question 1 (index 0). */
export async function typeEssay(page: Page, text: string): Promise<void> {
  await page.click('.nav-q[data-index="0"]');
  await page.waitForSelector('#essay');
  await page.click('#essay');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}
