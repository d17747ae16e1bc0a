/**
 * The start rate (issue 40 §3): `--n` new attempts started through POST /attempts/start
 * with `--inflight` requests in flight (closed loop: each of `--inflight` keep-alive
 * connections sends its next start when its last one answered), against the server of
 * any checkout, so two versions can be measured one right after the other by the same
 * client:
 *
 *   npm run bench:start -- [--checkout=DIR] [--n=5000] [--inflight=50]
 *        [--warm=200] [--paper=flat|flat180|utme] [--encoding=none|br|gzip] [--out=FILE.json]
 *        [--cpu-prof=DIR] [--keep-data]
 *
 * DIR (default: this checkout) must hold a built server (`dist/`, `npx tsc`) and its own
 * scripts/bench/server.mjs and seed.mjs: the server is started, seeded and given credits
 * exactly as that checkout's `npm run bench` does (a fresh temp DATA_DIR, seeded over HTTP,
 * restarted on the same SQLite file). `--warm` starts (other student ids) run first,
 * unmeasured: the questions' rendering and V8's warm-up are then behind the measured ones.
 * `--encoding`: the Accept-Encoding sent (none, like the main bench's candidates; `br` as
 * Chromium on loopback or HTTPS; `gzip` as Chromium on a plain-HTTP LAN address).
 * `--paper=utme` needs a checkout whose seed.mjs knows it (issue 37 on).
 *
 * Prints one JSON line: starts/s over the measured starts, latency p50/p90/p99/max (ms,
 * from sending the request to its last body byte), the server's CPU µs per start, the
 * response's bytes, errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = Object.fromEntries(process.argv.slice(2).map((a) => { const [k, v = ''] = a.replace(/^--/, '').split('='); return [k, v]; }));
const checkout = resolve(args.checkout || new URL('../../', import.meta.url).pathname);
const N = Number(args.n ?? 5000);
const INFLIGHT = Number(args.inflight ?? 50);
const WARM = Number(args.warm ?? 200);
const paper = args.paper || 'flat';
const encoding = args.encoding || 'none';

const { startServer, sampleProcess } = await import(pathToFileURL(join(checkout, 'scripts/bench/server.mjs')).href);
const { seedOverHttp, prepareDatabase } = await import(pathToFileURL(join(checkout, 'scripts/bench/seed.mjs')).href);

/** Percentile of sorted values (nearest rank). */
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * Starts `count` candidates `prefix00001…` with `inflight` in flight.
 * @returns {{ms: number[], wallMs: number, errors: Record<string, number>, bytes: number}}
 */
async function starts(port, accessCode, prefix, count, inflight) {
  const agent = new Agent({ keepAlive: true, maxSockets: inflight });
  const ms = [];
  const errors = {};
  let bytes = 0;
  let next = 0;
  const one = (i) =>
    new Promise((done) => {
      const body = JSON.stringify({ accessCode, studentId: `${prefix}${String(i + 1).padStart(5, '0')}`, candidateName: `Candidate ${i + 1}`, candidatePin: '1234' });
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      if (encoding !== 'none') headers['accept-encoding'] = encoding;
      const t0 = performance.now();
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/attempts/start', agent, headers }, (res) => {
        let n = 0;
        res.on('data', (d) => (n += d.length));
        res.on('end', () => {
          if (res.statusCode === 200) ms.push(performance.now() - t0);
          else errors[res.statusCode] = (errors[res.statusCode] ?? 0) + 1;
          bytes = n;
          done();
        });
      });
      req.on('error', (e) => {
        errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1;
        done();
      });
      req.end(body);
    });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inflight }, async () => {
    while (next < count) await one(next++);
  }));
  const wallMs = performance.now() - t0;
  agent.destroy();
  return { ms, wallMs, errors, bytes };
}

const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-start-rate-'));
let server;
try {
  const first = await startServer({ dataDir });
  let seed;
  try {
    seed = await seedOverHttp(first.baseUrl, { webhookUrl: 'http://127.0.0.1:9/none', paper });
  } finally {
    await first.stop();
  }
  if (paper !== 'flat' && seed.paper !== paper) throw new Error(`${checkout}: its seed.mjs has no paper "${paper}"`);
  prepareDatabase(dataDir, { ...seed, credits: N + WARM + 100, attempts: 0, studentPrefix: 'X' });
  // --cpu-prof=DIR: the measured server writes a V8 CPU profile there when it stops (server.mjs's BENCH_SERVER_NODE_ARGS, in every checkout since issue 26)
  if (args['cpu-prof']) process.env.BENCH_SERVER_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${resolve(args['cpu-prof'])}`;
  server = await startServer({ dataDir });
  if (WARM) await starts(server.port, seed.accessCode, 'W', WARM, INFLIGHT);
  const a = sampleProcess(server.pid);
  const r = await starts(server.port, seed.accessCode, 'C', N, INFLIGHT);
  const b = sampleProcess(server.pid);
  const sorted = [...r.ms].sort((x, y) => x - y);
  const out = {
    checkout,
    paper,
    encoding,
    n: N,
    inflight: INFLIGHT,
    warm: WARM,
    started: r.ms.length,
    errors: r.errors,
    startsPerSec: round((r.ms.length / r.wallMs) * 1000, 1),
    p50: round(pct(sorted, 50)),
    p90: round(pct(sorted, 90)),
    p99: round(pct(sorted, 99)),
    max: round(sorted.at(-1)),
    serverCpuUsPerStart: Math.round(((b.cpuSec - a.cpuSec) * 1e6) / Math.max(1, r.ms.length)),
    serverCpuPct: round(((b.cpuSec - a.cpuSec) / (r.wallMs / 1000)) * 100, 1),
    responseBytes: r.bytes,
    loadavg: (await import('node:os')).loadavg().map((x) => round(x)),
  };
  console.log(JSON.stringify(out));
  if (args.out) writeFileSync(args.out, JSON.stringify(out, null, 2));
} finally {
  await server?.stop();
  if (!('keep-data' in args)) rmSync(dataDir, { recursive: true, force: true });
}
