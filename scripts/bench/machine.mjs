/**
 * The machine description for the report: CPU model and cores, memory, kernel, Node and
 * SQLite versions, the database disk, an fsync timing (what synchronous=FULL costs per
 * commit here), load averages, and how busy the machine already is before we start
 * (other workers share it). `waitQuiet()` optionally waits for the load to drop.
 */
import { cpus, totalmem, release, loadavg, tmpdir } from 'node:os';
import { openSync, writeSync, fsyncSync, closeSync, rmSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Median ms of `n` 4 KiB write+fsync pairs in the temp directory (where the bench DB lives). */
function fsyncMs(n = 30) {
  const path = join(tmpdir(), `hallcbt-fsync-${process.pid}`);
  const fd = openSync(path, 'w');
  const buf = Buffer.alloc(4096, 1);
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    writeSync(fd, buf);
    fsyncSync(fd);
    times.push(performance.now() - t);
  }
  closeSync(fd);
  rmSync(path, { force: true });
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(n / 2)] * 100) / 100;
}

/** Busy share (0–100 %) of all cores over `ms`, from /proc/stat. */
export async function machineBusy(ms = 2000) {
  const read = () => {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: f[3] + f[4], total: f.reduce((a, b) => a + b, 0) };
  };
  const a = read();
  await new Promise((r) => setTimeout(r, ms));
  const b = read();
  return Math.round((1 - (b.idle - a.idle) / Math.max(1, b.total - a.total)) * 1000) / 10;
}

/** Describes this machine (synchronous parts + a 2 s busy sample). */
export async function describeMachine() {
  let sqlite = 'unknown';
  try {
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    sqlite = db.prepare('select sqlite_version() AS v').get().v;
    db.close();
  } catch {
    /* not installed */
  }
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    node: process.version,
    sqlite,
    fsyncMs: fsyncMs(),
    loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
    busyPctBefore: await machineBusy(),
  };
}

/** Waits (≤ `maxMinutes`) until the 1-minute load average is below `threshold`; returns the load seen. */
export async function waitQuiet(maxMinutes, threshold, log) {
  const end = Date.now() + maxMinutes * 60_000;
  while (loadavg()[0] >= threshold && Date.now() < end) {
    log(`  machine busy (load ${loadavg()[0].toFixed(2)}); waiting for < ${threshold}…`);
    await new Promise((r) => setTimeout(r, 15_000));
  }
  return loadavg()[0];
}
