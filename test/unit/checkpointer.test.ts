import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.js';
import { startCheckpointer } from '../../src/db/checkpointer.js';
import { silentLogger } from '../../src/platform/logger.js';
import { tempDir } from '../harness.js';

const dir = tempDir('hallcbt-ckpt-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WAL checkpoints from a worker thread', () => {
  it('turns automatic checkpoints off, copies the WAL into the database file, and turns them back on when stopped', async () => {
    const file = join(dir, 'db.sqlite');
    const { sqlite } = openDatabase(file);
    const ckpt = startCheckpointer(sqlite, file, silentLogger, 50);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const sizeBefore = statSync(file).size;
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const ins = sqlite.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 20; i++) sqlite.transaction(() => { for (let j = 0; j < 200; j++) ins.run('x'.repeat(200)); })();
    const deadline = Date.now() + 5000;
    while (!(ckpt.last && ckpt.last.log > 0 && ckpt.last.checkpointed === ckpt.last.log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(ckpt.last).toMatchObject({ busy: 0 });
    expect(ckpt.last!.checkpointed).toBe(ckpt.last!.log);
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + 500_000);
    await ckpt.stop();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(sqlite.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 4000 });
    sqlite.close();
  });
});
