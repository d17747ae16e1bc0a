/**
 * Runs heavy jobs — the question engine and the reading of uploads (issue 22 §1:
 * spreadsheets, Word and PowerPoint files, PDFs, text banks, generation material) — in a
 * separate child process (job-child.ts) and returns the result; errors thrown there come
 * back as the same ApiError. Why a process and not a worker thread (docs/decisions.md,
 * "Heavy parsing in a child process"): a thread shares the server's process — its
 * priority on the two cores, V8's platform threads, the allocator — so its CPU and memory
 * were the hall's; a process under SCHED_IDLE (or nice 19) with its own heap is not.
 *
 * - One job at a time in each lane (job-slots.ts: a main lane, and a small lane for small
 *   imports with a child of its own; a quota per workspace; 503 / 429 with Retry-After).
 *   A job holds its turn through a `Lease`; an upload streamed from the socket
 *   (streamed-upload.ts) takes its lease when its first file part arrives, so its bytes go
 *   straight into the child and never gather in the server. A lease whose client went
 *   away is cancelled (`Lease.cancel`: its child is killed, its turn passes at once).
 * - The child is kept warm: started on the first job, reused by the next ones, and ended
 *   after `IDLE_MS` without work, after a large job (`RECYCLE_AFTER_MB` sent, the question
 *   engine) or one that left it above `RECYCLE_RSS_MB` (one job's memory does not linger),
 *   or when it crashed or was killed (the next job starts a fresh one; a dead child never
 *   takes a later job down).
 * - The child is started by the job launcher (job-launcher.ts), a small process the server
 *   forks once at boot, so the server never forks during an exam (a fork blocked its event
 *   loop 6–16 ms each time). It runs under SCHED_IDLE (`chrt --idle 0`; nice `CHILD_NICE`
 *   where chrt is missing or refused), with a V8 heap of `CHILD_HEAP_MB` (a job that needs
 *   more dies of heap exhaustion → 413) and the launcher's watchdog kills it when its
 *   resident memory passes `CHILD_RSS_LIMIT_MB` (native memory the heap cap does not
 *   count → 413).
 * - While an attempt is in progress the child may run only part of the time (the launcher
 *   stops and continues it; `yieldJobsToExam`, CBT_JOB_CPU_PERCENT_IN_EXAM): background
 *   jobs yield to a live exam.
 * - A child that crashes or runs past `JOB_LIMIT_MS` (longer in the same measure under that
 *   cap) answers 422 (`READER_FAILED`): nothing was changed.
 * - Children are killed when the server exits, and exit by themselves when the server
 *   dies (the launcher then kills them and exits).
 *
 * Protocol with the child: job data goes over IPC (`{job, streams}`, relayed by the
 * launcher), each byte array of
 * a job through stdin as a numbered stream of frames (`[type u8][stream u8][length u32 LE]`
 * then `length` bytes: BEGIN with a u32 size hint, DATA, END, ABORT). A job names its
 * arrays `{$bytes: i}`; the child waits for `streams` streams to end, runs the job and
 * answers one IPC message. Streams of one job may interleave (two file parts of a form).
 * From compiled JavaScript the child runs job-child.js; from TypeScript sources (tests,
 * `npm run dev`) it runs job-child.ts through tsx's loader.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApiError } from '../../platform/errors.js';
import type { EngineResult, GenerateOptions } from '../../core/generation/engine/extractive.js';
import type { Passage } from '../../core/generation/passage.js';
import type { UploadJob } from '../imports/upload-jobs.js';
import type { MaterialInput } from './material/read-material.js';
import { jobCpuCap, launchJobProcess, setJobCpuCap, type LaunchedChild } from './job-launcher.js';
import { BUSY_RETRY_S, currentContext, onLanesBusy, takeSlot, type Lane, type UploadContext } from './job-slots.js';

export { MAX_WAITING } from './job-slots.js';

/** A job for the child process. `echo` returns its input with every streamed upload as bytes. */
export type EngineJob =
  | { op: 'generate'; passages: Passage[]; options: GenerateOptions }
  | { op: 'select'; passages: Passage[]; budget: number }
  | { op: 'read-material'; input: MaterialInput }
  | { op: 'echo'; input: MaterialInput }
  | { op: 'discard' }
  | UploadJob;

