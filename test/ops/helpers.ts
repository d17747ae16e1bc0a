/**
 * Shared pieces of the operations tests: running the scripts in scripts/ as real
 * processes, a writer process hammering the database through its own connection, and
 * reading answers back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<name> ...args` to completion (settings file disabled unless given in env). */
export function runScript(name: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const base: Record<string, string | undefined> = { ...process.env, HALLCBT_ENV_FILE: '/dev/null' };
    for (const k of ['DATA_DIR', 'PORT', 'HOST', 'CBT_BACKUP_DIR2', 'CBT_BACKUP_KEEP']) delete base[k];
    const child = spawn(join(REPO, 'scripts', name), args, {
      cwd: REPO,
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

const made: string[] = [];

/** A fresh temp directory, removed by removeTempDirs(). */
export function tempDir(prefix = 'hallcbt-ops-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory tempDir() made in this test file (call from afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Starts another process that inserts answers of attempt `attemptId` (seq 1, 2, …) into
 * `dbFile` in small transactions through its own connection, as the server's flush (or a
 * second server) would: 5 rows per transaction, one transaction per timer turn (~1 ms), so
 * ~5,000 rows a second — many times a hall's save rate. (Unthrottled, on a machine with a
 * fast disk, it committed ~130,000 rows a second and grew the -wal to 3.8 GB within the
 * test, starving the server connection's writes past their 5 s busy timeout.) Its commits
 * stay in the -wal file (no automatic checkpoint), so only a backup that reads through
 * SQLite sees them. Stops on SIGTERM, or by itself after `maxMs`.
 */
export function startWriterProcess(dbFile: string, attemptId: string, maxMs = 20_000): ChildProcess {
  const code = `
    import Database from 'better-sqlite3';
    const db = new Database(${JSON.stringify(dbFile)});
    db.pragma('busy_timeout = 5000');
    db.pragma('wal_autocheckpoint = 0'); // new answers live only in the -wal: a plain file copy would miss them
    const ins = db.prepare("INSERT INTO answers (attempt_id, question_id, option_id, text, seq, updated_at) VALUES (?, ?, NULL, ?, ?, ?)");
    const batch = db.transaction((from) => { for (let i = from; i < from + 5; i++) ins.run(${JSON.stringify(attemptId)}, 'q_' + i, 'w'.repeat(300), i, Date.now()); });
    let seq = 1, stop = false;
    process.on('SIGTERM', () => { stop = true; });
    const until = Date.now() + ${maxMs};
    const tick = () => { if (stop || Date.now() > until) { db.close(); process.exit(0); } batch(seq); seq += 5; setTimeout(tick, 1); };
    tick();
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Stops a writer process and waits for it to exit. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** Inserts `n` answers of `attemptId` starting at seq `from`, in one transaction. */
export function insertAnswers(sqlite: Database.Database, attemptId: string, from: number, n: number, textBytes = 300): void {
  const ins = sqlite.prepare('INSERT INTO answers (attempt_id, question_id, option_id, text, seq, updated_at) VALUES (?, ?, NULL, ?, ?, ?)');
  sqlite.transaction(() => {
    for (let i = from; i < from + n; i++) ins.run(attemptId, `q_${i}`, 'a'.repeat(textBytes), i, Date.now());
  })();
}

/** Every answer as `attemptId/questionId#seq`. */
export function answerKeys(sqlite: Database.Database): Set<string> {
  const rows = sqlite.prepare('SELECT attempt_id AS a, question_id AS q, seq AS s FROM answers').all() as { a: string; q: string; s: number }[];
  return new Set(rows.map((r) => `${r.a}/${r.q}#${r.s}`));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
