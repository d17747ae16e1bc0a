/**
 * The answer writer thread (started by answer-writer.ts `threadWriter`): its own SQLite
 * connection to the server's database, committing one flush job per message.
 *
 * Its transactions commit relaxed; with synchronous=FULL the job ends with an fsync of
 * the WAL file, outside any transaction (answer-commit.ts). Before each transaction it
 * waits while the server's connection has announced that it wants the write lock
 * (`handoff[0]` > 0, db/index.ts `WriteHandoff`), and while in one it shows so
 * (`handoff[1]` = 1), so the server waits exactly until its COMMIT. A transaction takes
 * chunk after chunk (up to `maxTxRows` rows) only while no server write is announced, so
 * that COMMIT comes at the end of the chunk in progress.
 *
 * workerData: `{file, synchronous: 'FULL' | 'NORMAL', batchRows, maxTxRows, handoff: SharedArrayBuffer}`.
 * Messages in: `{id, part: 'answers' | 'attempts', rows}` (zero or more parts of a job,
 * its flat rows: answer-commit.ts),
 * then `{id, job: FlushJob}` with the rest of it → out `{id, report}` or `{id, error}`;
 * `{close: true}` closes the connection and ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { commitAll, type FlushJob, type JobValue, type TransactionTurn } from './answer-commit.js';
import { syncWalNow } from '../../db/relaxed-sync.js';

const { file, synchronous, batchRows, maxTxRows, handoff } = workerData as { file: string; synchronous: 'FULL' | 'NORMAL'; batchRows: number; maxTxRows: number; handoff: SharedArrayBuffer };
const flags = new Int32Array(handoff);
const sqlite = new Database(file, { fileMustExist: true });
// the same settings as the server's connection (db/index.ts); WAL is a property of the file
sqlite.pragma(`synchronous = ${synchronous}`);
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma('foreign_keys = ON');
// 4 MiB, as the server's (see db/index.ts): a miss is a read from the OS page cache
sqlite.pragma('cache_size = -4096');

/** Makes every committed WAL frame durable (what a FULL commit's sync does), lock-free. */
const syncWal = () => syncWalNow(file);

/**
 * The turn around each transaction (handoff slots: [0] the server's transactions waiting
 * for or holding the write lock, [1] 1 while this thread is in a transaction). Claim,
 * then look: if the server announced itself meanwhile, step back and let it go first —
 * with sequentially consistent atomics on both sides, one of the two always sees the
 * other, so they never both go for the lock. Bounded: this thread never waits on the
 * server for more than 10 s in all.
 */
const turn: TransactionTurn = {
  take() {
    const until = Date.now() + 10_000;
    for (;;) {
      for (let n = Atomics.load(flags, 0); n > 0 && Date.now() < until; n = Atomics.load(flags, 0)) Atomics.wait(flags, 0, n, 50);
      Atomics.store(flags, 1, 1);
      if (Atomics.load(flags, 0) === 0 || Date.now() >= until) return;
      this.give();
    }
  },
  give() {
    Atomics.store(flags, 1, 0);
    Atomics.notify(flags, 1);
  },
  wanted: () => Atomics.load(flags, 0) > 0,
};

/** The parts of the job being received (answer-writer.ts sends a large job in parts). */
let gathering: { id: number; answers: FlushJob['answers']; attempts: FlushJob['attempts'] } | null = null;

parentPort!.on('message', (m: { id: number; job?: FlushJob; part?: 'answers' | 'attempts'; rows?: JobValue[]; close?: boolean }) => {
  if (m.close) {
    sqlite.close();
    parentPort!.close();
    return;
  }
  if (m.part) {
    if (gathering?.id !== m.id) gathering = { id: m.id, answers: [], attempts: [] };
    for (const v of m.rows!) gathering[m.part].push(v);
    return;
  }
  let job = m.job!;
  if (gathering?.id === m.id) {
    job = { answers: gathering.answers.concat(job.answers), attempts: gathering.attempts.concat(job.attempts), at: job.at };
  }
  gathering = null;
  try {
    parentPort!.postMessage({ id: m.id, report: commitAll(sqlite, job, batchRows, synchronous === 'FULL' ? syncWal : undefined, turn, maxTxRows) });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: String(e) });
  }
});