/**
 * A connection handed to the child to read a multipart body from (`Lease.take`): the
 * body's Content-Type, the route's cap per file, the room to take for a file (bytes), the
 * body bytes the server had read already, and how many are still to come on the socket.
 */
export interface TakeRequest {
  contentType: string;
  maxFileBytes: number;
  hint: number;
  already: Uint8Array;
  remaining: number;
}

/** A file part read by the child: its stream on the lease, size and first HEAD_BYTES. */
export interface TakenFile {
  name: string;
  filename: string;
  mimeType: string;
  size: number;
  head: Uint8Array;
  stream: number;
}

/** What the child read from a handed-over connection; `error` when it stopped short. */
export interface Taken {
  streams: number;
  /** body bytes the child took in (for RECYCLE_AFTER_MB) */
  bytes: number;
  fields: [string, string][];
  files: TakenFile[];
  error?: { kind: 'limit' } | { kind: 'malformed'; message: string };
}

type Reply = { ok: true; result: unknown } | { ok: false; error: { status?: number; slug?: string; title?: string; detail: string; extra?: Record<string, unknown>; headers?: Record<string, string> } };

/** Longest a job may run before its child is killed. */
const JOB_LIMIT_MS = 5 * 60_000;
/** V8 old-generation heap of the child, MB (`--max-old-space-size`; plus the semi-spaces). */
export const CHILD_HEAP_MB = 160;
/**
 * V8 young-generation semi-space of the child, MB (`--max-semi-space-size`). 8 MB let the
 * young generation take up to ~24 MB of resident memory; at 2 MB the question engine on
 * the ICAN paper peaked at 128 MB instead of 162 MB, and on a 39 MB text 101 MB instead
 * of 117–118 MB (more, shorter scavenges: the child runs on idle CPU anyway).
 */
export const CHILD_SEMI_SPACE_MB = 2;
/** The child's resident memory at which the watchdog kills it, MB (heap, code, buffers: all of it). */
export const CHILD_RSS_LIMIT_MB = 320;
/** A child left above this resident memory by a job is ended after it (the next job starts a fresh one), MB. */
export const RECYCLE_RSS_MB = 150;
/**
 * A child that was sent more than this many bytes for one job is ended after it, MB: its
 * heap grew to hold them and V8 keeps grown heaps, so a later job (the question engine
 * after a 39 MB text) would start from there. Rejected bombs (~1 MB) keep it warm.
 */
export const RECYCLE_AFTER_MB = 8;
/** A child without work for this long is ended (its memory goes back to the hall), ms. */
export const IDLE_MS = 30_000;
/** How often the launcher's watchdog reads the child's resident memory, ms. */
const WATCH_EVERY_MS = 20;
/**
 * The child's nice value, used where SCHED_IDLE is not to be had (below): the hall's answer
 * traffic (nice 0) comes first on the two cores.
 */
export const CHILD_NICE = 19;

/** Frame types on the child's stdin. */
export const FRAME = { BEGIN: 1, DATA: 2, END: 3, ABORT: 4 } as const;
/** Bytes of a frame header: type u8, stream u8, length u32 LE. */
export const FRAME_HEADER = 6;

/** 413 for a job whose child ran out of its heap or past its resident-memory limit. */
export class TooHeavyToRead extends ApiError {
  constructor() {
    super(413, 'too-heavy-to-read', 'Too large to read', `Reading this file needs more memory than the server sets aside for one upload (${CHILD_RSS_LIMIT_MB} MB); split it or save it smaller.`, { code: 'TOO_HEAVY_TO_READ', limitMb: CHILD_RSS_LIMIT_MB });
  }
}

