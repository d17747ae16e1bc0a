/**
 * Worker-thread entry for the CPU-heavy engine steps, so that generating questions from a
 * 100-page PDF (seconds of CPU) never stalls the hall's answer traffic on the main event
 * loop (DESIGN §7: nothing may stall the loop). Receives one job in workerData, posts
 * `{ok: true, result}` or `{ok: false, error}` and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ApiError } from '../../platform/errors.js';
import { generateExtractive } from '../../core/generation/engine/extractive.js';
import { selectPassages } from './llm/select.js';
import type { EngineJob } from './worker-client.js';

const job = workerData as EngineJob;
try {
  const result = job.op === 'generate' ? generateExtractive(job.passages, job.options) : selectPassages(job.passages, job.budget);
  parentPort!.postMessage({ ok: true, result });
} catch (err) {
  const e = err as Error;
  parentPort!.postMessage({
    ok: false,
    error: err instanceof ApiError ? { status: err.status, slug: err.slug, title: err.title, detail: err.message, extra: err.extra } : { detail: e.message ?? String(err) },
  });
}
