/**
 * Worker-thread entry for CPU- and memory-heavy jobs (worker-client.ts): the engine steps,
 * so that generating questions from a 100-page PDF (seconds of CPU) never stalls the
 * hall's answer traffic on the main event loop (DESIGN §7), and the reading of uploads
 * (issue 22 §1), so that a hostile file can exhaust only this thread's capped heap.
 * Receives one job in workerData, posts `{ok: true, result}` or `{ok: false, error}`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ApiError } from '../../platform/errors.js';
import type { EngineJob } from './worker-client.js';

async function run(job: EngineJob): Promise<unknown> {
  switch (job.op) {
    case 'generate':
      // WordNet (read from disk here, in the worker) keeps distractors of the key's kind and makes believable false statements.
      return (await import('../../core/generation/engine/extractive.js')).generateExtractive(job.passages, { ...job.options, lexicon: (await import('./wordnet.js')).kindOf });
    case 'select':
      return (await import('./llm/select.js')).selectPassages(job.passages, job.budget);
    case 'read-material':
      return (await import('./material/read-material.js')).readMaterialHere(job.input);
    default:
      return (await import('../imports/upload-jobs.js')).runUploadJob(job);
  }
}

const job = workerData as EngineJob;
run(job).then(
  (result) => parentPort!.postMessage({ ok: true, result }),
  (err) => {
    const e = err as Error;
    parentPort!.postMessage({
      ok: false,
      error: err instanceof ApiError ? { status: err.status, slug: err.slug, title: err.title, detail: err.message, extra: err.extra } : { detail: e.message ?? String(err) },
    });
  },
);