/** 422 for a job whose child crashed or ran out of time: the file's reading failed, the server did not. */
export class ReaderFailed extends ApiError {
  constructor(why: string) {
    super(422, 'reader-failed', 'The file could not be read', `Reading this file stopped: ${why}. Nothing was changed and the server is unaffected; try again, or save the file in another format.`, { code: 'READER_FAILED' });
  }
}

/** Command line of a child: node, its memory flags, and the entry (through tsx from sources). */
function childArgs(): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./job-child.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  // --expose-gc: job-child.ts collects after each job
  const flags = [`--max-old-space-size=${CHILD_HEAP_MB}`, `--max-semi-space-size=${CHILD_SEMI_SPACE_MB}`, '--expose-gc'];
  if (fromSource) flags.push('--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href);
  return [...flags, entry];
}

/** Resident memory of a process, MB, from /proc (0 where there is no /proc or it is gone). */
export function residentMB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** One job process: started once (by the launcher, job-launcher.ts), reused job after job until it dies or is retired. */
class JobChild {
  readonly proc: LaunchedChild;
  /** Why it is gone (the error its jobs answer), once it is. */
  failure: ApiError | null = null;
  private cause: 'time' | 'retired' | 'cancelled' | null = null;
  private readonly ready: Promise<void>;
  private pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void } | null = null;
  private pendingTake: { resolve: (v: Taken) => void; reject: (e: unknown) => void } | null = null;
  private jobTimer: NodeJS.Timeout | null = null;
  private readonly writableWaiters = new Set<() => void>();
  /** frames written before the child's stdin arrived from the launcher, in order */
  private early: Buffer[] | null = [];

  constructor(readonly lane: Lane) {
    // the launcher runs it under SCHED_IDLE (nice CHILD_NICE without chrt) and kills it past CHILD_RSS_LIMIT_MB
    this.proc = launchJobProcess({ args: childArgs(), nice: CHILD_NICE, rssLimitMb: CHILD_RSS_LIMIT_MB, watchEveryMs: WATCH_EVERY_MS });
    this.proc.on('spawn', () => {
      const stdin = this.proc.stdin;
      const early = this.early ?? [];
      this.early = null;
      if (stdin) {
        stdin.on('drain', () => this.wakeWriters());
        for (const b of early) stdin.write(b);
        if (!stdin.writableNeedDrain) this.wakeWriters();
      }
    });
    let readyNow: () => void = () => {};
    let notReady: (e: unknown) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => ((readyNow = resolve), (notReady = reject)));
    this.ready.catch(() => {});
    this.proc.on('message', (reply: Reply | { ready: true } | { taken: Taken } | { notTaken: string }) => {
      if ('ready' in reply) return readyNow();
      if ('taken' in reply || 'notTaken' in reply) {
        const t = this.pendingTake;
        this.pendingTake = null;
        if ('taken' in reply) return t?.resolve(reply.taken);
        return t?.reject(this.failure ?? new ReaderFailed(`the upload could not be handed to the reader (${reply.notTaken})`));
      }
      const p = this.pending;
      this.pending = null;
      if (this.jobTimer) clearTimeout(this.jobTimer);
      if (!p) return;
      if (reply.ok) return p.resolve(reply.result);
      const e = reply.error;
      p.reject(e.status ? new ApiError(e.status, e.slug!, e.title!, e.detail, e.extra, e.headers) : new ReaderFailed(`the reader reported an error (${e.detail})`));
    });
    // it could not be started (the launcher, node or chrt could not run)
    this.proc.on('error', (err: Error) => {
      this.die(new ApiError(503, 'reader-unavailable', 'Cannot read uploads now', `The server could not start the process that reads uploads (${err.message}); try again shortly.`, { code: 'READER_UNAVAILABLE', retryAfterSeconds: BUSY_RETRY_S }, { 'Retry-After': String(BUSY_RETRY_S) }));
      notReady(this.failure);
    });
    this.proc.on('exit', (code: number | null, signal: NodeJS.Signals | null, stderrTail: string, overMemory: boolean, why?: string) => {
      const cause = this.cause;
      if (overMemory || /heap out of memory|Allocation failed/i.test(stderrTail)) this.die(new TooHeavyToRead());
      else if (cause === 'time') this.die(new ReaderFailed(`it took longer than ${JOB_LIMIT_MS / 60_000} minutes`));
      else if (cause === 'cancelled') this.die(new ReaderFailed('the client went away'));
      else this.die(new ReaderFailed(cause === 'retired' ? 'the reader process was ended' : `the reader process ended unexpectedly (${signal ?? `exit code ${code}`}${why ? `: ${why}` : ''})`));
      notReady(this.failure);
    });
    this.setRef(false);
  }

  get dead(): boolean {
    return this.failure !== null;
  }

  private die(failure: ApiError): void {
    if (this.failure) return;
    this.failure = failure;
    this.early = null;
    if (this.jobTimer) clearTimeout(this.jobTimer);
    const p = this.pending;
    this.pending = null;
    p?.reject(failure);
    const t = this.pendingTake;
    this.pendingTake = null;
    t?.reject(failure);
    this.wakeWriters();
    if (current[this.lane] === this) current[this.lane] = null;
  }

  private wakeWriters(): void {
    const ws = [...this.writableWaiters];
    this.writableWaiters.clear();
    for (const w of ws) w();
  }

  /** Ends the child (SIGKILL); `why` decides what a job still in it answers. */
  kill(why: 'time' | 'retired' | 'cancelled'): void {
    this.cause ??= why;
    if (current[this.lane] === this) current[this.lane] = null; // the next job starts a fresh child, not this dying one
    this.proc.kill();
  }

  /** While idle the child must not keep the server's event loop alive (tests, scripts). */
  setRef(on: boolean): void {
    this.proc.setRef(on);
  }

  /** Writes one frame; false when the pipe is full (wait with `whenWritable`). Nothing once the child is gone. */
  frame(type: number, stream: number, payload?: Uint8Array, hint = 0): boolean {
    if (this.dead) return true;
    const head = Buffer.allocUnsafe(FRAME_HEADER + (type === FRAME.BEGIN ? 4 : 0));
    head.writeUInt8(type, 0);
    head.writeUInt8(stream, 1);
    head.writeUInt32LE(type === FRAME.BEGIN ? 4 : (payload?.length ?? 0), 2);
    if (type === FRAME.BEGIN) head.writeUInt32LE(hint, FRAME_HEADER);
    const stdin = this.proc.stdin;
    if (!stdin) {
      // not started yet: kept in order, written when its stdin arrives (writers wait meanwhile)
      this.early?.push(head);
      if (payload) this.early?.push(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
      return !payload;
    }
    if (!payload) return stdin.write(head);
    stdin.cork();
    stdin.write(head);
    const ok = stdin.write(payload);
    stdin.uncork();
    return ok;
  }

  /** Calls `then` once the stdin pipe drained, or the child is gone. */
  whenWritable(then: () => void): void {
    if (this.dead) return then();
    this.writableWaiters.add(then);
  }

  /**
   * Hands a connection to the child to read a body from (`handle`: the socket's TCP
   * handle, kept open here: the server answers on it); resolves with what it read.
   * `drop` tells the child to stop (the server's socket closed).
   */
  async take(request: TakeRequest, handle: unknown, dropped: Promise<void>): Promise<Taken> {
    if (this.failure) throw this.failure;
    await this.ready.catch(() => {});
    if (this.failure) throw this.failure;
    return new Promise<Taken>((resolve, reject) => {
      const mine = { resolve, reject };
      this.pendingTake = mine;
      this.proc.send({ take: request }, handle, (err) => {
        // not sent (the child just died: its exit answers; a handle that closed meanwhile)
        if (err && this.pendingTake === mine) {
          this.pendingTake = null;
          reject(this.failure ?? new ReaderFailed(`the upload could not be handed to the reader (${err.message})`));
        }
      });
      void dropped.then(() => {
        if (this.pendingTake === mine && !this.dead) this.proc.send({ drop: true });
      });
    });
  }

  /** Sends a job whose `streams` byte streams were (or are being) written; resolves with its result. */
  async call<T>(job: unknown, streams: number): Promise<T> {
    if (this.failure) throw this.failure;
    await this.ready.catch(() => {});
    if (this.failure) throw this.failure;
    return new Promise<T>((resolve, reject) => {
      this.pending = { resolve: resolve as (v: unknown) => void, reject };
      // under the exam's CPU cap a job gets as much more time as it gets less CPU
      this.jobTimer = setTimeout(() => this.kill('time'), (JOB_LIMIT_MS * 100) / jobCpuCap());
      this.proc.send({ job, streams });
    });
  }
}

