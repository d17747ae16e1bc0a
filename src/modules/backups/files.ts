/**
 * Backup files on disk (docs/design.md §11): their names, listing and pruning.
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

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** The tiers kept besides the newest `keep` (docs/design.md §11), as the API describes them. */
export const RETENTION = 'the newest CBT_BACKUP_KEEP backups, and besides them the first backup of each hour of the last 24 hours and the first of each day (UTC) of the last 7 days';

/** Backup file name → epoch ms of its start (from the name). */
function nameMs(name: string): number {
  const m = BACKUP_NAME.exec(name)!;
  return Date.parse(nameToIso(m[1]!, m[2]!));
}

/**
 * Tiered retention (docs/design.md §11, issue 22 part 2): the names to keep of `names` (oldest
 * first) — the newest `keep`, plus the first backup of each UTC hour within 24 hours of
 * `nowMs` and the first of each UTC day within 7 days. Because a tier keeps the *first*
 * backup of its hour or day, a burst of backups only adds newer ones and can never
 * push an hour's or a day's backup out.
 */
export function backupsToKeep(names: string[], keep: number, nowMs: number): Set<string> {
  const kept = new Set(names.slice(Math.max(0, names.length - keep)));
  const firstOf = new Map<string, string>();
  for (const n of names) {
    const ms = nameMs(n);
    const age = nowMs - ms;
    if (age <= 24 * HOUR) {
      const hour = `h${Math.floor(ms / HOUR)}`;
      if (!firstOf.has(hour)) firstOf.set(hour, n);
    }
    if (age <= 7 * DAY) {
      const day = `d${Math.floor(ms / DAY)}`;
      if (!firstOf.has(day)) firstOf.set(day, n);
    }
  }
  for (const n of firstOf.values()) kept.add(n);
  return kept;
}

/**
 * Deletes the backups in `dir` that tiered retention does not keep (backupsToKeep), and
 * `.partial` leftovers of interrupted backups that are over an hour old.
 * @returns the deleted backup names, oldest first
 */
export async function pruneBackups(dir: string, keep: number, nowMs = Date.now()): Promise<string[]> {
  const names = await backupNames(dir);
  const kept = backupsToKeep(names, keep, nowMs);
  const gone = names.filter((n) => !kept.has(n));
  for (const n of gone) await unlink(join(dir, n)).catch(() => undefined);
  for (const n of (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.sqlite.partial') && BACKUP_NAME.test(f.slice(0, -8)))) {
    const p = join(dir, n);
    const st = await stat(p).catch(() => null);
    if (st && nowMs - st.mtimeMs > STALE_PARTIAL_MS) await unlink(p).catch(() => undefined);
  }
  return gone;
}
