/**
 * Test harness: the real app on a real HTTP server (loopback, ephemeral port, temp SQLite
 * file), the real server as a child process, small API factories, a parser for the
 * past-paper fixtures, and a Chromium launcher (Debian's /usr/bin/chromium; never a
 * downloaded browser).
 */
import { serve } from '@hono/node-server';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { testConfig, type Config } from '../src/platform/config.js';
import { silentLogger } from '../src/platform/logger.js';
import { createRuntime, type Runtime } from '../src/runtime.js';
import type { Clock } from '../src/platform/clock.js';
import { REAL_PAPERS_DIR } from './real-papers.js';
import { guardBrowser } from './csp-guard.js';
import { attachSaveChannel, type SaveChannels } from '../src/modules/candidate/save-channel.js';
import { attachHallFastPaths } from '../src/app.js';
import { createHash } from 'node:crypto';
import { sendFrom } from './security/from-address.js';

export const ROOT = new URL('..', import.meta.url).pathname;
/** The real exam papers beside the checkout (may be absent: see test/real-papers.ts). */
export const FIXTURES = REAL_PAPERS_DIR;

export interface TestServer {
  baseUrl: string;
  deps: Runtime['deps'];
  runtime: Runtime;
  dataDir: string;
  /** the save channel on this server (src/main.ts attaches the same) */
  channels: SaveChannels;
  close(): Promise<void>;
}

/** A temp data directory (removed by the caller or left for the OS). */
export function tempDir(prefix = 'hallcbt-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The app in-process on 127.0.0.1:<ephemeral> with a fresh SQLite file.
 * Scheduled jobs run only when `jobs: true`. The save channel is attached as in
 * src/main.ts (`channelIdleMs` shortens its idle close).
 */
export async function startTestServer(opts: { config?: Partial<Config>; clock?: Clock; jobs?: boolean; dataDir?: string; channelIdleMs?: number } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  // the tests' webhook receivers listen on loopback, which the appliance refuses by default
  const config = testConfig({ DATA_DIR: dataDir, PORT: 0, HOST: '127.0.0.1', CBT_BACKUP_INTERVAL_MINS: 0, CBT_WEBHOOK_ALLOW_LOCAL: '1', ...opts.config });
  const runtime = createRuntime(config, silentLogger, opts.clock);
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
  });
  const port = (server.address() as AddressInfo).port;
  runtime.port.value = port;
  // as src/main.ts: the live answer save is answered before hono
  attachHallFastPaths(server, runtime.deps);
  const channels = attachSaveChannel(server, runtime.deps, { idleMs: opts.channelIdleMs });
  if (opts.jobs) runtime.startJobs();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    deps: runtime.deps,
    runtime,
    dataDir,
    channels,
    async close() {
      channels.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      });
      await runtime.shutdown();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SpawnedServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  logs: string[];
  /** SIGTERM and wait for exit */
  stop(): Promise<void>;
  /** SIGKILL (a power cut, as far as the process is concerned) and wait for exit */
  kill(): Promise<void>;
}

