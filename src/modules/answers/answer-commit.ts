/**
 * The SQL of one answer flush (docs/design.md §7), shared by the writer thread and the
 * in-process writer (answer-writer.ts). A flush job is plain data — it crosses a thread
 * boundary by structured clone — and is committed as a sequence of bounded transactions:
 *
 *   1. the answers, ≤ `batchRows` per transaction (upsert; a higher seq wins);
 *   2. one UPDATE per attempt: its durability watermark (guarded, see `ATTEMPT_FIELDS`)
 *      and its last-seen / last-saved times, ≤ `batchRows` per transaction;
 *   3. a marker row (`system_state.last_flush`);
 *
 * and one disk sync at the end. Transactions 1–2 commit without waiting for the disk; the
 * sync puts all of them on disk at once (WAL frames are synced in order, and recovery
 * keeps a prefix of the commits, so no watermark can survive a power cut without the
 * answers before it). The sync is either the marker's own commit (synchronous=FULL) or,
 * on the writer thread, an fsync of the WAL file after a relaxed marker commit — so the
 * sync does not hold SQLite's write lock, which the server's connection may be waiting
 * for. The caller marks answers durable only after the whole job resolved.
 */
import type Database from 'better-sqlite3';
import type { Sqlite } from '../../db/index.js';
import { relaxedSync } from '../../db/relaxed-sync.js';

/** One value of a flush job's rows. */
export type JobValue = string | number | null;
/**
 * Values per answer in `FlushJob.answers`: attemptId, questionId, optionId (or null),
 * text (or null), seq, updatedAt (epoch ms).
 */
export const ANSWER_FIELDS = 6;
/**
 * Values per attempt in `FlushJob.attempts`: attemptId, base, watermark, lastSeenAt,
 * lastSavedAt. `watermark` (-1: none) is stored only if the stored value is still at
 * least `base` (the buffer's watermark when it took the job): a buffer that lowered the
 * stored watermark meanwhile (an answer replayed after a seal, below it) must not see it
 * raised again by a job computed before that; such a row is reported as skipped. The
 * times are epoch ms; a null time leaves the stored one.
 */
export const ATTEMPT_FIELDS = 5;

/**
 * A flush job. Its rows are flat — one array per kind, the fields of one row after
 * another — not an array per row: a hall of 10,000 flushes 5,000 answers and 10,000
 * attempt rows a second, and rows that live while the job is built and posted (~0.1 s
 * under that load) were promoted to the old generation with every flush (issue 8, GC).
 */
export interface FlushJob {
  /** ANSWER_FIELDS values per answer */
  answers: JobValue[];
  /** ATTEMPT_FIELDS values per attempt */
  attempts: JobValue[];
  /** epoch ms written as the flush marker */
  at: number;
}

export interface CommitReport {
  /** transactions committed */
  batches: number;
  /** longest single transaction, ms (on the thread that ran it) */
  maxBatchMs: number;
  /** attempts whose watermark row was skipped by its guard (or found already higher) */
  skipped: string[];
  /** longest single message of the job to the writer thread, ms on the event loop (thread writer only) */
  postMs?: number;
}

/** The prepared statements of a flush job on one connection (upsert also serves the buffer's own writes). */
export interface Statements {
  upsert: Database.Statement<unknown[]>;
  attempt: Database.Statement<unknown[]>;
  marker: Database.Statement<unknown[]>;
}

const prepared = new WeakMap<Sqlite, Statements>();