/**
 * Background jobs yield to a live exam (docs/decisions.md): while `examLive()` says an
 * attempt is in progress, job processes may run at most `percent` % of the time (the
 * launcher stops and continues them, job-launcher.ts `setJobCpuCap`), else they run
 * freely (still under SCHED_IDLE). Asked when a job takes its turn and every
 * `EXAM_CHECK_MS` while jobs run. Returns the function that removes this rule.
 */
export function yieldJobsToExam(rule: { percent: number; examLive: () => boolean }): () => void {
  examRule = rule;
  refreshCap();
  return () => {
    if (examRule !== rule) return;
    examRule = null;
    refreshCap();
  };
}

/** How often the exam rule is asked again while jobs run, ms. */
export const EXAM_CHECK_MS = 2_000;
let examRule: { percent: number; examLive: () => boolean } | null = null;
let examTimer: NodeJS.Timeout | null = null;

/** Applies the exam rule now (no rule, or a question that fails: no cap). */
function refreshCap(): void {
  let live = false;
  try {
    live = !!examRule && examRule.percent < 100 && examRule.examLive();
  } catch {
    /* a closed database (a runtime shut down): no exam here */
  }
  setJobCpuCap(live ? examRule!.percent : 100);
}

/** While a job holds the slot the exam rule is asked every EXAM_CHECK_MS (an exam that starts or ends mid-job). */
function watchExam(on: boolean): void {
  if (on && !examTimer) {
    examTimer = setInterval(refreshCap, EXAM_CHECK_MS);
    examTimer.unref();
  } else if (!on && examTimer) {
    clearInterval(examTimer);
    examTimer = null;
  }
}

