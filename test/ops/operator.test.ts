/**
 * The hall operator (issue 22 part 2, docs/design.md §4 and §11): backups need the operator's
 * credential; `npm start` on a fresh data directory makes one and prints it once;
 * `scripts/operator rotate` replaces it in a running server; wrong credentials are held
 * back per address; and tiered retention keeps the older backups through a burst.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/clock.js';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { api, spawnServer, startTestServer, type SpawnedServer, type TestServer } from '../harness.js';
import { seat } from '../security/from-address.js';
import { REPO, removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);
let server: TestServer | null = null;
let spawned: SpawnedServer | null = null;
afterEach(async () => {
  await server?.close();
  await spawned?.stop();
  server = null;
  spawned = null;
});

const CREDENTIAL = /(cbtop_[0-9A-Za-z]{40})/;

describe('tiered backup retention', () => {
  it('a burst of 30 backups keeps the earlier hours’ and days’ backups', async () => {
    const t0 = Date.parse('2026-11-20T06:00:00Z');
    const clock = new ManualClock(t0 - 5 * 86400_000);
    server = await startTestServer({ clock });
    const op = { 'x-operator-key': rotateOperatorCredential(server.dataDir) };
    const take = async () => expect((await api(server!.baseUrl).post('/system/backups', {}, op)).status).toBe(201);
    // one backup 5 days, 3 days, 5 hours, 2 hours and 30 minutes before the burst
    const history: string[] = [];
    for (const before of [5 * 86400_000, 3 * 86400_000, 5 * 3600_000, 2 * 3600_000, 30 * 60_000]) {
      clock.set(t0 - before);
      await take();
    }
    history.push(...readdirSync(join(server.dataDir, 'backups')).sort());
    expect(history).toHaveLength(5);
    clock.set(t0);
    for (let i = 0; i < 30; i++) await take(); // the burst, all in one second

    const list = (await api(server.baseUrl).get('/system/backups', op)).body.backups.map((b: { file: string }) => b.file);
    for (const old of history) expect(list, old).toContain(old);
    expect(list.filter((f: string) => f.startsWith('hallcbt-20261120-060000'))).toHaveLength(25); // the newest 24 and the hour's first
    expect(list).toHaveLength(30);
    expect(list).toContain('hallcbt-20261120-060000.sqlite');

    // six days later: past the week go the backups of 5 and 3 days before; of 20 November
    // (5 h, 2 h, 30 min before) the day's first stays, the hourly tier has passed
    clock.set(t0 + 6 * 86400_000);
    await take();
    const later = (await api(server.baseUrl).get('/system/backups', op)).body.backups.map((b: { file: string }) => b.file);
    expect(history.map((h) => later.includes(h))).toEqual([false, false, true, false, false]);
    expect(later).toHaveLength(25); // the newest 24 and 20 November’s first
  }, 120_000);
});

describe('the operator credential', () => {
  it('npm start on a fresh data directory makes one, prints it once, and keeps only its digest (0600)', async () => {
    const dataDir = tempDir();
    spawned = await spawnServer({ dataDir });
    await new Promise((r) => setTimeout(r, 200)); // the banner follows the "listening" line
    const credential = CREDENTIAL.exec(spawned.logs.join(''))?.[1];
    expect(credential, spawned.logs.join('')).toBeDefined();
    const file = join(dataDir, 'operator.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(credential!);
    expect((await api(spawned.baseUrl).post('/system/backups', {}, { 'x-operator-key': credential! })).status).toBe(201);
    await spawned.stop();

    spawned = await spawnServer({ dataDir });
    await new Promise((r) => setTimeout(r, 200));
    expect(spawned.logs.join('')).not.toMatch(/cbtop_/);
    expect((await api(spawned.baseUrl).get('/system/backups', { authorization: `Bearer ${credential}` })).status).toBe(200);
  }, 90_000);

  it('scripts/operator rotate replaces it in the running server', async () => {
    server = await startTestServer();
    const init = spawnSync(join(REPO, 'scripts', 'operator'), ['init', '--data-dir', server.dataDir], { encoding: 'utf8' });
    expect(init.status).toBe(0);
    const first = CREDENTIAL.exec(init.stdout)![1]!;
    expect(spawnSync(join(REPO, 'scripts', 'operator'), ['init', '--data-dir', server.dataDir], { encoding: 'utf8' }).stdout).not.toMatch(/cbtop_/);
    expect((await api(server.baseUrl).get('/system/backups', { 'x-operator-key': first })).status).toBe(200);
    const rotated = spawnSync(join(REPO, 'scripts', 'operator'), ['rotate', '--data-dir', server.dataDir], { encoding: 'utf8' });
    const second = CREDENTIAL.exec(rotated.stdout)![1]!;
    expect(second).not.toBe(first);
    expect((await api(server.baseUrl).get('/system/backups', { 'x-operator-key': first })).status).toBe(401);
    expect((await api(server.baseUrl).get('/system/backups', { 'x-operator-key': second })).status).toBe(200);
  });

  it('wrong credentials are held back per address, not for the operator at another computer', async () => {
    server = await startTestServer();
    const credential = rotateOperatorCredential(server.dataDir);
    const guesser = seat('127.0.0.2', server.baseUrl);
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await guesser.get('/system/backups', { 'x-operator-key': `cbtop_guess${i}` })).status);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
    expect((await guesser.get('/system/backups', { 'x-operator-key': credential })).status).toBe(429);
    expect((await seat('127.0.0.3', server.baseUrl).get('/system/backups', { 'x-operator-key': credential })).status).toBe(200);
  });
});