/** The real server (src/main.ts through tsx) as a child process. */
export async function spawnServer(opts: { dataDir?: string; env?: Record<string, string> } = {}): Promise<SpawnedServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const logs: string[] = [];
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, CBT_BACKUP_INTERVAL_MINS: '0', CBT_WEBHOOK_ALLOW_LOCAL: '1', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('')}`)), 30_000);
    proc.stdout!.on('data', (d: Buffer) => {
      const s = d.toString();
      logs.push(s);
      const m = /"msg":"listening","port":(\d+)/.exec(s);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    proc.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join('')}`));
    });
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    proc,
    logs,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
    async kill() {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** fetch helpers bound to a base URL and an optional API key. */
export function api(baseUrl: string, apiKey?: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult> => {
    const h: Record<string, string> = { ...headers };
    if (apiKey) h['x-api-key'] = apiKey;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(baseUrl + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    get: (p: string, h?: Record<string, string>) => call('GET', p, undefined, h),
    post: (p: string, b?: unknown, h?: Record<string, string>) => call('POST', p, b ?? {}, h),
    put: (p: string, b?: unknown, h?: Record<string, string>) => call('PUT', p, b ?? {}, h),
    patch: (p: string, b?: unknown, h?: Record<string, string>) => call('PATCH', p, b ?? {}, h),
    del: (p: string, h?: Record<string, string>) => call('DELETE', p, undefined, h),
  };
}

let seq = 0;
/** Registers a standalone workspace; returns the 201 body. */
export async function registerWorkspace(baseUrl: string, overrides: Record<string, unknown> = {}) {
  seq++;
  const r = await api(baseUrl).post('/workspaces/standalone', {
    name: `Hall ${seq}`,
    ownerName: 'Test Owner',
    email: `owner${seq}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`,
    webhookUrl: 'http://127.0.0.1:9/unused',
    ...overrides,
  });
  if (r.status !== 201) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; name: string; type: string; credits: number; apiKey: string; webhookSecret: string };
}

/** Creates an exam (durationMins 30 unless overridden). */
export async function createExam(baseUrl: string, apiKey: string, workspaceId: string, overrides: Record<string, unknown> = {}) {
  const r = await api(baseUrl, apiKey).post('/exams', { workspaceId, title: 'Test exam', durationMins: 30, ...overrides });
  if (r.status !== 201) throw new Error(`createExam failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; accessCode: string; [k: string]: unknown };
}

/** Adds questions through POST /questions/bulk; returns the stored questions. */
export async function addQuestions(baseUrl: string, apiKey: string, workspaceId: string, examId: string, questions: unknown[]) {
  const r = await api(baseUrl, apiKey).post('/questions/bulk', { workspaceId, examId, questions });
  if (r.status !== 201) throw new Error(`addQuestions failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.questions as { id: string; type: string; marks: number; options: { id: string; keyLabel: string; text: string; isCorrect: boolean }[] }[];
}

/** n simple MCQs "Q1…Qn" with options A–D, the correct one at `keyIndex(i)` (default A). */
export function sampleMcqs(n: number, keyIndex: (i: number) => number = () => 0) {
  return Array.from({ length: n }, (_, i) => ({
    prompt: `Question ${i + 1}: what is ${i} + 1?`,
    type: 'MCQ',
    marks: 1,
    options: ['A', 'B', 'C', 'D'].map((l, j) => ({ text: `${l}: ${i + 1 + j - keyIndex(i)}`, isCorrect: j === keyIndex(i) })),
  }));
}

/**
 * Parses the past-paper Markdown layout of ../shared/fixtures/real/*.md
 * (`**N.** prompt`, `A) …` options, `**Answer: X**`, optional `*Explanation: …*`)
 * into QuestionInput objects. Test helper only.
 */
export function parsePastPaper(markdown: string) {
  const blocks = markdown.split(/\n(?=\*\*\d+\.\*\*)/).filter((b) => /^\*\*\d+\.\*\*/.test(b.trim()));
  return blocks.map((block) => {
    const lines = block.trim().split('\n');
    const promptLines: string[] = [lines[0]!.replace(/^\*\*\d+\.\*\*\s*/, '')];
    const options: { keyLabel: string; text: string; isCorrect: boolean }[] = [];
    let answer = '';
    let explanation = '';
    let i = 1;
    for (; i < lines.length; i++) {
      const l = lines[i]!.trim();
      const opt = /^([A-E])\)\s*(.*)$/.exec(l);
      const ans = /^\*\*Answer:\s*([A-E])\*\*/.exec(l);
      if (opt) options.push({ keyLabel: opt[1]!, text: opt[2]!.trim() || '(blank)', isCorrect: false });
      else if (ans) answer = ans[1]!;
      else if (/^\*Explanation:/.test(l)) explanation = lines.slice(i).join('\n').replace(/^\*Explanation:\s*/, '').replace(/\*\s*$/, '').trim();
      else if (!options.length && l) promptLines.push(l);
      if (explanation) break;
    }
    for (const o of options) o.isCorrect = o.keyLabel === answer;
    return { prompt: promptLines.join('\n').trim(), type: 'MCQ' as const, marks: 1, options, explanation: explanation || undefined, answer };
  });
}

/**
 * The loopback address of the hall computer a candidate sits at in the tests: one per
 * studentId (127.100.0.1 – 127.199.255.254, away from the 127.0.x.x addresses tests pick
 * by hand), so candidates of one open room start from computers of their own, as in a
 * hall (an open room lets each computer start one attempt: src/modules/attempts/seats.ts).
 */
export function seatOf(studentId: string): string {
  const h = createHash('sha256').update(studentId).digest();
  return `127.${100 + (h[0]! % 100)}.${h[1]!}.${1 + (h[2]! % 254)}`;
}

/** Starts an attempt from the candidate's own computer (seatOf); throws unless 200. */
export async function startAttempt(baseUrl: string, accessCode: string, studentId: string, pin = '1234', candidateName = `Candidate ${studentId}`) {
  const r = await sendFrom(seatOf(studentId), baseUrl, 'POST', '/attempts/start', { accessCode, studentId, candidateName, candidatePin: pin });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { attemptId: string; questions: { id: string; type: string; options: { id: string; keyLabel: string; text: string }[] }[]; durableSeq: number; remainingSeconds: number; [k: string]: unknown };
}

/** A webhook receiver on loopback recording raw bodies and headers; `status` sets the reply. */
export async function startReceiver(status: () => number = () => 200) {
  const received: { body: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const code = status();
      if (code >= 200 && code < 300) received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Polls `fn` until it returns truthy or `ms` pass. */
export async function waitFor<T>(fn: () => T | Promise<T>, ms = 10_000, every = 50): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * Headless Debian Chromium through playwright-core. Its pages record Content-Security-Policy
 * violations, which fail the test they happen in (test/csp-guard.ts).
 */
export async function launchBrowser(extraArgs: string[] = []) {
  const { chromium } = await import('playwright-core');
  return guardBrowser(await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extraArgs],
  }));
}

/**
 * Types `text` into a field key by key, as a person does: the field (a selector or a
 * locator) is clicked, whatever it holds is selected and typed over, and the page's input
 * handlers run on every key, as they do in the hall (not `fill`, which sets the value at once).
 */
export async function typeInto(page: import('playwright-core').Page, field: string | import('playwright-core').Locator, text: string): Promise<void> {
  await (typeof field === 'string' ? page.click(field) : field.click());
  await page.keyboard.press('Control+A');
  if (text) await page.keyboard.type(text);
  else await page.keyboard.press('Backspace');
}