/** The warm child of each lane, while it lives. */
const current: Record<Lane, JobChild | null> = { main: null, small: null };
const idleTimers: Record<Lane, NodeJS.Timeout | null> = { main: null, small: null };
/** Whether a lease is open in each lane (its child is not idle). */
const busy: Record<Lane, boolean> = { main: false, small: false };

/** The child for the next job of `lane` (its warm one, or a fresh one). */
function childForJob(lane: Lane): JobChild {
  const timer = idleTimers[lane];
  if (timer) clearTimeout(timer);
  idleTimers[lane] = null;
  let child = current[lane];
  if (!child || child.dead) child = current[lane] = new JobChild(lane);
  child.setRef(true);
  return child;
}

/**
 * After a job: retire the child when the job was large (more than RECYCLE_AFTER_MB sent,
 * or the question engine, whose language model is ~56 MB) or left it above RECYCLE_RSS_MB;
 * else let it idle (ended after IDLE_MS).
 */
function afterJob(child: JobChild, large: boolean): void {
  if (child.dead) return;
  if (large || (child.proc.pid && residentMB(child.proc.pid) > RECYCLE_RSS_MB)) {
    child.kill('retired');
    return;
  }
  child.setRef(false);
  const lane = child.lane;
  const timer = idleTimers[lane];
  if (timer) clearTimeout(timer);
  const idle = setTimeout(() => {
    if (current[lane] === child && !busy[lane]) child.kill('retired');
  }, IDLE_MS);
  idle.unref();
  idleTimers[lane] = idle;
}

