/**
 * Online backups of the live database (docs/design.md §11, issue 9): better-sqlite3's backup API
 * copies the database page by page while the server keeps running, into
 * `<DATA_DIR>/backups/hallcbt-YYYYMMDD-HHMMSS.sqlite`, then to `CBT_BACKUP_DIR2` (a USB
 * stick) when set, keeping in each place the newest `CBT_BACKUP_KEEP` plus one per hour
 * for a day and one per day for a week (files.ts, tiered retention).
 *
 * Consistency: the result holds at least everything committed before runBackup() was
 * called. Writes through the server's own connection during the copy are carried into the
 * backup by SQLite; a write from another connection restarts the copy, so after a few
 * restarts the rest is copied in one step (one snapshot, a short pause of the event loop).
 */
import Database from 'better-sqlite3';
import { chmod, copyFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { HallDeps } from '../../hall/deps.js';
import { freeBackupPath, pruneBackups } from './files.js';

/** What runBackup needs: the live connection, settings, a logger and the clock. */
export type BackupDeps = Pick<HallDeps, 'sqlite' | 'config' | 'logger' | 'clock'>;

/** One finished backup. */
export interface BackupResult {
  /** absolute path of the backup in `<DATA_DIR>/backups` */
  file: string;
  bytes: number;
  durationMs: number;
  /** epoch ms the backup started */
  startedAt: number;
  /** path of the copy in CBT_BACKUP_DIR2, or null (not set, or the copy failed) */
  copiedTo: string | null;
  /** why the second copy failed (e.g. the USB stick is not mounted) */
  copyError?: string;
}

/** Pages copied per step: ~1 MB, a few milliseconds each, the event loop runs between steps. */
const PAGES_PER_STEP = 256;
/** Restarts caused by other connections' writes before copying the rest in one step. */
const MAX_RESTARTS = 3;

/** The backup directory inside a data directory. */
export function backupDir(dataDir: string): string {
  return join(resolve(dataDir), 'backups');
}

const chains = new WeakMap<Database.Database, Promise<unknown>>();
const running = new WeakMap<Database.Database, Promise<BackupResult>>();

/** The backup of this connection currently running, if any (for callers who can share it). */
export function backupInFlight(sqlite: Database.Database): Promise<BackupResult> | undefined {
  return running.get(sqlite);
}

/**
 * Takes one online backup now (backups of one connection run one after another).
 * @throws the SQLite or file-system error when the main backup fails (nothing is left
 *   behind but a `.partial` file being removed); a failed second copy is only reported.
 */
export function runBackup(deps: BackupDeps): Promise<BackupResult> {
  const prev = chains.get(deps.sqlite) ?? Promise.resolve();
  const job = prev.catch(() => undefined).then(() => {
    const p = backupOnce(deps);
    running.set(deps.sqlite, p);
    return p.finally(() => {
      if (running.get(deps.sqlite) === p) running.delete(deps.sqlite);
    });
  });
  chains.set(deps.sqlite, job);
  return job;
}

async function backupOnce(deps: BackupDeps): Promise<BackupResult> {
  const { config, clock, logger } = deps;
  const startedAt = clock.now();
  const t0 = performance.now();
  const dir = backupDir(config.DATA_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = freeBackupPath(dir, startedAt);
  const partial = `${file}.partial`;
  let restarts = 0;
  try {
    let lastRemaining = Infinity;
    await deps.sqlite.backup(partial, {
      progress: ({ remainingPages }) => {
        if (remainingPages > lastRemaining) restarts++;
        lastRemaining = remainingPages;
        return restarts >= MAX_RESTARTS ? 0x7fffffff : PAGES_PER_STEP;
      },
    });
    // A self-contained single file: no -wal needed next to it, opens read-only anywhere.
    const copy = new Database(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    await chmod(partial, 0o600);
    await rename(partial, file);
  } catch (err) {
    await unlink(partial).catch(() => undefined);
    throw err;
  }
  const bytes = (await stat(file)).size;
  const result: BackupResult = { file, bytes, durationMs: 0, startedAt, copiedTo: null };

  if (config.CBT_BACKUP_DIR2) {
    const dir2 = resolve(config.CBT_BACKUP_DIR2);
    const target = join(dir2, basename(file));
    try {
      await mkdir(dir2, { recursive: true });
      await copyFile(file, `${target}.partial`);
      await rename(`${target}.partial`, target);
      await pruneBackups(dir2, config.CBT_BACKUP_KEEP, clock.now());
      result.copiedTo = target;
    } catch (err) {
      result.copyError = (err as Error).message;
      await unlink(`${target}.partial`).catch(() => undefined);
      logger.warn('backup.second_copy_failed', { dir: dir2, error: result.copyError });
    }
  }
  const pruned = await pruneBackups(dir, config.CBT_BACKUP_KEEP, clock.now());
  result.durationMs = Math.round(performance.now() - t0);
  logger.info('backup.done', { file: basename(file), bytes, durationMs: result.durationMs, restarts, copiedTo: result.copiedTo, pruned: pruned.length });
  return result;
}
