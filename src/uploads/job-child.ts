/**
 * Entry of the job process (job-process.ts): a separate Node process, kept warm by the
 * server, that does the CPU- and memory-heavy work — the reading of uploads (issue 22 §1:
 * spreadsheets, Word, PowerPoint, PDF, text banks, generation material), and the jobs of
 * the files named after the entry on its command line (job-pool.ts `jobModules`: the
 * hall's question engine) — so a hostile file can exhaust only this process's capped heap
 * and its CPU runs at a lower priority than the hall's answer traffic (docs/decisions.md,
 * "Heavy parsing in a child process").
 *
 * Protocol: the child says `{ready: true}` once it listens (a message that arrives before
 * a listener is lost). Byte streams arrive on stdin in frames (job-protocol.ts `FRAME`:
 * `[type u8][stream u8][length u32 LE]` + payload); an upload's bytes come as the server
 * reads them from the socket. Jobs arrive one at a time over IPC as `{job, streams}`: the
 * job waits until `streams` streams have ended (an aborted one is empty), gets them where
 * it says `{$bytes: i}`, runs, and the child answers one IPC message `{ok: true, result}`
 * or `{ok: false, error}`. When the parent goes away (the IPC channel closes) it exits.
 */
import busboy from 'busboy';
import { Socket, type SocketConstructorOpts } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ApiError } from '../platform/errors.js';
import { FRAME, FRAME_HEADER, HEAD_BYTES, type JobRequest, type TakeRequest, type Taken, type TakenFile } from './job-protocol.js';
import type { MaterialInput } from './material/read-material.js';
import type { UploadJob } from './upload-jobs.js';

/** The jobs this process knows itself: reading uploads. `echo` returns its input with every streamed upload as bytes. */
type ReaderJob = { op: 'read-material'; input: MaterialInput } | { op: 'echo'; input: MaterialInput } | { op: 'discard' } | UploadJob;
const READER_OPS = new Set(['read-material', 'echo', 'discard', 'read-sheet', 'read-roster', 'read-bank']);

/** A program's jobs (job-pool.ts `jobModules`): each file named after the entry on the command line exports `childJobs`. */
type ChildJobs = Record<string, (job: never) => Promise<unknown>>;
let programJobs: Promise<ChildJobs> | null = null;
function loadProgramJobs(): Promise<ChildJobs> {
  programJobs ??= Promise.all(process.argv.slice(2).map(async (file) => ((await import(pathToFileURL(file).href)) as { childJobs: ChildJobs }).childJobs)).then((all) => Object.assign({}, ...all) as ChildJobs);
  return programJobs;
}

