/**
 * Backups taken while answers are being written, restored with scripts/restore into a fresh
 * data directory: PRAGMA integrity_check is ok and every answer committed before the backup
 * started is there (issue 9, "Backups"). Writers: the server's own connection (interleaved on
 * the event loop, as the answer flush does) and another process with its own connection.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { databasePath, openDatabase, type OpenedDb } from '../../src/db/index.js';
import { testConfig } from '../../src/platform/config.js';
import { ManualClock } from '../../src/platform/clock.js';
import { silentLogger } from '../../src/platform/logger.js';
import { runBackup } from '../../src/modules/backups/service.js';
import { answerKeys, insertAnswers, runScript, sleep, startWriterProcess, stopProcess, tempDir, removeTempDirs } from './helpers.js';
import type { ChildProcess } from 'node:child_process';

afterAll(removeTempDirs);

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Restores `backup` into a new data directory and returns the opened, checked database. */
async function restoreIntoFreshDir(backup: string): Promise<Database.Database> {
  const target = join(tempDir(), 'data');
  mkdirSync(target);
  const res = await runScript('restore', [backup, '--data-dir', target, '--port', String(await closedPort())]);
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  const restored = new Database(join(target, 'hallcbt.sqlite'), { fileMustExist: true });
  expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
  return restored;
}

let opened: OpenedDb | null = null;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) await stopProcess(c);
  opened?.sqlite.close();
  opened = null;
});

/** Waits until the writer process has committed answers (its start-up takes a moment). */
async function untilWriting(sqlite: Database.Database, attemptId: string): Promise<void> {
  const count = sqlite.prepare('SELECT count(*) FROM answers WHERE attempt_id = ?').pluck();
  for (let i = 0; i < 200 && (count.get(attemptId) as number) < 50; i++) await sleep(50);
  expect(count.get(attemptId)).toBeGreaterThanOrEqual(50);
}

function freshDatabase(): { dataDir: string; dbFile: string; db: OpenedDb } {
  const dataDir = join(tempDir(), 'data');
  mkdirSync(dataDir);
  const dbFile = databasePath(dataDir);
  opened = openDatabase(dbFile);
  insertAnswers(opened.sqlite, 'att_seed', 1, 20_000); // ~7 MB: the copy takes many steps
  opened.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  // From here on, commits stay in the -wal: a backup that copied the main file would lose them.
  opened.sqlite.pragma('wal_autocheckpoint = 0');
  return { dataDir, dbFile, db: opened };
}

describe('backup under load → restore', () => {
  it('runBackup (server connection + another process writing) restores every answer committed before it started', async () => {
    const { dataDir, dbFile, db } = freshDatabase();
    const child = startWriterProcess(dbFile, 'att_child');
    children.push(child);
    await untilWriting(db.sqlite, 'att_child');
    // The server's own writes, interleaved with the backup's steps on the event loop, in
    // batches every few milliseconds as the answer flush does.
    let ownSeq = 1;
    let writing = true;
    const ownWriter = (async () => {
      while (writing) {
        insertAnswers(db.sqlite, 'att_server', ownSeq, 10);
        ownSeq += 10;
        await sleep(3);
      }
    })();
    await sleep(100); // both writers under way

    const before = answerKeys(db.sqlite); // everything committed up to now…
    const backupPromise = runBackup({ sqlite: db.sqlite, config: testConfig({ DATA_DIR: dataDir }), logger: silentLogger, clock: new ManualClock() }); // …then the backup starts
    const result = await backupPromise;
    writing = false;
    await ownWriter;
    await stopProcess(child);

    const after = answerKeys(db.sqlite);
    expect(after.size).toBeGreaterThan(before.size); // writes really happened during the backup
    expect([...before].some((k) => k.startsWith('att_child/'))).toBe(true);
    expect(result.bytes).toBeGreaterThan(5_000_000);
    expect(statSync(result.file).mode & 0o777).toBe(0o600);

    const restored = await restoreIntoFreshDir(result.file);
    const got = answerKeys(restored);
    const missing = [...before].filter((k) => !got.has(k));
    expect(missing).toEqual([]);
    restored.close();
  });

  it('scripts/backup (a separate process) under load restores every answer committed before it started', async () => {
    const { dataDir, dbFile, db } = freshDatabase();
    const child = startWriterProcess(dbFile, 'att_child');
    children.push(child);
    await untilWriting(db.sqlite, 'att_child');
    const before = answerKeys(db.sqlite);
    const res = await runScript('backup', ['--data-dir', dataDir]);
    await stopProcess(child);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const info = JSON.parse(res.stdout) as { file: string; bytes: number };
    expect(info.file).toMatch(/\/backups\/hallcbt-\d{8}-\d{6}\.sqlite$/);
    expect(answerKeys(db.sqlite).size).toBeGreaterThan(before.size);

    const restored = await restoreIntoFreshDir(info.file);
    const got = answerKeys(restored);
    expect([...before].filter((k) => !got.has(k))).toEqual([]);
    restored.close();
  });
});
