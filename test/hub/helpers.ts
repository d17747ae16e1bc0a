/**
 * Hub test helpers: a hub runtime on a throwaway PostgreSQL database, a hall identity that
 * signs its requests like a real hall, and small API calls through the app.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { newSigningKeyPair, openEnvelope, signRequest, type Envelope } from '../../src/core/sync/signing.js';
import type { ResultEvent } from '../../src/core/sync/messages.js';
import { ManualClock } from '../../src/platform/clock.js';
import { silentLogger } from '../../src/platform/logger.js';
import { hubConfigSchema } from '../../src/hub/config.js';
import { createHubRuntime, type HubRuntime } from '../../src/hub/runtime.js';
import { templateWorkbook } from '../../src/core/formats/xlsx/template.js';
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../../src/platform/clock.js';
import { startTestServer, tempDir, type TestServer } from '../harness.js';
import { startPgCluster, type PgCluster } from '../pg/cluster.js';

let dbCounter = 0;

/** A hub runtime on a new database of `cluster` (or on `url`, to share one database between two hubs). */
export async function startHub(cluster: PgCluster, opts: { url?: string; clock?: ManualClock; dataDir?: string } = {}): Promise<HubRuntime & { url: string; clock: ManualClock; dataDir: string }> {
  const url = opts.url ?? cluster.createDatabase(`hub_${process.pid}_${++dbCounter}`);
  const clock = opts.clock ?? new ManualClock(Date.parse('2026-11-25T08:00:00Z'));
  const dataDir = opts.dataDir ?? tempDir('hallcbt-hub-');
  const config = hubConfigSchema.parse({ DATABASE_URL: url, HUB_DATA_DIR: dataDir, HUB_PORT: '0' });
  const runtime = await createHubRuntime(config, silentLogger, clock);
  return Object.assign(runtime, { url, clock, dataDir });
}

/** What {@link hubForSuite} hands over: the suite's cluster, its hub and the first examiner's API key. */
export interface SuiteHub {
  cluster: PgCluster;
  hub: Awaited<ReturnType<typeof startHub>>;
  key: string;
}

/**
 * Gives the enclosing describe block a throwaway PostgreSQL cluster and a hub on it: starts
 * both before the suite's tests (then calls `onReady`), and stops the hub and the cluster after.
 */
export function hubForSuite(onReady: (started: SuiteHub) => void): void {
  let cluster: PgCluster | undefined;
  let hub: SuiteHub['hub'] | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster();
    hub = await startHub(cluster);
    onReady({ cluster, hub, key: hub.firstExaminer!.apiKey });
  });
  afterAll(async () => {
    await hub?.close();
    await cluster?.stop();
  });
}

/**
 * Has the upload reader ready before a test's clock starts: the job process of the hub's
 * pool (`deps.jobs`, src/uploads/job-pool.ts) that the hub's imports read files in is started on
 * its first job, runs at nice 10 and loads its readers (exceljs) on that job; on a busy
 * 2-core machine that cold start alone took 15–29 s (measured: spawn + tsx 5–16 s, then the
 * first spreadsheet 10–13 s), and the spreadsheet test that paid it ran past its 30 s. Reads the hall's template workbook there
 * (nothing is stored); on a warm reader that takes milliseconds. The reader retires after 30 s
 * without work, so call it before each test that imports, not once per file.
 * @throws what the reader throws (a reader that cannot start is an error, not a skip)
 */
export async function warmUploadReader(hub: HubRuntime): Promise<void> {
  await hub.deps.jobs.runJob({ op: 'read-sheet', bytes: await templateWorkbook() });
}

/** Calls the hub app as an examiner. */
export async function asExaminer(hub: HubRuntime, apiKey: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string; headers: Headers }> {
  const res = await hub.app.request(path, { method, headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** A hall as the hub sees it: its key pair and, once enrolled, its id and the hub's key. */
export class TestHall {
  readonly keys = newSigningKeyPair();
  hallId = '';
  hubPublicKey = '';
  constructor(readonly hub: HubRuntime & { clock: ManualClock }) {}

  /** Enrols with a code; returns the HTTP status. */
  async enrol(code: string): Promise<number> {
    const res = await this.hub.app.request('/hub/v1/enrol', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enrolmentCode: code, hallName: 'Test hall', publicKey: this.keys.publicKey, clock: new Date(this.hub.clock.now()).toISOString() }) });
    if (res.status !== 200) return res.status;
    const env = (await res.json()) as Envelope;
    const payload = JSON.parse(env.payload) as { hallId: string; hubPublicKey: string };
    if (!openEnvelope(payload.hubPublicKey, env)) throw new Error('enrolment envelope does not verify');
    this.hallId = payload.hallId;
    this.hubPublicKey = payload.hubPublicKey;
    return 200;
  }

  /** The signed headers for a request (nonce fresh unless given). */
  headers(method: string, path: string, body?: string, opts: { nonce?: string; now?: number; privateKey?: string } = {}): Record<string, string> {
    return signRequest({ hallId: this.hallId, privateKey: opts.privateKey ?? this.keys.privateKey, method, pathWithQuery: path, body, now: opts.now ?? this.hub.clock.now(), nonce: opts.nonce ?? randomBytes(16).toString('base64url') });
  }

  /** A signed request to `hub` (this hall's hub unless another is given). */
  async request(method: string, path: string, body?: unknown, opts: { nonce?: string; now?: number; privateKey?: string; hub?: HubRuntime } = {}) {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const res = await (opts.hub ?? this.hub).app.request(path, { method, headers: { ...this.headers(method, path, text, opts), ...(text === undefined ? {} : { 'content-type': 'application/json' }) }, body: text });
    const raw = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(raw);
    } catch {
      /* empty */
    }
    return { status: res.status, json };
  }
}

