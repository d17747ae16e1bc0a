/**
 * Runs heavy jobs — the question engine and the reading of uploads (issue 22 §1:
 * spreadsheets, Word and PowerPoint files, PDFs, text banks, generation material) — in a
 * separate, short-lived child process (job-child.ts) and returns the result; errors
 * thrown there come back as the same ApiError. Why a process and not a worker thread
 * (docs/decisions.md, "Heavy parsing in a child process"): a thread shares the server's
 * process — its priority on the two cores, V8's platform threads, the allocator — so its
 * CPU and memory were the hall's; a nice-10 process with its own heap is not.
 *
 * - One job at a time: later jobs wait in a queue of `MAX_WAITING`, beyond it 503 with
 *   Retry-After.
 * - The child runs at nice `CHILD_NICE`, with a V8 heap of `CHILD_HEAP_MB` (a job that
 *   needs more dies of heap exhaustion → 413) and a watchdog that kills it when its
 *   resident memory passes `CHILD_RSS_LIMIT_MB` (native memory the heap cap does not
 *   count → 413).
 * - A child that crashes or runs past `JOB_LIMIT_MS` answers 422 (`READER_FAILED`):
 *   nothing was changed, and the next job starts a fresh child.
 * - Children are killed when the server exits, and exit by themselves when the server
 *   dies (their IPC channel closes).
 * From compiled JavaScript the child runs job-child.js; from TypeScript sources (tests,
 * `npm run dev`) it runs job-child.ts through tsx's loader.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApiError } from '../../platform/errors.js';
import type { EngineResult, GenerateOptions } from '../../core/generation/engine/extractive.js';
import type { Passage } from '../../core/generation/passage.js';
import type { UploadJob } from '../imports/upload-jobs.js';
import type { MaterialInput } from './material/read-material.js';

/** A job for the child process. */
export type EngineJob =
  | { op: 'generate'; passages: Passage[]; options: GenerateOptions }
  | { op: 'select'; passages: Passage[]; budget: number }
  | { op: 'read-material'; input: MaterialInput }
  | UploadJob;

type Reply = { ok: true; result: unknown } | { ok: false; error: { status?: number; slug?: string; title?: string; detail: string; extra?: Record<string, unknown>; headers?: Record<string, string> } };

/** Longest a job may run before its child is killed. */
const JOB_LIMIT_MS = 5 * 60_000;
/** V8 old-generation heap of the child, MB (`--max-old-space-size`; plus 8 MB semi-spaces). */
export const CHILD_HEAP_MB = 160;
/** The child's resident memory at which the watchdog kills it, MB (heap, code, buffers: all of it). */
export const CHILD_RSS_LIMIT_MB = 320;
/** How often the watchdog reads the child's resident memory, ms. */
const WATCH_EVERY_MS = 20;
/** The child's nice value: the hall's answer traffic (nice 0) comes first on the two cores. */
export const CHILD_NICE = 10;
/** Jobs that may wait for the running one; more at once → 503. */
export const MAX_WAITING = 4;
/** Retry-After of that 503, seconds. */
const BUSY_RETRY_S = 5;

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

const live = new Set<ChildProcess>();
let exitHook = false;

/** Command line of a child: node, its memory flags, and the entry (through tsx from sources). */
function childArgs(): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./job-child.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const flags = [`--max-old-space-size=${CHILD_HEAP_MB}`, '--max-semi-space-size=8'];
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

/** Takes every byte array out of `job` (replaced by `{$bytes: i}`), for the child's stdin. */
function detach(value: unknown, arrays: Uint8Array[]): unknown {
  if (value instanceof Uint8Array) return { $bytes: arrays.push(value) - 1 };
  if (Array.isArray(value)) return value.map((v) => detach(v, arrays));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, detach(v, arrays)]));
  return value;
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

function runInChild<T>(job: EngineJob): Promise<T> {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => live.forEach((c) => c.kill('SIGKILL')));
  }
  return new Promise<T>((resolve, reject) => {
    const arrays: Uint8Array[] = [];
    const header = detach(job, arrays);
    const child = spawn(process.execPath, childArgs(), { stdio: ['pipe', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    live.add(child);
    let stderrTail = '';
    let cause: 'memory' | 'time' | null = null;
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watchdog);
      fn();
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      cause = 'time';
      child.kill('SIGKILL');
    }, JOB_LIMIT_MS);
    const watchdog = setInterval(() => {
      if (child.pid && residentMB(child.pid) > CHILD_RSS_LIMIT_MB) {
        cause = 'memory';
        child.kill('SIGKILL');
      }
    }, WATCH_EVERY_MS);
    try {
      if (child.pid) setPriority(child.pid, CHILD_NICE);
    } catch {
      /* the child may already be gone; its exit answers */
    }
    child.stderr!.on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-4096)));
    child.stdin!.on('error', () => {}); // a child that died early closes its stdin (EPIPE); its exit answers
    child.on('message', (reply: Reply | { ready: true }) => {
      if ('ready' in reply) {
        // the child listens now: the job over IPC, its bytes through stdin
        child.send({ job: header, lengths: arrays.map((a) => a.length) });
        for (const a of arrays) child.stdin!.write(a);
        child.stdin!.end();
        return;
      }
      done(() => {
        if (reply.ok) return resolve(reply.result as T);
        const e = reply.error;
        reject(e.status ? new ApiError(e.status, e.slug!, e.title!, e.detail, e.extra, e.headers) : new ReaderFailed(`the reader reported an error (${e.detail})`));
      });
    });
    // a child that could not start has no pid; any other error (a message to a child that
    // just died: EPIPE) is answered by its exit
    child.on('error', (err) => {
      if (child.pid !== undefined) return;
      done(() => reject(new ApiError(503, 'reader-unavailable', 'Cannot read uploads now', `The server could not start the process that reads uploads (${err.message}); try again shortly.`, { code: 'READER_UNAVAILABLE', retryAfterSeconds: BUSY_RETRY_S }, { 'Retry-After': String(BUSY_RETRY_S) })));
    });
    child.on('exit', (code, signal) => {
      live.delete(child);
      done(() => {
        if (cause === 'memory' || /heap out of memory|Allocation failed/i.test(stderrTail)) return reject(new TooHeavyToRead());
        if (cause === 'time') return reject(new ReaderFailed(`it took longer than ${JOB_LIMIT_MS / 60_000} minutes`));
        reject(new ReaderFailed(`the reader process ended unexpectedly (${signal ?? `exit code ${code}`})`));
      });
    });
  });
}

/**
 * Runs `job` in a child process, after the jobs before it. Byte arrays in the job go to the
 * child through a pipe (not copied here).
 * @throws the job's ApiError; TooHeavyToRead (413) when the child ran out of heap or past
 *   its memory limit; ReaderFailed (422) when it crashed or exceeded five minutes; 503 when
 *   MAX_WAITING jobs already wait or no child could be started.
 */
export async function runEngineJob<T>(job: EngineJob): Promise<T> {
  const release = await takeSlot();
  try {
    return await runInChild<T>(job);
  } finally {
    release();
  }
}

/** generateExtractive in the child process. */
export function generateInChild(passages: Passage[], options: GenerateOptions): Promise<EngineResult> {
  return runEngineJob<EngineResult>({ op: 'generate', passages, options });
}
