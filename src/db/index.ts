/**
 * Opens the SQLite database (WAL, foreign keys, busy timeout, synchronous per config)
 * and applies the drizzle-kit migrations in `drizzle/` before the server listens. The
 * hall reaches SQLite one way: better-sqlite3 statements through the cached `prepare`
 * below, typed by src/db/rows.ts; drizzle only runs the migrations (docs/decisions.md,
 * "One way to reach SQLite (issue 35)").
 * synchronous=FULL is the default: the answer flush's commit is what `durableSeq`
 * promises, and FULL makes that commit survive a power cut, not just a crash (docs/design.md §7).
 */
import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { relaxedSync, syncWal } from './relaxed-sync.js';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export type Sqlite = Database.Database;

/** Location of the migrations folder (project root/drizzle), from src or dist. */
export const MIGRATIONS_DIR = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../drizzle' : '../../drizzle', import.meta.url));

export interface OpenedDb {
  sqlite: Sqlite;
}

/**
 * Opens `file` (":memory:" allowed), sets pragmas and migrates.
 * @param synchronous 'FULL' (power-cut safe) or 'NORMAL'
 */
export function openDatabase(file: string, synchronous: 'FULL' | 'NORMAL' = 'FULL'): OpenedDb {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('temp_store = MEMORY');
  // 4 MiB of page cache (default 2 MiB). More does not pay: the answer writer thread's
  // commits (its own connection) reset this connection's cache every second in a hall,
  // and a miss is served by the OS page cache; 16 MiB per connection cost ~25 MB of RSS
  // against issue 8's 300 MB budget with no measurable gain in flush time
  sqlite.pragma('cache_size = -4096');
  // drizzle's migrator runs first, on the plain connection: it switches a statement to raw
  // mode, which the statement cache must never hand out
  migrate(drizzle(sqlite), { migrationsFolder: MIGRATIONS_DIR });
  cacheStatements(sqlite);
  immediateTransactions(sqlite);
  return { sqlite };
}

/**
 * Makes `sqlite.prepare(sql)` return the statement already prepared for the same SQL
 * text (an LRU of 1,000). Services write `sqlite.prepare('…').run(…)` inline; compiling
 * the SQL again on every request cost more than running it (issue 8 profile of the start
 * and submit surges). Safe because no code here changes a statement's mode (pluck, raw,
 * expand) or keeps an iterator open across calls.
 */
function cacheStatements(sqlite: Sqlite): void {
  const plain = sqlite.prepare.bind(sqlite);
  const cache = new LRUCache<string, Database.Statement>({ max: 1000 });
  sqlite.prepare = ((sql: string) => {
    let st = cache.get(sql);
    if (!st) {
      st = plain(sql);
      if (!st.readonly) handOffWrites(sqlite, st);
      cache.set(sql, st);
    }
    return st;
  }) as Sqlite['prepare'];
}

/**
 * How a second writer on the same file (the answer writer thread) shares SQLite's one
 * write lock with this connection: `enter()` before this connection takes the lock, and
 * `leave()` after it let go, so the other writer pauses between its transactions instead
 * of starving this one (whose busy handler only retries now and then, while the other
 * could take the lock back within microseconds).
 */
export interface WriteHandoff {
  enter(): void;
  leave(): void;
  /**
   * Resolves once the other writer is between transactions and paused (without blocking
   * the event loop while it finishes one); call the returned function after writing.
   */
  turn?(): Promise<() => void>;
}

const handoffs = new WeakMap<Sqlite, WriteHandoff>();

/** Installs (or, with null, removes) the handoff of a second writer on `sqlite`. */
export function setWriteHandoff(sqlite: Sqlite, handoff: WriteHandoff | null): void {
  if (handoff) handoffs.set(sqlite, handoff);
  else handoffs.delete(sqlite);
}

/**
 * Runs `fn` — synchronous writes on the server's connection, for a request handler that
 * writes (start, telemetry, submit) — once the answer writer thread has given its turn
 * (between its transactions, paused): awaited, so other requests run meanwhile, instead
 * of blocking until its COMMIT as a plain write would (see `announced`). `fn` commits
 * with whatever sync it chooses (telemetry: relaxed, and synced after a disqualification).
 * Inside a transaction it just runs `fn` (the outer commit decides).
 * @returns what `fn` returns; throws what it throws
 */
export async function afterWriteTurn<T>(sqlite: Sqlite, fn: () => T): Promise<T> {
  if (sqlite.inTransaction) return fn();
  const turn = handoffs.get(sqlite)?.turn;
  const release = turn ? await turn() : null;
  try {
    return fn();
  } finally {
    release?.();
  }
}

/**
 * `afterWriteTurn`, durable when it resolves: on a synchronous=FULL connection `fn`'s
 * commits are relaxed and the WAL is then fsynced in the thread pool (`syncWal`), awaited
 * before this resolves — as durable as FULL commits, without an fsync on the event loop
 * (one took ~50 ms now and then in the start surge of issue 8's benchmark). Start and
 * submit write through it.
 * @returns what `fn` returns; throws what it throws (after syncing what it committed)
 */
export async function withWriteTurn<T>(sqlite: Sqlite, fn: () => T): Promise<T> {
  if (sqlite.inTransaction) return fn();
  let full = false;
  try {
    return await afterWriteTurn(sqlite, () => {
      full = sqlite.pragma('synchronous', { simple: true }) === 2;
      return full ? relaxedSync(sqlite, fn) : fn();
    });
  } finally {
    if (full) await syncWal(sqlite);
  }
}

/** Runs `fn` (which takes the write lock) announced to the handoff, unless inside a transaction (announced already). */
function announced<T>(sqlite: Sqlite, fn: () => T): T {
  const h = handoffs.get(sqlite);
  if (!h || sqlite.inTransaction) return fn();
  h.enter();
  try {
    return fn();
  } finally {
    h.leave();
  }
}

/** A writing statement run outside a transaction is announced too (heartbeat, watermarks). */
function handOffWrites(sqlite: Sqlite, st: Database.Statement): void {
  const run = st.run.bind(st);
  const get = st.get.bind(st);
  st.run = ((...args: unknown[]) => announced(sqlite, () => run(...args))) as typeof st.run;
  st.get = ((...args: unknown[]) => announced(sqlite, () => get(...args))) as typeof st.get;
}

/**
 * Makes every transaction on this connection begin IMMEDIATE (take the write lock at
 * BEGIN), whether it is called plainly or through `.deferred`. The
 * answer writer thread commits on its own connection at any moment; a DEFERRED
 * transaction that read before that commit and writes after it fails at once with
 * SQLITE_BUSY_SNAPSHOT (the busy timeout does not retry it), whereas BEGIN IMMEDIATE
 * waits for the lock under the busy timeout. A nested call is a savepoint, as before.
 * The outermost one is announced to the write handoff (see `WriteHandoff`).
 */
function immediateTransactions(sqlite: Sqlite): void {
  const plain = sqlite.transaction.bind(sqlite);
  sqlite.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = plain(fn);
    const run = ((...args: unknown[]) => announced(sqlite, () => tx.immediate(...args))) as typeof tx;
    return Object.assign((...args: unknown[]) => run(...args), { deferred: run, immediate: run, exclusive: tx.exclusive, default: run, database: sqlite });
  }) as Sqlite['transaction'];
}

/** Path of the database file inside a data directory. */
export function databasePath(dataDir: string): string {
  return join(dataDir, 'hallcbt.sqlite');
}
export { relaxedSync, syncWal } from './relaxed-sync.js';
