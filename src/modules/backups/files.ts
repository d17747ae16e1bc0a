/**
 * Backup files on disk (DESIGN §11): their names, listing and pruning.
 * A backup is one self-contained SQLite file named `hallcbt-YYYYMMDD-HHMMSS.sqlite`
 * (UTC, so names sort in time order), with `-N` appended when two fall in the same
 * second. scripts/backup writes the same names, so both kinds are listed and pruned together.
 */
import { existsSync } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Matches a backup file name; groups: date, time, optional same-second counter. */
export const BACKUP_NAME = /^hallcbt-(\d{8})-(\d{6})(?:-(\d+))?\.sqlite$/;

/** One backup file as listed. */
export interface BackupFile {
  /** file name, e.g. `hallcbt-20250301-101500.sqlite` */
  file: string;
  /** absolute path */
  path: string;
  bytes: number;
  /** ISO 8601 UTC time the backup started (from its name) */
  createdAt: string;
}

/** epoch ms → `YYYYMMDD-HHMMSS` in UTC. */
export function backupStamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

/** A path in `dir` for a backup started at `ms` that does not exist yet. */
export function freeBackupPath(dir: string, ms: number): string {
  const base = `hallcbt-${backupStamp(ms)}`;
  for (let n = 0; ; n++) {
    const path = join(dir, n === 0 ? `${base}.sqlite` : `${base}-${n}.sqlite`);
    if (!existsSync(path) && !existsSync(`${path}.partial`)) return path;
  }
}

/** Sort key: time, then the same-second counter. */
function orderKey(name: string): string {
  const m = BACKUP_NAME.exec(name)!;
  return `${m[1]}${m[2]}${(m[3] ?? '0').padStart(6, '0')}`;
}

/** `YYYYMMDD`,`HHMMSS` → ISO 8601 UTC. */
function nameToIso(date: string, time: string): string {
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}.000Z`;
}

/** Backup names in `dir`, oldest first; [] when the directory does not exist. */
async function backupNames(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names.filter((n) => BACKUP_NAME.test(n)).sort((a, b) => orderKey(a).localeCompare(orderKey(b)));
}

/** The backups in `dir`, newest first. */
export async function listBackupFiles(dir: string): Promise<BackupFile[]> {
  const out: BackupFile[] = [];
  for (const file of (await backupNames(dir)).reverse()) {
    const m = BACKUP_NAME.exec(file)!;
    const path = join(dir, file);
    try {
      out.push({ file, path, bytes: (await stat(path)).size, createdAt: nameToIso(m[1]!, m[2]!) });
    } catch {
      // deleted between readdir and stat (a concurrent prune): not a backup any more
    }
  }
  return out;
}

/** A `.partial` file older than this was left by a backup interrupted by a crash. */
const STALE_PARTIAL_MS = 60 * 60_000;

/**
 * Deletes all but the newest `keep` backups in `dir`, and `.partial` leftovers of
 * interrupted backups that are over an hour old.
 * @returns the deleted backup names, oldest first
 */
export async function pruneBackups(dir: string, keep: number, nowMs = Date.now()): Promise<string[]> {
  const names = await backupNames(dir);
  const gone = names.slice(0, Math.max(0, names.length - keep));
  for (const n of gone) await unlink(join(dir, n)).catch(() => undefined);
  for (const n of (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.sqlite.partial') && BACKUP_NAME.test(f.slice(0, -8)))) {
    const p = join(dir, n);
    const st = await stat(p).catch(() => null);
    if (st && nowMs - st.mtimeMs > STALE_PARTIAL_MS) await unlink(p).catch(() => undefined);
  }
  return gone;
}
