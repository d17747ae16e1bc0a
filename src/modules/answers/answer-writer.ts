/**
 * Who commits the answer buffer's flush jobs (answer-commit.ts):
 *
 * - `threadWriter(file)` — a worker thread with its own SQLite connection (issue 8,
 *   docs/design.md §7 "or from a worker thread with its own connection"). The upserts, the
 *   watermark and activity updates and the flush's disk sync all run on the second
 *   core; the event loop only takes the snapshot and marks entries clean. If the thread
 *   fails, the writer says so once and commits on the server's connection from then on.
 * - `inProcessWriter(sqlite)` — the same transactions on the server's connection,
 *   yielding to the event loop between them (an in-memory database, and the fallback).
 *
 * A writer runs one job at a time; the buffer never sends a second before the first
 * resolved.
 */
import { Worker } from 'node:worker_threads';
import { setWriteHandoff, type Sqlite } from '../../db/index.js';
import type { Logger } from '../../platform/logger.js';
import { ANSWER_FIELDS, ATTEMPT_FIELDS, commitSteps, type CommitReport, type FlushJob, type JobValue } from './answer-commit.js';

export interface AnswerWriter {
  readonly kind: 'thread' | 'in-process';
  /**
   * Commits the job; resolves once its last (synced) transaction committed.
   * @throws the database error; transactions before it may be committed
   */
  write(job: FlushJob): Promise<CommitReport>;
  /** Waits for the job in progress, then releases the thread (if any). */
  close(): Promise<void>;
}

/** Rows per transaction: ~20–70 µs a row here, so a few milliseconds of write lock each. */
export const BATCH_ROWS = 128;
/**
 * Rows per transaction on the writer thread: the server's connection waits out the
 * thread's current transaction whenever it writes, so the thread keeps them short.
 */
export const THREAD_BATCH_ROWS = 64;
/**
 * Most rows in one transaction of the writer thread: it takes further chunks of
 * THREAD_BATCH_ROWS while the server's connection is not waiting (answer-commit.ts), so
 * a server write still waits for one chunk at most.
 */
export const THREAD_MAX_TX_ROWS = 1024;
/**
 * Rows per message to the writer thread: each message is cloned on the event loop, and a
 * flush of 5,000 answers with 10,000 activity rows cloned as one held it 2–9 ms at a
 * stretch; parts of 1,024 rows take ~0.1–0.2 ms each, one per turn of the loop.
 */
export const PART_ROWS = 1024;
/** Flat rows of `fields` values each cut into pieces of PART_ROWS rows (one empty piece when there are none). */
function inParts(values: JobValue[], fields: number): JobValue[][] {
  const parts: JobValue[][] = [];
  const size = PART_ROWS * fields;
  for (let i = 0; i < values.length; i += size) parts.push(values.slice(i, i + size));
  return parts.length ? parts : [[]];
}
/** `Atomics.waitAsync` (V8, Node ≥ 16), which TypeScript's lib lists only from ES2024. */
const waitAsync = (Atomics as unknown as {
  waitAsync(a: Int32Array, index: number, value: number, timeoutMs: number): { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;
/** Longest the server's connection waits for the thread's COMMIT before trying the lock (SQLite's busy timeout then applies). */
const TURN_WAIT_MS = 200;

/** Resolves on the next turn of the event loop (after pending I/O), so requests get in. */
export const nextTurn = () => new Promise<void>((r) => setImmediate(r));

/** Commits on `sqlite` itself, yielding to the event loop after every transaction. */
export function inProcessWriter(sqlite: Sqlite, batchRows = BATCH_ROWS): AnswerWriter {
  return {
    kind: 'in-process',
    async write(job) {
      const steps = commitSteps(sqlite, job, batchRows);
      for (;;) {
        const r = steps.next();
        if (r.done) return r.value;
        await nextTurn();
      }
    },
    async close() {},
  };
}

/** Where the thread's code is: compiled JavaScript, or TypeScript under tsx (tests, `npm run dev`). */
function spawn(workerData: Record<string, unknown>): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./answer-writer-thread.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData });
  const boot = "import('tsx/esm/api').then(({ register }) => { register(); return import(require('node:worker_threads').workerData.entry); })";
  return new Worker(boot, { eval: true, workerData: { ...workerData, entry: entry.href } });
}

interface Reply {
  id: number;
  report?: CommitReport;
  error?: string;
}

/**
 * A writer thread on database `file` (which must exist and be migrated).
 * @param fallback the server's own connection, used if the thread fails
 * @param synchronous the server's setting, applied to the thread's connection too
 * @param batchRows rows per chunk; @param maxTxRows most rows per transaction (chunks are
 *   added while no server write waits)
 */
