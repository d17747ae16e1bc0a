/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the
 * commit that crosses 1,000 WAL pages, on the thread that commits — here the server's
 * only thread — and copying those pages into the database file and syncing it stalled
 * answer saves for tens of milliseconds in the steady-hall benchmark (issue 8: "the
 * flush never blocks the event loop for more than 20 ms"). Instead a worker thread with
 * its own connection runs `PRAGMA wal_checkpoint(PASSIVE)` every `everyMs`; PASSIVE never
 * waits for, nor blocks, the server's readers and writers. Durability is unchanged: a
 * commit is durable once its WAL frames are synced (synchronous=FULL), checkpoint or not.
 *
 * If the worker fails, the server's connection takes automatic checkpoints back, so the
 * WAL never grows without bound.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../platform/logger.js';
import type { Sqlite } from './index.js';

/** What the worker reports after each checkpoint (SQLite's wal_checkpoint row). */
export interface CheckpointResult {
  busy: number;
  /** frames in the WAL */
  log: number;
  /** frames copied into the database file */
  checkpointed: number;
}

export interface Checkpointer {
  /** the last checkpoint's figures (for /health) */
  readonly last: CheckpointResult | null;
  /** Stops the worker (its connection closes); automatic checkpoints resume. */
  stop(): Promise<void>;
}

// CommonJS, evaluated in the worker: one connection, a checkpoint per message
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 2000');
parentPort.on('message', (m) => {
  if (m === 'stop') { db.close(); parentPort.close(); return; }
  try {
    const r = db.pragma('wal_checkpoint(PASSIVE)')[0];
    parentPort.postMessage({ ok: true, busy: r.busy, log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e) });
  }
});
`;

/**
 * Starts checkpointing `file` (the database `sqlite` has open) every `everyMs`
 * milliseconds from a worker thread, and turns the connection's automatic checkpoints
 * off while the worker runs.
 */
export function startCheckpointer(sqlite: Sqlite, file: string, logger: Logger, everyMs = 1000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver } });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  let last: CheckpointResult | null = null;
  let waiting = false;
  let stopped = false;
  const fallBack = (why: string) => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    try {
      sqlite.pragma('wal_autocheckpoint = 1000');
    } catch {
      /* the connection is already closed */
    }
    logger.warn('checkpoint worker stopped; SQLite checkpoints automatically again', { reason: why });
  };
  worker.on('message', (m: ({ ok: true } & CheckpointResult) | { ok: false; error: string }) => {
    waiting = false;
    if (m.ok) last = { busy: m.busy, log: m.log, checkpointed: m.checkpointed };
    else logger.warn('WAL checkpoint failed', { error: m.error });
  });
  worker.on('error', (e) => fallBack(String(e)));
  worker.on('exit', (code) => fallBack(`exit ${code}`));
  const timer = setInterval(() => {
    if (waiting || stopped) return;
    waiting = true;
    worker.postMessage('checkpoint');
  }, everyMs);
  timer.unref();
  return {
    get last() {
      return last;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await Promise.race([exited, new Promise<void>((r) => setTimeout(r, 2000).unref())]);
      await worker.terminate();
      sqlite.pragma('wal_autocheckpoint = 1000');
    },
  };
}
