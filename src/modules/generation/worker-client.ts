/**
 * Runs engine jobs (see engine-worker.ts) in a short-lived worker thread and returns the
 * result; errors thrown there come back as the same ApiError. From compiled JavaScript
 * the worker loads engine-worker.js; when running from TypeScript sources (tests,
 * `npm run dev`) it first registers tsx's loader in the worker.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../../platform/errors.js';
import type { EngineResult, GenerateOptions } from '../../core/generation/engine/extractive.js';
import type { Passage } from '../../core/generation/passage.js';

/** A job for the worker. */
export type EngineJob = { op: 'generate'; passages: Passage[]; options: GenerateOptions } | { op: 'select'; passages: Passage[]; budget: number };

type Reply = { ok: true; result: unknown } | { ok: false; error: { status?: number; slug?: string; title?: string; detail: string; extra?: Record<string, unknown> } };

/** Longest a job may run before the worker is stopped. */
const JOB_LIMIT_MS = 5 * 60_000;

function startWorker(job: EngineJob): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./engine-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData: job });
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true, workerData: job });
}

/**
 * Runs `job` off the main thread.
 * @throws the job's ApiError, or an Error when the worker dies or exceeds five minutes.
 */
export function runEngineJob<T>(job: EngineJob): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = startWorker(job);
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => done(() => reject(new Error('the question engine took longer than five minutes'))), JOB_LIMIT_MS);
    worker.on('message', (reply: Reply) =>
      done(() => {
        if (reply.ok) return resolve(reply.result as T);
        const e = reply.error;
        reject(e.status ? new ApiError(e.status, e.slug!, e.title!, e.detail, e.extra) : new Error(e.detail));
      }),
    );
    worker.on('error', (err) => done(() => reject(err)));
    worker.on('exit', (code) => done(() => reject(new Error(`the question engine stopped (exit ${code})`))));
  });
}

/** generateExtractive in a worker thread. */
export function generateInWorker(passages: Passage[], options: GenerateOptions): Promise<EngineResult> {
  return runEngineJob<EngineResult>({ op: 'generate', passages, options });
}
