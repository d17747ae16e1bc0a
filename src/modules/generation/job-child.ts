/**
 * Entry of the job process (job-process.ts): a separate Node process, kept warm by the
 * server, that does the CPU- and memory-heavy work — the question engine, and the reading
 * of uploads (issue 22 §1: spreadsheets, Word, PowerPoint, PDF, text banks, generation
 * material) — so a hostile file can exhaust only this process's capped heap and its CPU
 * runs at a lower priority than the hall's answer traffic (DESIGN §7).
 *
 * Protocol: the child says `{ready: true}` once it listens (a message that arrives before
 * a listener is lost). Byte streams arrive on stdin in frames (job-process.ts `FRAME`:
 * `[type u8][stream u8][length u32 LE]` + payload); an upload's bytes come as the server
 * reads them from the socket. Jobs arrive one at a time over IPC as `{job, streams}`: the
 * job waits until `streams` streams have ended (an aborted one is empty), gets them where
 * it says `{$bytes: i}`, runs, and the child answers one IPC message `{ok: true, result}`
 * or `{ok: false, error}`. When the parent goes away (the IPC channel closes) it exits.
 */
import { ApiError } from '../../platform/errors.js';
import type { EngineJob } from './job-process.js';
import { FRAME, FRAME_HEADER } from './job-process.js';

async function run(job: EngineJob): Promise<unknown> {
  switch (job.op) {
    case 'generate':
      // WordNet (read from disk here, in the child) keeps distractors of the key's kind and makes believable false statements.
      return (await import('../../core/generation/engine/extractive.js')).generateExtractive(job.passages, { ...job.options, lexicon: (await import('./wordnet.js')).kindOf });
    case 'select':
      return (await import('./llm/select.js')).selectPassages(job.passages, job.budget);
    case 'read-material':
      return (await import('./material/read-material.js')).readMaterialInChild(job.input);
    case 'echo':
      return job.input;
    case 'discard':
      return null;
    default:
      return (await import('../imports/upload-jobs.js')).runUploadJob(job);
  }
}

/** A stream being received: one buffer of the hinted size, and chunks past it. */
interface Incoming {
  into: Buffer | null;
  at: number;
  more: Buffer[];
}

const open = new Map<number, Incoming>();
const ended = new Map<number, Uint8Array>();
let wake: (() => void) | null = null;

function onFrame(type: number, stream: number, payload: Buffer): void {
  if (type === FRAME.BEGIN) {
    const hint = payload.readUInt32LE(0);
    // pages of the buffer never written cost no memory
    open.set(stream, { into: hint ? Buffer.allocUnsafeSlow(hint) : null, at: 0, more: [] });
    return;
  }
  const s = open.get(stream);
  if (!s) throw new Error(`frame for stream ${stream}, which is not open`);
  if (type === FRAME.DATA) {
    if (s.into && !s.more.length && s.at + payload.length <= s.into.length) s.at += payload.copy(s.into, s.at);
    else s.more.push(Buffer.from(payload)); // a copy: payload is a view of a larger stdin chunk
    return;
  }
  open.delete(stream);
  if (type === FRAME.ABORT) ended.set(stream, new Uint8Array(0));
  else {
    const first = s.into ? s.into.subarray(0, s.at) : Buffer.alloc(0);
    const whole = s.more.length ? Buffer.concat([first, ...s.more]) : first;
    ended.set(stream, new Uint8Array(whole.buffer, whole.byteOffset, whole.length));
  }
  wake?.();
}

/** Splits stdin into frames (a header or payload may span chunks). */
function readFrames(): void {
  let pending: Buffer = Buffer.alloc(0);
  process.stdin.on('data', (chunk: Buffer) => {
    let buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    for (;;) {
      if (buf.length - at < FRAME_HEADER) break;
      const type = buf.readUInt8(at);
      const stream = buf.readUInt8(at + 1);
      const length = buf.readUInt32LE(at + 2);
      // a long DATA frame is taken in pieces as it arrives
      if (type === FRAME.DATA && buf.length - at - FRAME_HEADER < length) {
        const have = buf.length - at - FRAME_HEADER;
        if (have > 0) {
          onFrame(type, stream, buf.subarray(at + FRAME_HEADER));
          buf.writeUInt32LE(length - have, at + 2);
          buf = Buffer.from(buf.subarray(at, at + FRAME_HEADER));
          at = 0;
        }
        break;
      }
      if (buf.length - at - FRAME_HEADER < length) break;
      onFrame(type, stream, buf.subarray(at + FRAME_HEADER, at + FRAME_HEADER + length));
      at += FRAME_HEADER + length;
    }
    pending = at < buf.length ? Buffer.from(buf.subarray(at)) : Buffer.alloc(0);
  });
}

/** Resolves with streams 0…n−1 once all have ended (and forgets them). */
async function streams(n: number): Promise<Uint8Array[]> {
  for (;;) {
    let all = true;
    for (let i = 0; i < n; i++) if (!ended.has(i)) all = false;
    if (all) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  const arrays = Array.from({ length: n }, (_, i) => ended.get(i)!);
  ended.clear();
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

/**
 * A full collection after each job (the child runs with --expose-gc): an upload's buffer
 * is given back before the next job starts rather than whenever V8 would, so the child's
 * RSS between jobs is what it really keeps (job-process.ts retires it above
 * RECYCLE_RSS_MB). It costs the child ~10–30 ms, at nice 10; the server nothing.
 */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

const reply = (message: unknown) =>
  new Promise<void>((resolve) =>
    process.send!(message, undefined, {}, (err) => {
      if (err) process.exit(1);
      resolve();
    }),
  );

process.on('disconnect', () => process.exit(1));
readFrames();
let queue = Promise.resolve();
process.on('message', (message: { job: EngineJob; streams: number }) => {
  // one job at a time (the server sends the next only after this one's answer)
  queue = queue
    .then(() => streams(message.streams))
    .then((arrays) => run(attach(message.job, arrays) as EngineJob))
    .finally(collect)
    .then(
      (result) => reply({ ok: true, result }),
      (err) => {
        const e = err as Error;
        return reply({
          ok: false,
          error: err instanceof ApiError ? { status: err.status, slug: err.slug, title: err.title, detail: err.message, extra: err.extra, headers: err.headers } : { detail: e?.message ?? String(err) },
        });
      },
    );
});
process.send!({ ready: true });
