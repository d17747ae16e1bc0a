/** Commits that do not wait for the disk, and a sync of the WAL off the event loop. */
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type Database from 'better-sqlite3';

/**
 * Runs `fn` with commits that do not wait for the disk (synchronous=NORMAL), then puts
 * the connection's setting back. For writes a power cut may lose for a second without
 * harm — telemetry rows, last-seen times, the heartbeat, all but the last transaction of
 * an answer flush: in WAL mode the next FULL commit's sync covers every frame before it,
 * and a process crash loses nothing either way (the frames are in the OS's cache).
 * Inside a transaction it just runs `fn`: the outer transaction's commit decides.
 */
export function relaxedSync<T>(sqlite: Database.Database, fn: () => T): T {
  // inside a transaction the setting cannot change: the outer commit decides
  if (sqlite.inTransaction || sqlite.pragma('synchronous', { simple: true }) !== 2) return fn();
  sqlite.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    sqlite.pragma('synchronous = FULL');
  }
}

/** One database's WAL syncs: the one under way, and the one queued to begin after it. */
interface WalSyncs {
  running: Promise<void> | null;
  next: Promise<void> | null;
}
const walSyncs = new Map<string, WalSyncs>();
const ignore = () => undefined;

/** One fsync of the WAL file `file` in libuv's thread pool. */
async function fsyncWal(file: string): Promise<void> {
  const fh = await open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

function beginSync(file: string, s: WalSyncs): Promise<void> {
  const p: Promise<void> = fsyncWal(file).finally(() => {
    if (s.running === p) s.running = null;
  });
  s.running = p;
  return p;
}

/**
 * Makes every committed WAL frame of `sqlite`'s database durable: an fsync of its `-wal`
 * file in libuv's thread pool, so the event loop serves other requests meanwhile. After
 * relaxed commits this puts on disk what a FULL commit's own sync would (SQLite syncs
 * exactly the WAL at a FULL commit); frames a checkpoint already moved out of the WAL were
 * synced into the database file by that checkpoint before the WAL could restart.
 * Callers share syncs (a group commit): one that begins after a caller's commit covers it,
 * so while a sync is under way every new caller waits for the single one queued after it
 * (50 starts in flight cost a few fsyncs, not 50; issue 40 §3).
 * @throws the file system's error (the commits stay committed, but not known durable)
 */
export function syncWal(sqlite: Database.Database): Promise<void> {
  const file = walFile(sqlite.name);
  let s = walSyncs.get(file);
  if (!s) walSyncs.set(file, (s = { running: null, next: null }));
  const syncs = s;
  if (!syncs.running) return beginSync(file, syncs);
  // the sync under way may have begun before this caller committed: the next one covers it
  syncs.next ??= syncs.running.then(ignore, ignore).then(() => {
    syncs.next = null;
    return beginSync(file, syncs);
  });
  return syncs.next;
}

/**
 * The same sync as `syncWal`, blocking: for the answer writer thread, whose own event
 * loop has nothing else to do meanwhile. `dbFile` is the database file's path.
 * @throws the file system's error
 */
export function syncWalNow(dbFile: string): void {
  const fd = openSync(walFile(dbFile), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The WAL file SQLite keeps beside database file `dbFile`. */
const walFile = (dbFile: string) => `${dbFile}-wal`;
