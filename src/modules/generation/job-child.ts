/**
 * Entry of the job process (job-process.ts): a separate Node process, started for one job
 * and gone after it, that does the CPU- and memory-heavy work — the question engine, and
 * the reading of uploads (issue 22 §1: spreadsheets, Word, PowerPoint, PDF, text banks,
 * generation material) — so a hostile file can exhaust only this process's capped heap
 * and its CPU runs at a lower priority than the hall's answer traffic (DESIGN §7).
 *
 * Protocol: the child says `{ready: true}` once it listens (a message that arrives before
 * a listener is lost); the parent then sends one IPC message `{job, lengths}` in which
 * every byte array of the job was replaced by `{$bytes: i}`; the arrays themselves arrive,
 * in order, on stdin (`lengths[i]` bytes each; a pipe costs the server no copy). The child answers one
 * IPC message `{ok: true, result}` or `{ok: false, error}` and exits. When the parent
 * goes away (the IPC channel closes) the child exits too.
 */
import { ApiError } from '../../platform/errors.js';
import type { EngineJob } from './job-process.js';

async function run(job: EngineJob): Promise<unknown> {
  switch (job.op) {
    case 'generate':
      // WordNet (read from disk here, in the child) keeps distractors of the key's kind and makes believable false statements.
      return (await import('../../core/generation/engine/extractive.js')).generateExtractive(job.passages, { ...job.options, lexicon: (await import('./wordnet.js')).kindOf });
    case 'select':
      return (await import('./llm/select.js')).selectPassages(job.passages, job.budget);
    case 'read-material':
      return (await import('./material/read-material.js')).readMaterialHere(job.input);
    default:
      return (await import('../imports/upload-jobs.js')).runUploadJob(job);
  }
}

/** Reads stdin to its end into one Uint8Array per announced length. */
async function readBytes(lengths: number[]): Promise<Uint8Array[]> {
  const arrays = lengths.map((n) => new Uint8Array(n));
  let i = 0;
  let at = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    let from = 0;
    while (from < chunk.length && i < arrays.length) {
      const take = Math.min(chunk.length - from, arrays[i]!.length - at);
      arrays[i]!.set(chunk.subarray(from, from + take), at);
      from += take;
      at += take;
      if (at === arrays[i]!.length) [i, at] = [i + 1, 0];
    }
  }
  while (i < arrays.length && arrays[i]!.length === 0) i++;
  if (i < arrays.length) throw new Error('the job process received fewer bytes than announced');
  return arrays;
}

/** Puts the byte arrays back where the parent took them out. */
function attach(value: unknown, arrays: Uint8Array[]): unknown {
  if (Array.isArray(value)) return value.map((v) => attach(v, arrays));
  if (value && typeof value === 'object') {
    const slot = (value as { $bytes?: number }).$bytes;
    if (typeof slot === 'number') return arrays[slot];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, attach(v, arrays)]));
  }
  return value;
}

const reply = (message: unknown) => process.send!(message, undefined, {}, () => process.exit(0));

process.on('disconnect', () => process.exit(1));
process.once('message', (message: { job: EngineJob; lengths: number[] }) => {
  readBytes(message.lengths)
    .then((arrays) => run(attach(message.job, arrays) as EngineJob))
    .then(
      (result) => reply({ ok: true, result }),
      (err) => {
        const e = err as Error;
        reply({
          ok: false,
          error: err instanceof ApiError ? { status: err.status, slug: err.slug, title: err.title, detail: err.message, extra: err.extra, headers: err.headers } : { detail: e?.message ?? String(err) },
        });
      },
    );
});
process.send!({ ready: true });
