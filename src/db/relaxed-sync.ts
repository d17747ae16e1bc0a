/** Commits that do not wait for the disk, for writes a power cut may lose without harm. */
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
