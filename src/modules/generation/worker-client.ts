/**
 * Runs heavy jobs — the question engine (engine-worker.ts) and the reading of uploads
 * (issue 22 §1: spreadsheets, Word and PowerPoint files, text banks, generation
 * material) — in a short-lived worker thread and returns the result; errors thrown there
 * come back as the same ApiError. From compiled JavaScript the worker loads
 * engine-worker.js; when running from TypeScript sources (tests, `npm run dev`) it first
 * registers tsx's loader in the worker.
 *
 * Never more than one job at a time (the hall machine has two cores; one is the answer
 * path's): later jobs wait in a queue of `MAX_WAITING`, and beyond it get 503 with
 * Retry-After. The worker's V8 heap is capped (`WORKER_HEAP_MB`); a job that needs more
 * kills only its worker and answers 413, and the server keeps serving.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../../platform/errors.js';
import type { EngineResult, GenerateOptions } from '../../core/generation/engine/extractive.js';
import type { Passage } from '../../core/generation/passage.js';
import type { UploadJob } from '../imports/upload-jobs.js';
import type { MaterialInput } from './material/read-material.js';

/** A job for the worker. */
export type EngineJob =
  | { op: 'generate'; passages: Passage[]; options: GenerateOptions }
  | { op: 'select'; passages: Passage[]; budget: number }
  | { op: 'read-material'; input: MaterialInput }
  | UploadJob;

type Reply = { ok: true; result: unknown } | { ok: false; error: { status?: number; slug?: string; title?: string; detail: string; extra?: Record<string, unknown> } };

/** Longest a job may run before the worker is stopped. */
const JOB_LIMIT_MS = 5 * 60_000;
/** Old-generation heap of a worker, MB (plus a 16 MB young generation). */
export const WORKER_HEAP_MB = 160;
/** Jobs that may wait for the running one; more at once → 503. */
export const MAX_WAITING = 4;
/** Retry-After of that 503, seconds. */
const BUSY_RETRY_S = 5;

function startWorker(job: EngineJob, transferList: ArrayBuffer[]): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./engine-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };
  if (!fromSource) return new Worker(entry, { workerData: job, resourceLimits, transferList });
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true, workerData: job, resourceLimits, transferList });
}

/** 413 for a job whose worker ran out of its heap. */
export class TooHeavyToRead extends ApiError {
  constructor() {
    super(413, 'too-heavy-to-read', 'Too large to read', `Reading this file needs more memory than the server sets aside for one upload (${WORKER_HEAP_MB} MB); split it or save it smaller.`, { code: 'TOO_HEAVY_TO_READ', limitMb: WORKER_HEAP_MB });
  }
}

let running = false;
const waiting: (() => void)[] = [];

/** Waits for the one slot (or throws 503 when the queue is full); returns its release. */
async function takeSlot(): Promise<() => void> {
  if (running) {
    if (waiting.length >= MAX_WAITING) {
      throw new ApiError(503, 'busy', 'Busy reading other uploads', `The server is reading ${MAX_WAITING + 1} other uploads; try again in a few seconds.`, { code: 'BUSY', retryAfterSeconds: BUSY_RETRY_S }, { 'Retry-After': String(BUSY_RETRY_S) });
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running = true;
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running = false;
  };
}

function runInWorker<T>(job: EngineJob, transferList: ArrayBuffer[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = startWorker(job, transferList);
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => done(() => reject(new Error('the worker took longer than five minutes'))), JOB_LIMIT_MS);
    worker.on('message', (reply: Reply) =>
      done(() => {
        if (reply.ok) return resolve(reply.result as T);
        const e = reply.error;
        reject(e.status ? new ApiError(e.status, e.slug!, e.title!, e.detail, e.extra) : new Error(e.detail));
      }),
    );
    worker.on('error', (err) => done(() => reject((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TooHeavyToRead() : err)));
    worker.on('exit', (code) => done(() => reject(new Error(`the worker stopped (exit ${code})`))));
  });
}

/**
 * Runs `job` off the main thread, after the jobs before it. Buffers in `transfer` move to
 * the worker instead of being copied (the caller must not read them afterwards).
 * @throws the job's ApiError; TooHeavyToRead (413) when the worker ran out of heap; 503
 *   when MAX_WAITING jobs already wait; an Error when the worker dies or exceeds five minutes.
 */
export async function runEngineJob<T>(job: EngineJob, transfer: ArrayBuffer[] = []): Promise<T> {
  const release = await takeSlot();
  try {
    return await runInWorker<T>(job, transfer);
  } finally {
    release();
  }
}

/** generateExtractive in a worker thread. */
export function generateInWorker(passages: Passage[], options: GenerateOptions): Promise<EngineResult> {
  return runEngineJob<EngineResult>({ op: 'generate', passages, options });
}
