/**
 * Issue 40's saturation check: the HTTP save path (`PUT /attempts/{id}/answers/{questionId}`,
 * the spec's path and every page's fallback) against hono alone (one route, no middleware,
 * its own process: bare-hono.mjs), both saturated closed-loop by autocannon with the same
 * keep-alive connections (500 by default), interleaved in each run so the two figures of a
 * run share the machine's moment. Per run: req/s of each, saves ÷ bare hono, and every
 * connection error (autocannon's errors: resets, refusals and its 10 s time-outs) of both.
 * The server is the real one (`dist/src/main.js`, built first), with a fresh temp SQLite
 * file and 100 pre-seated attempts of the flat paper (setup.mjs), and its peak RSS is read
 * from /proc (VmHWM).
 *
 * `npm run bench -- --quick` runs it as the regression guard (run.mjs): it prints the
 * ratios and exits 1 when a run's ratio is under 0.45 or any connection error occurs.
 * Standalone, for the figures of docs/benchmarks.md:
 *   node scripts/bench/saturation.mjs [--runs=3] [--seconds=10] [--connections=500] [--server-bare] [--bare-put] [--distinct=N] [--no-build]
 * (--server-bare: also the server's own bare route, behind the app's middleware, each run;
 * --bare-put: also hono alone answering the same PUT saves, each run;
 * --distinct=N: distinct saves per connection, default DISTINCT_SAVES in saturate.mjs;
 * --no-build: use dist/ as it is)
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startBareHono } from './bare-hono.mjs';
import { startReceiver } from './receiver.mjs';
import { DISTINCT_SAVES, saturate } from './saturate.mjs';
import { sampleProcess, buildServer } from './server.mjs';
import { prepareRun } from './setup.mjs';

/** The guard's floor for saves ÷ bare hono (issue 40: goal 0.5, fail under 0.45). */
export const GUARD_RATIO = 0.45;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};
// (autocannon's `resets` counts its request list wrapping round, not connection resets)
const errorsOf = (r) => ({ errors: r.errors, timeouts: r.timeouts ?? 0 });

/** Saturates once and reads the serving process's CPU over it: adds `cpuUsPerRequest` (µs) and `cpuPct`. */
async function measured(pid, opts) {
  const a = sampleProcess(pid);
  const r = await saturate(opts);
  const b = sampleProcess(pid);
  const cpu = (b.cpuSec - a.cpuSec) / ((b.t - a.t) / 1000);
  return { ...r, cpuPct: Math.round(cpu * 100), cpuUsPerRequest: r.reqPerSec ? Math.round((cpu * 1e6) / r.reqPerSec) : null };
}

/**
 * Runs the check.
 * @param {{runs: number, seconds: number, connections: number, serverBare?: boolean, log: Function}} o
 *   seconds per route per run; connections: autocannon's keep-alive connections, for every
 *   route; serverBare: also saturate the server's own bare route (logged, for diagnosis)
 * @returns {Promise<{runs: object[], median: {bare, save, ratio}, errors: number, rssPeakMB: number, ok: boolean}>}
 *   each run `{bare: {reqPerSec, errors, timeouts, non2xx, p99, cpuPct, cpuUsPerRequest}, save: {…}, ratio}`
 */
