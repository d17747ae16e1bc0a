/**
 * Micro-benchmark for issue 8's saturation target without the hall scenarios: builds
 * dist/ (as `npm run bench` does; NOBUILD=1 skips it), prepares one benchmark server
 * (prepareRun: seeded, 100 attempts for the saves), then measures ROUNDS times (argv[2],
 * default 3) the closed-loop saturation of the bare route and of the answer save, 3 s ×
 * 50 connections each, and prints the server's CPU µs per request (all threads, user +
 * system) for both, their ratio, and the medians. Round 1 is prepareRun's own measurement,
 * the figure `npm run bench` reports (cold JIT); later rounds are warm.
 * BENCH_SERVER_NODE_ARGS adds server node flags (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p").
 *
 *   node scripts/bench/micro/save-path.mjs 3
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { buildServer, sampleProcess } from '../server.mjs';
import { startReceiver } from '../receiver.mjs';
import { prepareRun } from '../setup.mjs';
import { saturate } from '../saturate.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
const SECONDS = 3;
const CONNECTIONS = 50;

if (!process.env.NOBUILD) buildServer();
const receiver = await startReceiver();
const run = await prepareRun({ seated: 0, credits: 200, receiverUrl: receiver.url, satSeconds: SECONDS, satConnections: CONNECTIONS, log: console.log });

/** The saves prepareRun saturates with: its 100 'SAT' attempts × the seeded questions. */
function savesOf(r) {
  const db = new Database(join(r.dataDir, 'hallcbt.sqlite'), { readonly: true });
  const ids = db.prepare("SELECT id FROM attempts WHERE student_id LIKE 'SAT%' ORDER BY student_id").pluck().all();
  db.close();
  const qs = r.seed.questions;
  return ids.map((attemptId, i) => ({ attemptId, questionId: qs[i % qs.length].id, optionIds: qs[i % qs.length].optionIds }));
}

/** Server CPU µs per request over one saturation run. */
async function cpuPerRequest(opts) {
  const a = sampleProcess(run.server.pid);
  const r = await saturate(opts);
  const b = sampleProcess(run.server.pid);
  return { reqPerSec: r.reqPerSec, non2xx: r.non2xx, us: Math.round(((b.cpuSec - a.cpuSec) * 1e6) / r.total) };
}

const saves = savesOf(run);
const common = { url: run.server.baseUrl, connections: CONNECTIONS, seconds: SECONDS };
const rows = [{ bare: run.saturation.baseline.cpuUsPerRequest, save: run.saturation.save.cpuUsPerRequest }];
console.log(`round 1 (cold): bare ${rows[0].bare} µs, save ${rows[0].save} µs, ratio ${(rows[0].bare / rows[0].save).toFixed(2)}`);
for (let i = 1; i < ROUNDS; i++) {
  const bare = await cpuPerRequest({ ...common, kind: 'baseline', path: run.baseline.path });
  const save = await cpuPerRequest({ ...common, kind: 'save', saves });
  rows.push({ bare: bare.us, save: save.us });
  console.log(`round ${i + 1}: bare ${bare.us} µs (${bare.reqPerSec} req/s), save ${save.us} µs (${save.reqPerSec} req/s, non-2xx ${save.non2xx}), ratio ${(bare.us / save.us).toFixed(2)}`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const warm = rows.length > 1 ? rows.slice(1) : rows;
const mb = median(warm.map((r) => r.bare));
const ms = median(warm.map((r) => r.save));
console.log(`median of warm rounds: bare ${mb} µs, save ${ms} µs, CPU ratio ${(mb / ms).toFixed(2)}`);
await run.close();
await receiver.close();
