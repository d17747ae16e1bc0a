/**
 * The backups module on a real SQLite file: names, keeping the newest CBT_BACKUP_KEEP, the
 * second copy (USB stick) and what happens when it is missing, concurrent requests, and the
 * schedule (every CBT_BACKUP_INTERVAL_MINS minutes; 0 turns it off).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import cron from 'node-cron';
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { databasePath, openDatabase, type OpenedDb } from '../../src/db/index.js';
import { testConfig, type Config } from '../../src/platform/config.js';
import { ManualClock } from '../../src/platform/clock.js';
import { silentLogger } from '../../src/platform/logger.js';
import { backupStamp, freeBackupPath, listBackupFiles, pruneBackups } from '../../src/modules/backups/files.js';
import { backupDir, runBackup, type BackupDeps } from '../../src/modules/backups/service.js';
import { backupDue, backupJob, backupTick, scheduleBackups } from '../../src/modules/backups/schedule.js';
import { answerKeys, insertAnswers, tempDir, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);

const T = Date.UTC(2025, 2, 1, 10, 20, 0); // 2025-03-01 10:20:00 UTC, a multiple of 10 minutes
let opened: OpenedDb | null = null;
afterEach(() => {
  opened?.sqlite.close();
  opened = null;
});

function setup(config: Partial<Config> = {}): BackupDeps & { dataDir: string; clock: ManualClock } {
  const dataDir = join(tempDir(), 'data');
  mkdirSync(dataDir);
  opened = openDatabase(databasePath(dataDir));
  insertAnswers(opened.sqlite, 'att_1', 1, 50);
  return { dataDir, sqlite: opened.sqlite, config: testConfig({ DATA_DIR: dataDir, ...config }), logger: silentLogger, clock: new ManualClock(T) };
}

describe('backup files', () => {
  it('names backups by UTC start time and never reuses a name', () => {
    expect(backupStamp(T)).toBe('20250301-102000');
    const dir = tempDir();
    const first = freeBackupPath(dir, T);
    expect(first).toBe(join(dir, 'hallcbt-20250301-102000.sqlite'));
    writeFileSync(first, '');
    expect(freeBackupPath(dir, T)).toBe(join(dir, 'hallcbt-20250301-102000-1.sqlite'));
  });

  it('lists newest first and prunes the oldest, ignoring other files', async () => {
    const dir = tempDir();
    for (const n of ['hallcbt-20250301-101000.sqlite', 'hallcbt-20250301-102000.sqlite', 'hallcbt-20250301-102000-1.sqlite', 'hallcbt-20250228-235959.sqlite', 'notes.txt', 'hallcbt.sqlite']) {
      writeFileSync(join(dir, n), 'x');
    }
    expect((await listBackupFiles(dir)).map((b) => b.file)).toEqual([
      'hallcbt-20250301-102000-1.sqlite',
      'hallcbt-20250301-102000.sqlite',
      'hallcbt-20250301-101000.sqlite',
      'hallcbt-20250228-235959.sqlite',
    ]);
    expect((await listBackupFiles(dir))[3]!.createdAt).toBe('2025-02-28T23:59:59.000Z');
    expect(await pruneBackups(dir, 2)).toEqual(['hallcbt-20250228-235959.sqlite', 'hallcbt-20250301-101000.sqlite']);
    expect(readdirSync(dir).sort()).toEqual(['hallcbt-20250301-102000-1.sqlite', 'hallcbt-20250301-102000.sqlite', 'hallcbt.sqlite', 'notes.txt']);
    expect(await listBackupFiles(join(dir, 'absent'))).toEqual([]);
  });

  it('removes .partial leftovers of crashed backups once they are an hour old', async () => {
    const dir = tempDir();
    const old = join(dir, 'hallcbt-20250301-090000.sqlite.partial');
    const fresh = join(dir, 'hallcbt-20250301-102000.sqlite.partial');
    writeFileSync(old, 'x');
    writeFileSync(fresh, 'x');
    utimesSync(old, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
    await pruneBackups(dir, 24);
    expect(readdirSync(dir)).toEqual(['hallcbt-20250301-102000.sqlite.partial']);
  });
});

describe('runBackup', () => {
  it('writes a readable copy into <DATA_DIR>/backups and the second directory, keeping the newest CBT_BACKUP_KEEP and the hour’s first in each', async () => {
    const usb = join(tempDir(), 'usb');
    const deps = setup({ CBT_BACKUP_KEEP: 2, CBT_BACKUP_DIR2: usb });
    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(await runBackup(deps));
      deps.clock.advance(60_000);
    }
    const r = results[3]!;
    expect(r.file).toBe(join(backupDir(deps.dataDir), 'hallcbt-20250301-102300.sqlite'));
    expect(r.copiedTo).toBe(join(usb, 'hallcbt-20250301-102300.sqlite'));
    // 10:21 goes; 10:20 stays as the first of its hour and day (tiered retention)
    const kept = ['hallcbt-20250301-102000.sqlite', 'hallcbt-20250301-102200.sqlite', 'hallcbt-20250301-102300.sqlite'];
    expect(readdirSync(backupDir(deps.dataDir)).sort()).toEqual(kept);
    expect(readdirSync(usb).sort()).toEqual(kept);
    for (const f of [r.file, r.copiedTo!]) {
      const b = new Database(f, { readonly: true });
      expect(b.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(answerKeys(b).size).toBe(50);
      b.close();
    }
  });

  it('still succeeds, and says why, when the second directory cannot be written', async () => {
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, 'x');
    const deps = setup({ CBT_BACKUP_DIR2: join(notADir, 'usb') });
    const r = await runBackup(deps);
    expect(r.copiedTo).toBeNull();
    expect(r.copyError).toMatch(/ENOTDIR|not a directory/);
    expect(readdirSync(backupDir(deps.dataDir))).toEqual(['hallcbt-20250301-102000.sqlite']);
  });

  it('runs simultaneous requests one after another into distinct files', async () => {
    const deps = setup();
    const [a, b] = await Promise.all([runBackup(deps), runBackup(deps)]);
    expect(a.file).not.toBe(b.file);
    expect(readdirSync(backupDir(deps.dataDir)).sort()).toEqual(['hallcbt-20250301-102000-1.sqlite', 'hallcbt-20250301-102000.sqlite']);
  });
});

describe('backup schedule', () => {
  it('is due on multiples of the interval since the epoch, never when 0', () => {
    expect(backupDue(T, 10)).toBe(true);
    expect(backupDue(T + 59_999, 10)).toBe(true);
    expect(backupDue(T + 60_000, 10)).toBe(false);
    expect(backupDue(Date.UTC(2025, 2, 2, 0, 0, 0), 1440)).toBe(true);
    expect(backupDue(T, 0)).toBe(false);
  });

  it('a tick backs up only when due', async () => {
    const deps = setup({ CBT_BACKUP_INTERVAL_MINS: 10 });
    deps.clock.set(T + 60_000);
    expect(await backupTick(deps)).toBeNull();
    deps.clock.set(T + 10 * 60_000);
    const r = await backupTick(deps);
    expect(r?.file).toMatch(/hallcbt-20250301-103000\.sqlite$/);
  });

  it('offers a job for the shared scheduler, none when the interval is 0', async () => {
    const deps = setup({ CBT_BACKUP_INTERVAL_MINS: 10 });
    const job = backupJob(deps)!;
    expect(job).toMatchObject({ name: 'backups', every: '0 * * * * *' });
    expect(cron.validate(job.every as string)).toBe(true);
    expect(await job.run()).not.toBeNull(); // the clock is at 10:20, a multiple of 10 minutes
    expect(backupJob({ ...deps, config: { ...deps.config, CBT_BACKUP_INTERVAL_MINS: 0 } })).toBeNull();
  });

  it('registers one named cron job that stop() removes; interval 0 registers none', () => {
    const count = () => [...cron.getTasks().values()].filter((t) => t.name === 'backups').length;
    const off = scheduleBackups(setup({ CBT_BACKUP_INTERVAL_MINS: 0 }));
    expect(count()).toBe(0);
    off();
    opened!.sqlite.close();
    opened = null;
    const stop = scheduleBackups(setup({ CBT_BACKUP_INTERVAL_MINS: 10 }));
    expect(count()).toBe(1);
    stop();
    expect(count()).toBe(0);
  });
});