export function threadWriter(file: string, fallback: Sqlite, logger: Logger, synchronous: 'FULL' | 'NORMAL' = 'FULL', batchRows = THREAD_BATCH_ROWS, maxTxRows = THREAD_MAX_TX_ROWS): AnswerWriter {
  // [0]: transactions of the server's connection waiting for or holding the write lock;
  // [1]: 1 while the thread is in a transaction (its turn, answer-writer-thread.ts)
  const handoff = new SharedArrayBuffer(8);
  const flags = new Int32Array(handoff);
  const worker = spawn({ file, synchronous, batchRows, maxTxRows, handoff });
  worker.unref();
  // announced: the thread starts no new transaction until `leave`
  const announce = () => Atomics.add(flags, 0, 1);
  const threadInTransaction = () => Atomics.load(flags, 1) === 1;
  const leave = () => {
    Atomics.sub(flags, 0, 1);
    Atomics.notify(flags, 0);
  };
  setWriteHandoff(fallback, {
    enter: () => {
      announce();
      // wait for the end of the thread's current transaction, woken at its COMMIT
      // (SQLite's busy handler would sleep 1, 2, 5, 10 ms… between tries); bounded, with
      // the busy timeout behind it
      if (threadInTransaction()) Atomics.wait(flags, 1, 1, TURN_WAIT_MS);
    },
    leave,
    // the same, with the end of the thread's transaction awaited, not waited for: other
    // requests run meanwhile
    async turn() {
      announce();
      const until = performance.now() + TURN_WAIT_MS;
      while (threadInTransaction() && performance.now() < until) {
        const w = waitAsync(flags, 1, 1, TURN_WAIT_MS);
        if (w.async) await w.value;
      }
      return leave;
    },
  });
  let failed: AnswerWriter | null = null;
  let nextId = 1;
  let pending: { id: number; resolve: (r: CommitReport) => void; reject: (e: Error) => void } | null = null;
  let current: Promise<unknown> = Promise.resolve();
  const fail = (why: string) => {
    if (failed) return;
    failed = inProcessWriter(fallback, batchRows);
    setWriteHandoff(fallback, null);
    logger.error('answer writer thread failed; answers are now written on the main thread', { error: why });
    pending?.reject(new Error(`answer writer thread failed: ${why}`));
    pending = null;
  };
  worker.on('message', (m: Reply) => {
    if (!pending || m.id !== pending.id) return;
    const p = pending;
    pending = null;
    if (m.report) p.resolve(m.report);
    else p.reject(new Error(m.error ?? 'answer writer thread: no report'));
  });
  worker.on('error', (e) => fail(String(e)));
  worker.on('exit', (code) => fail(`exited with code ${code}`));

  /**
   * Sends the job as parts of PART_ROWS rows, one per turn of the event loop (the thread
   * gathers them, answer-writer-thread.ts), then the closing message that commits it. The
   * longest clone is reported as `postMs`. Should the thread fail between parts, the
   * whole job goes to the in-process writer.
   */
  async function postInParts(job: FlushJob): Promise<CommitReport> {
    const id = nextId++;
    let postMs = 0;
    const post = (message: object) => {
      const t = performance.now();
      worker.postMessage(message);
      postMs = Math.max(postMs, performance.now() - t);
    };
    const answers = inParts(job.answers, ANSWER_FIELDS);
    const attempts = inParts(job.attempts, ATTEMPT_FIELDS);
    // every part but each list's last goes ahead; the closing message carries the last ones
    const ahead = [...answers.slice(0, -1).map((rows) => ({ part: 'answers', rows })), ...attempts.slice(0, -1).map((rows) => ({ part: 'attempts', rows }))];
    for (const part of ahead) {
      post({ id, ...part });
      await nextTurn();
      if (failed) return failed.write(job);
    }
    const reply = new Promise<CommitReport>((resolve, reject) => {
      pending = { id, resolve, reject };
      post({ id, job: { answers: answers.at(-1), attempts: attempts.at(-1), at: job.at } });
    });
    // returned, not awaited: this function ends here, so nothing keeps the job's rows
    // (cloned for the thread now) while the thread commits them — they die young
    return reply.then((report) => ({ ...report, postMs }));
  }

  return {
    get kind() {
      return failed ? failed.kind : 'thread';
    },
    write(job) {
      if (failed) return failed.write(job);
      const run = postInParts(job);
      current = run.catch(() => undefined);
      return run;
    },
    async close() {
      await current;
      if (failed) return;
      failed = inProcessWriter(fallback, batchRows);
      setWriteHandoff(fallback, null);
      worker.removeAllListeners('exit');
      worker.postMessage({ id: 0, close: true });
      await new Promise<void>((r) => {
        worker.once('exit', () => r());
        setTimeout(() => {
          void worker.terminate();
          r();
        }, 5000).unref();
      });
    },
  };
}