export async function saturationCheck({ runs = 3, seconds = 10, connections = 500, serverBare = false, barePut = false, distinct, log = () => {} }) {
  const receiver = await startReceiver();
  const bare = await startBareHono();
  let run;
  try {
    // the server's own saturation (against its bare route) is not measured here: 0 s
    run = await prepareRun({ seated: 0, credits: 200, receiverUrl: receiver.url, paper: 'flat', satSeconds: 0, satConnections: 0, log });
    const saves = run.saves;
    const common = { connections, seconds, distinct };
    // both run once unmeasured: the server and the bare app optimise their code first
    const warm = { connections, distinct, seconds: Math.max(2, Math.ceil(seconds / 3)) };
    await saturate({ ...warm, url: bare.url, kind: 'baseline', path: '/bare' });
    await saturate({ ...warm, url: run.server.baseUrl, kind: 'save', saves });
    const out = [];
    for (let i = 0; i < runs; i++) {
      const b = await measured(bare.pid, { ...common, url: bare.url, kind: 'baseline', path: '/bare' });
      await run.server.probe('reset');
      const s = await measured(run.server.pid, { ...common, url: run.server.baseUrl, kind: 'save', saves });
      const probe = await run.server.probe('read');
      s.loopMaxMs = probe?.eventLoopDelayMs?.max ?? null;
      s.flushes = probe?.flush ? { count: probe.flush.count, maxTotalMs: probe.flush.maxTotalMs, maxLoopMs: probe.flush.maxLoopMs } : null;
      s.longestStallMs = probe?.longestStall?.ms ?? null;
      if (serverBare) {
        const sb = await measured(run.server.pid, { ...common, url: run.server.baseUrl, kind: 'baseline', path: run.baseline.path });
        log(`  run ${i + 1}: the server's own bare route ${run.baseline.path}: ${sb.reqPerSec} req/s, ${sb.cpuUsPerRequest} µs CPU each (${sb.cpuPct} %), p99 ${sb.p99} ms, errors ${sb.errors}`);
      }
      if (barePut) {
        const bp = await measured(bare.pid, { ...common, url: bare.url, kind: 'save', saves });
        log(`  run ${i + 1}: hono alone answering the same PUT saves: ${bp.reqPerSec} req/s (saves ÷ it ${(s.reqPerSec / bp.reqPerSec).toFixed(2)}), ${bp.cpuUsPerRequest} µs CPU each (${bp.cpuPct} %), autocannon ${bp.clientCpuPct} %, errors ${bp.errors}`);
      }
      const ratio = Math.round((s.reqPerSec / b.reqPerSec) * 1000) / 1000;
      const pick = (x) => ({ loopMaxMs: x.loopMaxMs, longestStallMs: x.longestStallMs, flushes: x.flushes, reqPerSec: x.reqPerSec, non2xx: x.non2xx, p99: x.p99, cpuPct: x.cpuPct, clientCpuPct: x.clientCpuPct, cpuUsPerRequest: x.cpuUsPerRequest, ...errorsOf(x) });
      const r = { bare: pick(b), save: pick(s), ratio };
      out.push(r);
      log(`  run ${i + 1}: bare hono ${b.reqPerSec} req/s, saves ${s.reqPerSec} req/s → saves ÷ bare hono ${ratio.toFixed(2)}; CPU µs per request (serving process) bare ${b.cpuUsPerRequest} (${b.cpuPct} %), saves ${s.cpuUsPerRequest} (${s.cpuPct} %); autocannon CPU ${b.clientCpuPct} % / ${s.clientCpuPct} %; p99 ${b.p99} / ${s.p99} ms; connection errors bare ${b.errors} (time-outs ${r.bare.timeouts}), saves ${s.errors} (time-outs ${r.save.timeouts}); non-2xx saves ${s.non2xx}; server event loop max delay ${s.loopMaxMs} ms, longest stall ${s.longestStallMs} ms; flushes ${JSON.stringify(s.flushes)}`);
    }
    const rssPeakMB = Math.round(sampleProcess(run.server.pid).hwmMB);
    const errors = out.reduce((n, r) => n + r.bare.errors + r.save.errors + r.save.non2xx, 0);
    const result = {
      connections,
      seconds,
      runs: out,
      median: { bare: median(out.map((r) => r.bare.reqPerSec)), save: median(out.map((r) => r.save.reqPerSec)), ratio: median(out.map((r) => r.ratio)) },
      errors,
      rssPeakMB,
    };
    result.ok = errors === 0 && out.every((r) => r.ratio >= GUARD_RATIO);
    return result;
  } finally {
    await bare.stop();
    await receiver.close();
    if (run) {
      const { dataDir } = run;
      const keep = process.env.BENCH_KEEP_DATA === '1';
      await run.close(keep);
      if (keep) log(`  kept ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (k, d) => Number(process.argv.find((a) => a.startsWith(`--${k}=`))?.split('=')[1] ?? d);
  const o = { runs: arg('runs', 3), seconds: arg('seconds', 10), connections: arg('connections', 500), distinct: arg('distinct', DISTINCT_SAVES), serverBare: process.argv.includes('--server-bare'), barePut: process.argv.includes('--bare-put'), log: console.log };
  if (!process.argv.includes('--no-build')) buildServer();
  console.log(`saturation: ${o.runs} runs × ${o.seconds} s per route, ${o.connections} connections`);
  const r = await saturationCheck(o);
  console.log(`medians: bare hono ${r.median.bare} req/s, saves ${r.median.save} req/s, saves ÷ bare hono ${r.median.ratio}; connection errors ${r.errors}; server RSS peak ${r.rssPeakMB} MB`);
  console.log(JSON.stringify(r));
  process.exitCode = r.ok ? 0 : 1;
}