/** A small paper in the hall's question format. */
export function samplePaper(startsAt: string) {
  return {
    title: 'Board Mathematics mock',
    durationMins: 30,
    startsAt,
    questions: [
      { prompt: 'What is the sum of the interior angles of a triangle?', type: 'MCQ', marks: 1, options: [{ text: '180 degrees', isCorrect: true }, { text: '90 degrees' }, { text: '360 degrees' }] },
      { prompt: 'Is 17 a prime number?', type: 'TRUE_FALSE', marks: 1, options: [{ text: 'True', isCorrect: true }, { text: 'False' }] },
      { prompt: 'Explain why the square root of two is irrational.', type: 'SHORT_ESSAY', marks: 4 },
    ],
    roster: [
      { studentId: 'BRD-001', candidateName: 'Ada Obi', pin: '2468' },
      { studentId: 'BRD-002', candidateName: 'Bola Ade' },
    ],
  };
}

/** A hub served on loopback over HTTP and a hall allowed to reach it (CBT_HUB_ALLOW_LOCAL). */
export interface ServedHubAndHall {
  hub: Awaited<ReturnType<typeof startHub>>;
  /** the hub's address as a hall enrols with it */
  hubUrl: string;
  hall: TestServer;
}

/**
 * For a describe block: a throwaway PostgreSQL cluster, a hub on it (the system clock) served
 * on a loopback port, and a real hall; all stopped after the block. `onReady` gets them.
 */
export function hubServedWithHall(onReady: (started: ServedHubAndHall) => void): void {
  let cluster: PgCluster | undefined;
  let hub: ServedHubAndHall['hub'] | undefined;
  let server: Server | undefined;
  let hall: ServedHubAndHall['hall'] | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster();
    hub = await startHub(cluster, { clock: systemClock as never });
    const started = hub;
    server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: started.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
    });
    hall = await startTestServer({ config: { CBT_HUB_ALLOW_LOCAL: '1' } });
    onReady({ hub, hall, hubUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  }, 120_000);
  afterAll(async () => {
    await hall?.close();
    server?.close();
    await hub?.close();
    await cluster?.stop();
  });
}

/** The shape of an exam a result event answers: its id and its questions' option ids. */
export type AnsweredExam = { id: string; questions: { id: string; options: { id: string }[] }[] };

/**
 * A completed attempt's result event as a hall's outbox sends it (src/core/sync/messages.ts):
 * every question of `exam` answered with its first option (the sample paper's keys), an essay
 * answered with `essayText` and awaiting review, and the figures the hub recomputes itself
 * (score 2 of 6, F9: issue #34, finding 7). The attempt starts 60 s before `createdAt` and
 * completes at it unless `attempt` says otherwise; `attempt` overrides any attempt field.
 */
export function completedResult(
  exam: AnsweredExam,
  ids: { packageId: string; eventId: string; createdAt?: string },
  attempt: Pick<ResultEvent['attempt'], 'attemptId' | 'studentId'> & Partial<ResultEvent['attempt']>,
  essayText = 'An answer.',
): ResultEvent {
  const createdAt = ids.createdAt ?? '2026-11-25T09:20:00.000Z';
  return {
    eventId: ids.eventId,
    type: 'exam.attempt.completed',
    packageId: ids.packageId,
    examId: exam.id,
    createdAt,
    attempt: {
      candidateName: 'A candidate',
      status: 'COMPLETED',
      startedAt: new Date(Date.parse(createdAt) - 60_000).toISOString(),
      completedAt: createdAt,
      disqualifiedAt: null,
      creditedMs: 0,
      violations: 0,
      score: 2,
      maxScore: 6,
      percentage: 33.33,
      grade: 'F9',
      pendingReview: true,
      answers: exam.questions.map((q) => ({ questionId: q.id, optionId: q.options[0]?.id ?? null, text: q.options.length ? null : essayText, awardedMarks: null, reviewed: false })),
      audit: [],
      ...attempt,
    },
  };
}

