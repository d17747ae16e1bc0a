/**
 * scripts/restore's safety rules: it refuses while a server uses the data directory (pid
 * file, open database file, listening port), refuses a damaged backup without changing
 * anything, keeps the previous database — including answers only in its -wal — as
 * .pre-restore-*, and warns when the backup's secrets do not open with this secret.key.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { databasePath, openDatabase, type OpenedDb } from '../../src/db/index.js';
import { SecretBox } from '../../src/platform/crypto.js';
import { answerKeys, insertAnswers, REPO, runScript, tempDir, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A data directory with a migrated database holding `n` answers (closed again). */
function dataDirWith(attemptId: string, n: number, key?: Buffer): string {
  const dir = join(tempDir(), 'data');
  mkdirSync(dir);
  const { sqlite } = openDatabase(databasePath(dir));
  insertAnswers(sqlite, attemptId, 1, n, 50);
  if (key) {
    const box = new SecretBox(key);
    sqlite
      .prepare(`INSERT INTO workspaces (id, name, type, owner_name, owner_email, email_key, credits, api_key_digest, api_key_sealed, webhook_secret_sealed, created_at)
                VALUES ('ws_1', 'Hall', 'STANDALONE_HALL', 'Ada', 'a@x.ng', 'a@x.ng', 30, 'digest', ?, ?, 0)`)
      .run(box.seal('cbt_key'), box.seal('whsec'));
    writeFileSync(join(dir, 'secret.key'), key, { mode: 0o600 });
  }
  sqlite.close();
  return dir;
}

/** A backup file of a data directory made with scripts/backup. */
async function backupOf(dir: string): Promise<string> {
  const res = await runScript('backup', ['--data-dir', dir, '--quiet']);
  expect(res.code, res.stderr).toBe(0);
  return res.stdout.trim();
}

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => server.close());
  return { server, port: (server.address() as { port: number }).port };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { server, port } = await listening();
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('scripts/restore', () => {
  it('refuses while the server holds the database open, listens on the port, or has a live pid file', async () => {
    const source = dataDirWith('att_a', 10);
    const backup = await backupOf(source);
    const target = dataDirWith('att_b', 10);
    const dbFile = databasePath(target);
    const before = readFileSync(dbFile);
    const free = String(await closedPort());

    const live: OpenedDb = openDatabase(dbFile); // this test process plays the running server
    let res = await runScript('restore', [backup, '--data-dir', target, '--port', free]);
    live.sqlite.close();
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/refusing to restore: process \d+ has .*hallcbt\.sqlite open/);

    const { port } = await listening();
    res = await runScript('restore', [backup, '--data-dir', target, '--port', String(port)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`listening on 127.0.0.1:${port}`);

    writeFileSync(join(target, 'hallcbt.pid'), `${process.pid}\n`);
    res = await runScript('restore', [backup, '--data-dir', target, '--port', free]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the server is running');

    expect(readFileSync(dbFile).equals(before)).toBe(true);
    expect(readdirSync(target).filter((n) => n.includes('restor'))).toEqual([]);
  });

  it('refuses a damaged backup and changes nothing', async () => {
    const source = dataDirWith('att_a', 3000);
    const damaged = join(tempDir(), 'damaged.sqlite');
    copyFileSync(await backupOf(source), damaged);
    const fd = openSync(damaged, 'r+');
    writeSync(fd, randomBytes(4096 * 3), 0, 4096 * 3, 4096 * 3); // scribble over pages 4-6
    closeSync(fd);
    const target = dataDirWith('att_b', 10);
    const before = readFileSync(databasePath(target));

    const res = await runScript('restore', [damaged, '--data-dir', target, '--port', String(await closedPort())]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/damaged|malformed|not a database/);
    expect(res.stderr).toContain('nothing was changed');
    expect(readFileSync(databasePath(target)).equals(before)).toBe(true);
    expect(readdirSync(target).filter((n) => n.includes('restor'))).toEqual([]);
  });

  it('keeps the previous database with the answers only its -wal held, and installs the backup', async () => {
    const source = dataDirWith('att_new', 25);
    const backup = await backupOf(source);
    const target = dataDirWith('att_old', 10);
    // A server killed with answers committed to the -wal but not yet checkpointed.
    const crash = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `import D from 'better-sqlite3'; const db = new D(${JSON.stringify(databasePath(target))}); db.pragma('wal_autocheckpoint = 0');
        db.prepare("INSERT INTO answers (attempt_id, question_id, text, seq, updated_at) VALUES ('att_old', 'q_wal', 'x', 99, 0)").run();
        process.kill(process.pid, 'SIGKILL');`],
      { cwd: REPO },
    );
    expect(crash.signal).toBe('SIGKILL');
    expect(statSync(`${databasePath(target)}-wal`).size).toBeGreaterThan(0);

    const res = await runScript('restore', [backup, '--data-dir', target, '--port', String(await closedPort())]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const kept = readdirSync(target).find((n) => /^hallcbt\.sqlite\.pre-restore-\d{8}-\d{6}$/.test(n))!;
    expect(kept).toBeDefined();
    expect(existsSync(join(target, `${kept}-wal`))).toBe(true);
    expect(res.stdout).toContain(kept);

    const old = new Database(join(target, kept), { readonly: true });
    expect(answerKeys(old).has('att_old/q_wal#99')).toBe(true);
    old.close();
    const now = new Database(databasePath(target), { readonly: true });
    expect(now.pragma('integrity_check', { simple: true })).toBe('ok');
    const keys = answerKeys(now);
    expect(keys.size).toBe(25);
    expect([...keys].every((k) => k.startsWith('att_new/'))).toBe(true);
    now.close();
    expect(statSync(databasePath(target)).mode & 0o777).toBe(0o600);
  });

  it('warns when the backup was made under another secret.key', async () => {
    const keyA = randomBytes(32);
    const backup = await backupOf(dataDirWith('att_a', 5, keyA));
    const port = String(await closedPort());

    const sameKey = dataDirWith('att_b', 1, keyA);
    let res = await runScript('restore', [backup, '--data-dir', sameKey, '--port', port]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');

    const otherKey = dataDirWith('att_b', 1, randomBytes(32));
    res = await runScript('restore', [backup, '--data-dir', otherKey, '--port', port]);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('WARNING');
    expect(res.stderr).toContain('secret.key');
  });

  it('explains its usage and rejects a missing backup file', async () => {
    const res = await runScript('restore', []);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Usage: scripts/restore');
    const missing = await runScript('restore', ['/nonexistent/backup.sqlite', '--data-dir', tempDir()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no backup file');
  });
});
