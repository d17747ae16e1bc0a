/**
 * One job process (issue 22 §1): the separate Node process that runs heavy jobs — the
 * reading of uploads (spreadsheets, Word and PowerPoint files, PDFs, text banks,
 * generation material) and the jobs a program adds (the hall's question engine) — and
 * returns their result; errors thrown there come back as the same ApiError. Why a process
 * and not a worker thread (docs/decisions.md, "Heavy parsing in a child process"): a
 * thread shares the server's process — its priority on the two cores, V8's platform
 * threads, the allocator — so its CPU and memory were the hall's; a process under
 * SCHED_IDLE (or nice 19) with its own heap is not.
 *
 * - The child is kept warm by its pool (job-pool.ts): started on the first job of its lane,
 *   reused by the next ones, retired after a large job, one that left it too big, or
 *   `IDLE_MS` without work; a dead child never takes a later job down.
 * - It is started by the job launcher (job-launcher.ts), a small process the server forks
 *   once at boot, so the server never forks during an exam (a fork blocked its event
 *   loop 6–16 ms each time). It runs under SCHED_IDLE (`chrt --idle 0`; nice `CHILD_NICE`
 *   where chrt is missing or refused), with a V8 heap of `CHILD_HEAP_MB` (a job that needs
 *   more dies of heap exhaustion → 413) and the launcher's watchdog kills it when its
 *   resident memory passes `CHILD_RSS_LIMIT_MB` (native memory the heap cap does not
 *   count → 413).
 * - A child that crashes or runs past `JOB_LIMIT_MS` (longer in the same measure under the
 *   exam's CPU cap) answers 422 (`READER_FAILED`): nothing was changed.
 * - Children are killed when the server exits, and exit by themselves when the server
 *   dies (the launcher then kills them and exits).
 *
 * The protocol and the limits are in job-protocol.ts. From compiled JavaScript the child
 * runs job-child.js; from TypeScript sources (tests, `npm run dev`) it runs job-child.ts
 * through tsx's loader.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApiError } from '../platform/errors.js';
import { ReaderFailed, TooHeavyToRead } from './errors.js';
import { jobCpuCap, launchJobProcess, type LaunchedChild } from './job-launcher.js';
import { BUSY_RETRY_S, type Lane } from './job-slots.js';
import { CHILD_HEAP_MB, CHILD_NICE, CHILD_RSS_LIMIT_MB, CHILD_SEMI_SPACE_MB, FRAME, FRAME_HEADER, JOB_LIMIT_MS, WATCH_EVERY_MS, type Reply, type TakeRequest, type Taken } from './job-protocol.js';

/**
 * Command line of a child: node, its memory flags, the entry (through tsx from sources),
 * then the files of the jobs the program adds (`jobModules`, absolute paths; job-child.ts
 * imports them when a job names one of their ops).
 */
function childArgs(jobModules: readonly string[]): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./job-child.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  // --expose-gc: job-child.ts collects after each job
  const flags = [`--max-old-space-size=${CHILD_HEAP_MB}`, `--max-semi-space-size=${CHILD_SEMI_SPACE_MB}`, '--expose-gc'];
  if (fromSource) flags.push('--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href);
  return [...flags, entry, ...jobModules];
}

/** Resident memory of a process, MB, from /proc (0 where there is no /proc or it is gone). */
export function residentMB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * One job process: started once (by the launcher, job-launcher.ts), reused job after job
 * until it dies or is retired. `gone` is called once when it dies or is being killed (its
 * pool then starts a fresh child for the next job of the lane).
 */
export class JobChild {
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

  constructor(
    readonly lane: Lane,
    jobModules: readonly string[],
    private readonly gone: (child: JobChild) => void,
  ) {
    // the launcher runs it under SCHED_IDLE (nice CHILD_NICE without chrt) and kills it past CHILD_RSS_LIMIT_MB
    this.proc = launchJobProcess({ args: childArgs(jobModules), nice: CHILD_NICE, rssLimitMb: CHILD_RSS_LIMIT_MB, watchEveryMs: WATCH_EVERY_MS });
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
    this.gone(this);
  }

  private wakeWriters(): void {
    const ws = [...this.writableWaiters];
    this.writableWaiters.clear();
    for (const w of ws) w();
  }

  /** Ends the child (SIGKILL); `why` decides what a job still in it answers. */
  kill(why: 'time' | 'retired' | 'cancelled'): void {
    this.cause ??= why;
    this.gone(this); // the next job starts a fresh child, not this dying one
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