// while any lane runs a job, the exam rule is applied now and asked again every EXAM_CHECK_MS
onLanesBusy((on) => {
  if (on) refreshCap();
  watchExam(on);
});

/**
 * An upload's bytes that were streamed into the job process (they are not in the server):
 * put it in a job where the bytes go, and the child sees a Uint8Array. `head` is the first
 * bytes (≤ HEAD_BYTES), for telling what the file is; `size` its length.
 */
export class StreamedBytes {
  constructor(
    readonly lease: Lease,
    readonly stream: number,
    readonly size: number,
    readonly head: Uint8Array,
  ) {}
}

/** How many first bytes of a streamed upload the server keeps (uploads.ts `sniff` reads 8 KB). */
export const HEAD_BYTES = 8192;

/** One stream of bytes into the child, for `Lease.open`. */
export interface StreamSink {
  readonly stream: number;
  /** Writes a chunk; false when the pipe is full (then wait with `whenWritable`). */
  write(chunk: Uint8Array): boolean;
  whenWritable(then: () => void): void;
  end(): void;
  /** The stream is dropped (over a size cap, or the request failed). */
  abort(): void;
}

/**
 * The turn of one job: the slot and the child. Byte streams are opened on it (an upload
 * as it arrives), then one job runs on it (`run`), or it is dropped (`end` without a job).
 */
export class Lease {
  private streams = 0;
  private finished = false;
  /** the child works for this lease (reads its connection, or runs its job) */
  private running = false;
  /** bytes sent on this lease, and whether its job was the question engine */
  private sent = 0;
  private engine = false;
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort = () => this.cancel();
  constructor(
    private readonly child: JobChild,
    private readonly release: () => void,
    signal?: AbortSignal,
  ) {
    busy[child.lane] = true;
    this.signal = signal;
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The client went away: the job (or the reading of its upload) is stopped by killing its child, and the turn passes at once. */
  cancel(): void {
    if (this.released) return;
    // a lease with nothing in its child yet needs no kill
    if (this.streams || this.finished || this.running) this.child.kill('cancelled');
    this.finish();
  }

  /** Opens the next byte stream; `hint` is its expected size (0 unknown) so the child can take room once. */
  open(hint = 0): StreamSink {
    if (this.finished) throw new Error('open() on a finished lease');
    const stream = this.streams++;
    if (stream > 255) throw new Error('too many streams in one job');
    const child = this.child;
    child.frame(FRAME.BEGIN, stream, undefined, Math.max(0, Math.min(hint, 0xffffffff)));
    let closed = false;
    return {
      stream,
      write: (chunk) => {
        if (closed) return true;
        this.sent += chunk.length;
        return child.frame(FRAME.DATA, stream, chunk);
      },
      whenWritable: (then) => child.whenWritable(then),
      end: () => {
        if (!closed) child.frame(FRAME.END, stream);
        closed = true;
      },
      abort: () => {
        if (!closed) child.frame(FRAME.ABORT, stream);
        closed = true;
      },
    };
  }

  /**
   * The child reads a multipart body from the connection itself (streamed-upload.ts): its
   * file parts become this lease's first streams. Only before any stream is opened.
   * @param dropped resolves when the server's socket closed (the child then stops reading)
   */
  async take(request: TakeRequest, handle: unknown, dropped: Promise<void>): Promise<Taken> {
    if (this.finished || this.streams) throw new Error('take() must come first on a lease');
    this.running = true; // the child reads the connection: a cancel must stop it
    const taken = await this.child.take(request, handle, dropped);
    this.streams += taken.streams;
    this.sent += taken.bytes;
    return taken;
  }

  /** Takes byte arrays out of `value` (streams of their own) and streamed uploads (their stream's number). */
  private detach(value: unknown): unknown {
    if (value instanceof StreamedBytes) {
      if (value.lease !== this) throw new Error('a streamed upload of another request');
      return { $bytes: value.stream };
    }
    if (value instanceof Uint8Array) {
      const s = this.open(value.length);
      if (value.length) s.write(value);
      s.end();
      return { $bytes: s.stream };
    }
    if (Array.isArray(value)) return value.map((v) => this.detach(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.detach(v)]));
    return value;
  }

