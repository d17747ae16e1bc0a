/**
 * A quick measurement for the durability decision (issue 9, part 2), run once with
 * synchronous=FULL and once with NORMAL:
 *
 * - through the real server: 25 candidates save answers back to back for a few seconds
 *   → saves per second, save latency p50/p99, and the durability lag (a save's
 *   response → the first response whose durableSeq covers it), plus the server's own
 *   longest flush transaction (/health `flush.maxBatchMs`, sampled every 0.4 s);
 * - in-process on the same disk: WAL commits of one row and of a 400-row flush batch
 *   (the answer buffer's batch size) → commits per second and ms per batch.
 *
 * Saves never touch the disk (they land in the buffer), so the setting shows up in the
 * flush and the lag, not in save latency.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { JsonClient } from './http.js';
import { startReceiver } from './receiver.js';
import { seed } from './seed.js';
import { freePort, ServerProcess } from './server-process.js';

export interface ThroughputResult {
  synchronous: 'FULL' | 'NORMAL';
  savesPerSecond: number;
  saveP50Ms: number;
  saveP99Ms: number;
  durableLagP50Ms: number;
  durableLagP99Ms: number;
  flushMaxBatchMs: number;
  commitsPerSecond: number;
  batch400Ms: number;
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
};

/** One-row and 400-row WAL transactions in a scratch file under `dir`. */
function rawCommits(dir: string, synchronous: 'FULL' | 'NORMAL'): { commitsPerSecond: number; batch400Ms: number } {
  const db = new Database(join(dir, `commit-${synchronous}.sqlite`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec('CREATE TABLE a (k TEXT PRIMARY KEY, v TEXT, seq INTEGER)');
  const up = db.prepare('INSERT INTO a (k, v, seq) VALUES (?,?,?) ON CONFLICT (k) DO UPDATE SET v = excluded.v, seq = excluded.seq');
  const one = db.transaction((i: number) => up.run(`k${i % 50}`, `v${i}`, i));
  let t0 = performance.now();
  const n = 300;
  for (let i = 0; i < n; i++) one(i);
  const commitsPerSecond = Math.round(n / ((performance.now() - t0) / 1000));
  const many = db.transaction((base: number) => {
    for (let j = 0; j < 400; j++) up.run(`b${j}`, `v${base + j}`, base + j);
  });
  t0 = performance.now();
  for (let b = 0; b < 20; b++) many(b * 400);
  const batch400Ms = Math.round(((performance.now() - t0) / 20) * 100) / 100;
  db.close();
  return { commitsPerSecond, batch400Ms };
}

/** Measures one setting. `seconds` of back-to-back saves. */
export async function measureThroughput(synchronous: 'FULL' | 'NORMAL', seconds = 8): Promise<ThroughputResult> {
  const dir = mkdtempSync(join(tmpdir(), `hallcbt-tput-${synchronous.toLowerCase()}-`));
  const receiver = await startReceiver();
  const server = new ServerProcess({ dataDir: join(dir, 'data'), port: await freePort(), logFile: join(dir, 'server.log'), env: { CBT_SQLITE_SYNCHRONOUS: synchronous, CBT_RATE_LIMIT_PER_MIN: '1000000', CBT_ANSWER_RATE_LIMIT_PER_MIN: '1000000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' /* candidates from loopback */ } });
  try {
    server.spawn();
    await server.ready();
    const client = new JsonClient(server.baseUrl);
    const { candidates } = await seed(client, receiver.url, 25, { objective: 40, essays: 0 });
    const latencies: number[] = [];
    const lags: number[] = [];
    let rng = 1;
    const next = () => ((rng = (rng * 48271) % 2147483647) / 2147483647);
    const end = Date.now() + seconds * 1000;
    let saves = 0;
    let flushMaxBatchMs = 0;
    const sampler = (async () => {
      while (Date.now() < end + 1500) {
        const h = await client.get('/health');
        flushMaxBatchMs = Math.max(flushMaxBatchMs, h.body?.flush?.maxBatchMs ?? 0);
        await new Promise((r) => setTimeout(r, 400));
      }
    })();
    await Promise.all(
      candidates.map(async (c) => {
        const waiting: { seq: number; ackAt: number }[] = [];
        while (Date.now() < end) {
          const a = c.give(next);
          const t0 = performance.now();
          const r = await client.put(`/attempts/${c.attemptId}/answers/${a.questionId}`, { optionId: a.optionId, seq: a.seq });
          const now = Date.now();
          latencies.push(performance.now() - t0);
          if (r.status !== 200) throw new Error(`save answered ${r.status}`);
          saves++;
          waiting.push({ seq: a.seq, ackAt: now });
          while (waiting.length && waiting[0]!.seq <= r.body.durableSeq) lags.push(now - waiting.shift()!.ackAt);
        }
      }),
    );
    await sampler;
    const raw = rawCommits(dir, synchronous);
    return {
      synchronous,
      savesPerSecond: Math.round(saves / seconds),
      saveP50Ms: pct(latencies, 50),
      saveP99Ms: pct(latencies, 99),
      durableLagP50Ms: pct(lags, 50),
      durableLagP99Ms: pct(lags, 99),
      flushMaxBatchMs: Math.round(flushMaxBatchMs * 100) / 100,
      ...raw,
    };
  } finally {
    await server.stop();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