/** The job's statements on `sqlite`, prepared once per connection (the buffer's own writes reuse the upsert). */
export function commitStatements(sqlite: Sqlite): Statements {
  let s = prepared.get(sqlite);
  if (!s) {
    s = {
      upsert: sqlite.prepare(
        `INSERT INTO answers (attempt_id, question_id, option_id, text, seq, updated_at) VALUES (?,?,?,?,?,?)
         ON CONFLICT (attempt_id, question_id) DO UPDATE SET option_id = excluded.option_id, text = excluded.text, seq = excluded.seq, updated_at = excluded.updated_at
         WHERE excluded.seq > answers.seq`,
      ),
      attempt: sqlite.prepare(
        `UPDATE attempts SET durable_seq = CASE WHEN durable_seq < ? AND durable_seq >= ? THEN ? ELSE durable_seq END,
         last_seen_at = coalesce(?, last_seen_at), last_saved_at = coalesce(?, last_saved_at) WHERE id = ? RETURNING durable_seq AS w`,
      ),
      marker: sqlite.prepare("INSERT INTO system_state (key, value) VALUES ('last_flush', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
    };
    prepared.set(sqlite, s);
  }
  return s;
}

/**
 * What a writer on a second connection does around each of its transactions, so the
 * server's connection can have SQLite's write lock between them (answer-writer-thread.ts).
 */
export interface TransactionTurn {
  /** before BEGIN: waits while the server's connection wants the lock, then claims the turn */
  take(): void;
  /** after COMMIT (or ROLLBACK): releases the turn and wakes a server waiting for it */
  give(): void;
  /** whether the server's connection is waiting for the lock now (checked between chunks) */
  wanted(): boolean;
}

/**
 * Commits `job` on `sqlite`, yielding after every transaction so an event-loop caller can
 * let requests in between (a thread of its own just runs it through). The rows go in
 * chunks of `batchRows`; a transaction takes further chunks, up to `maxRows` rows, while
 * `turn` says the server's connection is not waiting (none without a turn, unless
 * `maxRows` allows): a writer thread commits a hall's flush in ~11 transactions instead
 * of ~160 (5,000 answers and 5,000 attempt rows: ~160 -> ~126 ms, flush-job.mjs), and a
 * server write still waits for one chunk at most. Each relaxed transaction runs under
 * `relaxedSync`; the marker's commit uses the connection's own
 * setting (FULL: it syncs the WAL, and with it every transaction before it) — unless
 * `syncWal` is given: then the marker commits relaxed too and `syncWal()` (an fsync of
 * the WAL file, outside any transaction) is the job's sync.
 * @param turn taken around each transaction (a writer thread's); none in-process
 * @param maxRows most rows in one transaction (default `batchRows`: one chunk each)
 * @returns (when exhausted) the report
 * @throws SqliteError from any statement; transactions already committed stay
 *   committed (the caller keeps the answers dirty and writes them again)
 */
export function* commitSteps(sqlite: Sqlite, job: FlushJob, batchRows: number, syncWal?: () => void, turn?: TransactionTurn, maxRows = batchRows): Generator<void, CommitReport> {
  const st = commitStatements(sqlite);
  const report: CommitReport = { batches: 0, maxBatchMs: 0, skipped: [] };
  const run = (fn: () => void) => {
    turn?.take();
    const t0 = performance.now();
    try {
      sqlite.transaction(fn)();
    } finally {
      turn?.give();
    }
    const ms = performance.now() - t0;
    report.batches++;
    if (ms > report.maxBatchMs) report.maxBatchMs = ms;
  };
  /** chunks of batchRows rows of `values` (`fields` per row); `each` gets a row's first index */
  const chunks = (values: JobValue[], fields: number, each: (i: number) => void) => {
    const out: { rows: number; write: () => void }[] = [];
    const rows = values.length / fields;
    for (let r = 0; r < rows; r += batchRows) {
      const end = Math.min(r + batchRows, rows);
      out.push({
        rows: end - r,
        write() {
          for (let j = r; j < end; j++) each(j * fields);
        },
      });
    }
    return out;
  };
  const a = job.answers;
  const u = job.attempts;
  const relaxed = [
    ...chunks(a, ANSWER_FIELDS, (i) => st.upsert.run(a[i], a[i + 1], a[i + 2], a[i + 3], a[i + 4], a[i + 5])),
    ...chunks(u, ATTEMPT_FIELDS, (i) => {
      const w = u[i + 2] as number;
      const r = st.attempt.get(w, u[i + 1], w, u[i + 3], u[i + 4], u[i]) as { w: number } | undefined;
      if (w >= 0 && (r?.w ?? -1) < w) report.skipped.push(u[i] as string);
    }),
  ];
  for (let next = 0; next < relaxed.length; ) {
    const tx = () => {
      let rows = 0;
      do {
        const chunk = relaxed[next++]!;
        chunk.write();
        rows += chunk.rows;
      } while (next < relaxed.length && rows + relaxed[next]!.rows <= maxRows && !turn?.wanted());
    };
    // per transaction, never across a yield: on the server's own connection another
    // request's commit may run in between, and it must keep its configured sync
    relaxedSync(sqlite, () => run(tx));
    yield;
  }
  if (!syncWal) {
    run(() => st.marker.run(String(job.at)));
    return report;
  }
  relaxedSync(sqlite, () => run(() => st.marker.run(String(job.at))));
  syncWal();
  return report;
}

/**
 * Runs commitSteps to the end at once (the writer thread, or a synchronous caller),
 * taking `turn` around every transaction (see TransactionTurn).
 */
export function commitAll(sqlite: Sqlite, job: FlushJob, batchRows: number, syncWal?: () => void, turn?: TransactionTurn, maxRows = batchRows): CommitReport {
  const steps = commitSteps(sqlite, job, batchRows, syncWal, turn, maxRows);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