  /** Runs `job` in the child (after every stream opened on this lease), then ends the lease. */
  async run<T>(job: EngineJob): Promise<T> {
    if (this.finished) throw new Error('run() on a finished lease');
    this.engine = job.op === 'generate';
    this.running = true;
    try {
      const header = this.detach(job);
      return await this.child.call<T>(header, this.streams);
    } finally {
      this.finish();
    }
  }

  /** Ends the lease without a job: the child drops the streams it received, then the slot is free. */
  end(): void {
    if (this.finished) return;
    if (!this.streams || this.child.dead) return this.finish();
    this.child.call({ op: 'discard' }, this.streams).then(
      () => this.finish(),
      () => this.finish(),
    );
    this.finished = true; // no more streams or jobs on it; the slot is released by finish()
  }

  get done(): boolean {
    return this.finished;
  }

  private released = false;
  private finish(): void {
    this.finished = true;
    if (this.released) return;
    this.released = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    busy[this.child.lane] = false;
    afterJob(this.child, this.engine || this.sent > RECYCLE_AFTER_MB * 1024 * 1024);
    this.release();
  }
}

/**
 * Waits for the turn of the request's lane (job-slots.ts `takeSlot`: 503 when its queue is
 * full, 429 over the workspace's quota) and returns a lease on that lane's warm child.
 * `ctx` defaults to the request's upload context (main lane outside the upload routes).
 */
export async function takeLease(ctx: UploadContext = currentContext()): Promise<Lease> {
  const release = await takeSlot(ctx);
  try {
    return new Lease(childForJob(ctx.lane), release, ctx.signal);
  } catch (e) {
    release();
    throw e;
  }
}

/** The first StreamedBytes inside a job, if any. */
function streamedIn(value: unknown): StreamedBytes | undefined {
  if (value instanceof StreamedBytes) return value;
  if (value instanceof Uint8Array || !value || typeof value !== 'object') return undefined;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    const s = streamedIn(v);
    if (s) return s;
  }
  return undefined;
}

/**
 * Runs `job` in the job process, after the jobs before it. Byte arrays in the job go to the
 * child through a pipe (not copied here); a job holding uploads streamed into the child
 * (StreamedBytes) runs on their lease, which already has its turn.
 * @throws the job's ApiError; TooHeavyToRead (413) when the child ran out of heap or past
 *   its memory limit; ReaderFailed (422) when it crashed or exceeded five minutes; 503 when
 *   MAX_WAITING jobs already wait or no child could be started; 429 over the workspace's
 *   quota (job-slots.ts).
 */
export async function runEngineJob<T>(job: EngineJob): Promise<T> {
  const streamed = streamedIn(job);
  if (streamed) {
    if (streamed.lease.done) throw new Error('a streamed upload can go to one job only');
    return streamed.lease.run<T>(job);
  }
  const lease = await takeLease();
  return lease.run<T>(job);
}

/** generateExtractive in the child process. */
export function generateInChild(passages: Passage[], options: GenerateOptions): Promise<EngineResult> {
  return runEngineJob<EngineResult>({ op: 'generate', passages, options });
}