async function run(job: JobRequest): Promise<unknown> {
  if (!READER_OPS.has(job.op)) {
    const handler = (await loadProgramJobs())[job.op];
    if (!handler) throw new Error(`no job "${job.op}" in this job process`);
    return handler(job as never);
  }
  const reader = job as ReaderJob;
  switch (reader.op) {
    case 'read-material':
      return (await import('./material/read-material.js')).readMaterialInChild(reader.input);
    case 'echo':
      return reader.input;
    case 'discard':
      return null;
    default:
      return (await import('./upload-jobs.js')).runUploadJob(reader);
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

/** Opens stream `stream`, with room for `hint` bytes taken once (pages never written cost no memory). */
function beginStream(stream: number, hint: number): void {
  open.set(stream, { into: hint ? Buffer.allocUnsafeSlow(hint) : null, at: 0, more: [] });
}

/** Appends a chunk to an open stream (copied: the chunk may be a view of a larger buffer). */
function streamData(stream: number, payload: Buffer): void {
  const s = open.get(stream);
  if (!s) throw new Error(`data for stream ${stream}, which is not open`);
  if (s.into && !s.more.length && s.at + payload.length <= s.into.length) s.at += payload.copy(s.into, s.at);
  else s.more.push(Buffer.from(payload));
}

/** Ends a stream: its bytes (none when aborted) wait for the job. */
function endStream(stream: number, aborted: boolean): void {
  const s = open.get(stream);
  if (!s) throw new Error(`end of stream ${stream}, which is not open`);
  open.delete(stream);
  if (aborted) ended.set(stream, new Uint8Array(0));
  else {
    const first = s.into ? s.into.subarray(0, s.at) : Buffer.alloc(0);
    const whole = s.more.length ? Buffer.concat([first, ...s.more]) : first;
    ended.set(stream, new Uint8Array(whole.buffer, whole.byteOffset, whole.length));
  }
  wake?.();
}

function onFrame(type: number, stream: number, payload: Buffer): void {
  if (type === FRAME.BEGIN) return beginStream(stream, payload.readUInt32LE(0));
  if (type === FRAME.DATA) return streamData(stream, payload);
  endStream(stream, type === FRAME.ABORT);
}

/** A socket on a handle the server sent; allowHalfOpen: a client's FIN must not make Node shut the shared connection down. */
const socketOf = (handle: unknown) => new Socket({ handle, allowHalfOpen: true } as SocketConstructorOpts);

/** Ends the connection's reading in progress (the server's socket closed: the client went, or timed out). */
let dropTake: (() => void) | null = null;

/**
 * Reads a multipart body from a connection the server handed over (job-process.ts
 * `Lease.take`, streamed-upload.ts): the bytes the server had already read, then exactly
 * `remaining` bytes from the socket, parsed by busboy with the route's limits; each file
 * part becomes stream 0, 1, … of the lease's job. This process's copy of the socket is
 * only read and then closed — never written nor shut down (the server answers on its own
 * copy). Resolves with the fields, the files (size, first HEAD_BYTES) and how many
 * streams were opened, or with `error` (a file over its cap, a malformed body, a client
 * that went away); then every stream opened is aborted.
 */
function take(t: TakeRequest, handle: unknown): Promise<Taken> {
  return new Promise<Taken>((resolve) => {
    const fields: [string, string][] = [];
    const files: TakenFile[] = [];
    const opened = new Set<number>();
    let streamCount = 0;
    let bytes = 0;
    let done = false;
    let parsed = false;
    let sock: Socket | null = null;
    const closeSocket = () => {
      if (!sock) return;
      sock.removeAllListeners('data');
      sock.destroy(); // closes this process's descriptor only: no FIN, the server's copy answers
      sock = null;
    };
    const finish = (error?: Taken['error']) => {
      if (done) return;
      done = true;
      dropTake = null;
      closeSocket();
      if (error) for (const s of opened) endStream(s, true);
      opened.clear();
      resolve(error ? { streams: streamCount, bytes, fields: [], files: [], error } : { streams: streamCount, bytes, fields, files });
    };
    const malformed = (e: unknown) => finish({ kind: 'malformed', message: (e as Error)?.message ?? String(e) });
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: { 'content-type': t.contentType }, limits: { fileSize: t.maxFileBytes, files: 4, fields: 50, fieldSize: 1024 * 1024 } });
    } catch (e) {
      if (handle) socketOf(handle).destroy();
      return malformed(e);
    }
    bb.on('file', (name, stream, info) => {
      if (done) return void stream.resume();
      const n = streamCount++;
      beginStream(n, t.hint);
      opened.add(n);
      const head = Buffer.alloc(HEAD_BYTES);
      let size = 0;
      stream.on('data', (d: Buffer) => {
        if (done) return;
        if (size < HEAD_BYTES) d.copy(head, size, 0, Math.min(d.length, HEAD_BYTES - size));
        size += d.length;
        streamData(n, d);
      });
      stream.on('limit', () => finish({ kind: 'limit' }));
      stream.on('close', () => {
        if (done) return;
        opened.delete(n);
        endStream(n, false);
        files.push({ name, filename: info.filename ?? '', mimeType: info.mimeType, size, head: head.subarray(0, Math.min(size, HEAD_BYTES)), stream: n });
        if (parsed && !opened.size) finish();
      });
    });
    bb.on('field', (name, value) => fields.push([name, value]));
    bb.on('error', malformed);
    bb.on('close', () => {
      parsed = true;
      if (!opened.size) finish();
    });
    const already = Buffer.from(t.already.buffer, t.already.byteOffset, t.already.byteLength);
    bytes += already.length;
    if (already.length) bb.write(already);
    if (t.remaining <= 0 || !handle) {
      if (handle) socketOf(handle).destroy();
      if (t.remaining > 0) return finish({ kind: 'malformed', message: 'the upload was interrupted' });
      return void bb.end();
    }
    const s = socketOf(handle);
    sock = s;
    let left = t.remaining;
    s.on('data', (d: Buffer) => {
      if (done) return;
      const part = d.length > left ? d.subarray(0, left) : d;
      left -= part.length;
      bytes += part.length;
      const more = bb.write(part);
      if (left === 0) {
        closeSocket();
        bb.end();
      } else if (!more) {
        s.pause();
        bb.once('drain', () => s.resume());
      }
    });
    const interrupted = () => left > 0 && finish({ kind: 'malformed', message: 'the upload was interrupted' });
    s.on('end', interrupted);
    s.on('error', interrupted);
    s.on('close', interrupted);
    dropTake = interrupted;
  });
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
 * RSS between jobs is what it really keeps (job-pool.ts retires it above
 * RECYCLE_RSS_MB). It costs the child ~10–30 ms, on idle CPU (SCHED_IDLE); the server nothing.
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
process.on('message', (message: { job: JobRequest; streams: number } | { take: TakeRequest } | { drop: true }, handle?: unknown) => {
  if ('drop' in message) return dropTake?.();
  if ('take' in message) {
    // the start of a lease: no job runs now (the server sends one only after the answer)
    void take(message.take, handle).then(
      (taken) => reply({ taken }),
      (err) => reply({ taken: { streams: 0, bytes: 0, fields: [], files: [], error: { kind: 'malformed', message: (err as Error)?.message ?? String(err) } } }),
    );
    return;
  }
  // one job at a time (the server sends the next only after this one's answer)
  queue = queue
    .then(() => streams(message.streams))
    .then((arrays) => run(attach(message.job, arrays) as JobRequest))
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
