#!/usr/bin/env node
/**
 * `npm run bench:tail` — issue 26's second harness for the save path's tail on loopback,
 * built like the independent load check that found it: ONE autocannon process drives the
 * real server at a fixed rate (autocannon's `overallRate`, many keep-alive connections),
 * and a bare hono route is measured at the same rate in the same run as the baseline.
 *
 * Per run: builds the server (tsc, as `npm start` does; `--no-build` skips), seeds a fresh
 * temp DATA_DIR with the main bench's seeding (seed.mjs: exam + 60 questions over HTTP,
 * then `--candidates` attempts IN_PROGRESS written into the stopped server's database),
 * starts `node --v8-pool-size=1 dist/src/main.js` (START_FLAGS, with the bench probe
 * preloaded unless `--no-probe`), starts the bare hono app of bare-hono.mjs (one route, no
 * middleware) as its own process, and forks one driver process that runs, one after the
 * other, at `--rate` requests/s over `--connections` connections:
 *   1. warm-up, unmeasured: saves, then both bare routes (`--warm` s each);
 *   2. saves: PUT /attempts/:id/answers/:qid, each connection its own share of the
 *      candidates in turn, a random question and option each (`--seconds` s): every
 *      candidate saves about every candidates ÷ rate seconds (2 s at 5,000 and 2,500/s);
 *   3. bare hono: GET /bare on the bare app (`--seconds` s);
 *   4. the server's own bare route: GET /bench/baseline (app middleware, no logic).
 * Latency is each response's own time as autocannon measures it (request written →
 * response parsed, float ms), p50/p99/max over every 2xx response of the phase whose
 * request was sent after the phase's first second (which the driver spends opening
 * connections and building their requests);
 * autocannon's own p99 (integer ms, with its coordinated-omission correction) is reported
 * beside it. With the probe: GC pauses and flushes of the save phase on the epoch clock,
 * and which of the slow saves (> `--slow` ms) overlapped one of them.
 *
 * How autocannon keeps a fixed rate (autocannon 9, lib/httpClient.js): each connection
 * may send rate÷connections requests per second, back to back, then waits for its
 * one-second tick; the connections are made together, so their ticks coincide and every
 * second begins with a burst of `--connections` requests in flight. That burst, not the
 * average rate, is what the tail measures; the bare route meets the same burst. Building
 * each connection's save list (~10 ms a connection at 20) spreads the ticks of the save
 * phase over that time (`tickSpreadMs`, reported); `--per-request-setup` keeps them
 * together instead, and then the driver spends about 1.5× the CPU per save.
 *
 * Options: --candidates=5000 --rate=2500 --connections=20 --seconds=20 --warm=3
 *          --runs=1 --slow=5 --no-build --no-probe --out=FILE.json (all runs' figures)
 *          --per-request-setup (the saves as one request with autocannon's setupRequest,
 *          instead of each connection's own list built when it is made; see above)
 *          --dump=PREFIX (every save's end time and latency, and the probe's timeline, per
 *          run to PREFIX.runN.json, for analysis)
 * Exit code 1 when a request failed or answered non-2xx, 2 on a crash.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, sampleProcess, startServer, START_FLAGS } from './server.mjs';
import { prepareDatabase, seedOverHttp } from './seed.mjs';
import { waitFlushed } from './setup.mjs';

const SELF = fileURLToPath(import.meta.url);
const BARE = fileURLToPath(new URL('./bare-hono.mjs', import.meta.url));
const r2 = (v) => Math.round(v * 100) / 100;
/** each phase's first second is not measured (see the driver) */
const SETTLE_MS = 1000;

/** Parses argv (see the file's comment). @throws Error on an unknown option */
export function parseTailOptions(argv) {
  const o = { candidates: 5000, rate: 2500, connections: 20, seconds: 20, warm: 3, runs: 1, slow: 5, build: true, probe: true, out: null, dump: null, perRequestSetup: false };
  for (const a of argv) {
    const [k, v = ''] = a.split('=');
    const num = (name) => {
      const n = Number(v);
      if (!(n > 0)) throw new Error(`${k} needs a positive number`);
      o[name] = n;
    };
    if (k === '--candidates') num('candidates');
    else if (k === '--rate') num('rate');
    else if (k === '--connections') num('connections');
    else if (k === '--seconds') num('seconds');
    else if (k === '--warm') num('warm');
    else if (k === '--runs') num('runs');
    else if (k === '--slow') num('slow');
    else if (k === '--no-build') o.build = false;
    else if (k === '--no-probe') o.probe = false;
    else if (k === '--per-request-setup') o.perRequestSetup = true;
    else if (k === '--out') o.out = v;
    else if (k === '--dump') o.dump = v;
    else throw new Error(`unknown option ${a}; see scripts/bench/loopback-tail.mjs`);
  }
  return o;
}

/** p-th percentile (nearest rank) of an ascending array. */
function pick(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : 0;
}

/** Starts the bare hono app (bare-hono.mjs --child); resolves {url, pid, stop()}. */
function startBareHono() {
  const child = fork(BARE, ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ url: `http://127.0.0.1:${m.port}`, pid: child.pid, stop: () => child.kill() }));
    child.once('exit', (code) => reject(new Error(`bare hono exited with ${code}`)));
  });
}

/** One run: fresh server and bare app, one driver process; resolves the run's figures. */
async function oneRun(o, log, runIndex) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-tail-'));
  let server = null;
  let bare = null;
  try {
    const first = await startServer({ dataDir, probe: false });
    let seed;
    try {
      // no submit happens in this harness, so no webhook is ever sent to this address
      seed = await seedOverHttp(first.baseUrl, { webhookUrl: 'http://127.0.0.1:9/unused' });
    } finally {
      await first.stop();
    }
    const seated = prepareDatabase(dataDir, { ...seed, credits: o.candidates + 100, attempts: o.candidates, studentPrefix: 'T' });
    server = await startServer({ dataDir, probe: o.probe });
    bare = await startBareHono();
    log(`  server pid ${server.pid} (${o.probe ? 'probe preloaded' : 'no probe'}), bare hono pid ${bare.pid}; ${seated.length} candidates seated`);
    const driver = fork(SELF, ['--driver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const driverExit = new Promise((_, reject) => driver.once('exit', (code) => reject(new Error(`driver exited with ${code}`))));
    const ask = (msg) => Promise.race([new Promise((resolve) => driver.once('message', resolve)), driverExit]).then((m) => m);
    driver.send({
      cmd: 'init',
      rate: o.rate,
      connections: o.connections,
      seconds: o.seconds,
      warm: o.warm,
      slow: o.slow,
      dump: Boolean(o.dump),
      perRequestSetup: o.perRequestSetup,
      serverUrl: server.baseUrl,
      bareUrl: bare.url,
      saves: seated.map((a) => a.attemptId),
      questions: seed.questions.map((q) => ({ id: q.id, optionIds: q.optionIds })),
    });
    await ask();
    const phases = {};
    const driverPid = driver.pid;
    for (const phase of ['warm', 'save', 'bareHono', 'serverBare']) {
      if (phase === 'save') await server.probe('reset');
      const target = phase === 'bareHono' ? bare.pid : server.pid;
      const a = sampleProcess(target);
      const da = sampleProcess(driverPid);
      driver.send({ cmd: 'phase', phase });
      const r = await ask();
      const b = sampleProcess(target);
      const db = sampleProcess(driverPid);
      if (phase === 'warm') continue;
      const cpu = (b.cpuSec - a.cpuSec) / ((b.t - a.t) / 1000);
      const dcpu = (db.cpuSec - da.cpuSec) / ((db.t - da.t) / 1000);
      const requests = r.count + r.unmeasured;
      phases[phase] = { ...r, processCpuPct: r2(cpu * 100), driverCpuPct: r2(dcpu * 100), cpuUsPerRequest: requests ? Math.round((cpu * 1e6 * (r.seconds ?? o.seconds)) / requests) : null };
      if (phase === 'save') {
        phases.save.probe = await server.probe('read');
        const tl = o.probe ? await server.probe('timeline') : null;
        if (tl) phases.save.overlap = overlap(r.slowList.filter((x) => x.ms > o.slow), tl, o.slow);
        if (o.dump) writeFileSync(`${o.dump}.run${runIndex}.json`, JSON.stringify({ saves: r.slowList, timeline: tl }));
        delete phases.save.slowList;
        await waitFlushed(server.baseUrl);
      } else delete r.slowList;
    }
    driver.kill();
    return { loadavg: loadavg().map(r2), phases };
  } finally {
    bare?.stop();
    if (server) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const GC_KIND = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };

/**
 * Which slow saves overlapped a GC pause or a flush's hold on the event loop (the
 * request's [start, end] against [event start, event start + duration], epoch ms).
 */
function overlap(slowList, tl, slowMs) {
  const hits = { slow: slowList.length, gc: 0, gcMajor: 0, flush: 0, neither: 0, gcCount: tl.gc.length, gcMaxMs: 0, flushCount: tl.flush.length, flushLoopMaxMs: 0, examples: [] };
  for (const g of tl.gc) hits.gcMaxMs = Math.max(hits.gcMaxMs, g.ms);
  for (const f of tl.flush) hits.flushLoopMaxMs = Math.max(hits.flushLoopMaxMs, f.loopMs);
  for (const s of slowList) {
    const from = s.end - s.ms;
    const g = tl.gc.find((e) => e.at <= s.end && e.at + e.ms >= from);
    // a flush holds the loop in slices of at most loopMs over its whole wall time
    const f = tl.flush.find((e) => e.at <= s.end && e.at + e.totalMs >= from);
    if (g) hits.gc++;
    if (g && GC_KIND[g.kind] === 'major') hits.gcMajor++;
    if (f) hits.flush++;
    if (!g && !f) hits.neither++;
    if (hits.examples.length < 8) hits.examples.push({ ms: r2(s.ms), gc: g ? `${GC_KIND[g.kind] ?? g.kind} ${g.ms} ms` : null, flush: f ? `${f.rows} rows, loop ${r2(f.loopMs)} ms` : null });
  }
  hits.slowAbove = slowMs;
  return hits;
}

async function main() {
  const o = parseTailOptions(process.argv.slice(2));
  const log = (...a) => console.log(...a);
  log(`loopback tail: ${o.candidates} candidates, ${o.rate} req/s over ${o.connections} connections, ${o.seconds} s per phase, ${o.runs} run(s)`);
  if (o.build) buildServer();
  const runs = [];
  let failed = 0;
  for (let i = 0; i < o.runs; i++) {
    const run = await oneRun(o, log, i + 1);
    runs.push(run);
    const s = run.phases.save;
    const h = run.phases.bareHono;
    const b = run.phases.serverBare;
    failed += s.non2xx + s.errors + h.non2xx + h.errors + b.non2xx + b.errors;
    log(
      `run ${i + 1}: save p50/p99/max ${s.p50}/${s.p99}/${s.max} ms (${s.count} saves, ${s.cpuUsPerRequest} µs server CPU each, autocannon p99 ${s.autocannonP99}, driver CPU ${s.driverCpuPct} %, ticks spread over ${s.tickSpreadMs} ms); ` +
        `bare hono ${h.p50}/${h.p99}/${h.max} (driver CPU ${h.driverCpuPct} %); server bare route ${b.p50}/${b.p99}/${b.max}; save p99 ×bare hono ${r2(s.p99 / h.p99)}; load ${run.loadavg.join(' ')}`,
    );
    if (s.probe) log(`  probe: loop delay p99/max ${s.probe.eventLoopDelayMs.p99}/${s.probe.eventLoopDelayMs.max} ms; GC ${s.probe.gc.count} pauses, max ${s.probe.gc.maxMs} ms; flushes ${s.probe.flush.count}, loop hold max ${s.probe.flush.maxLoopMs} ms`);
    if (s.overlap) log(`  slow saves (> ${o.slow} ms): ${s.overlap.slow}; during a GC pause ${s.overlap.gc} (major ${s.overlap.gcMajor}), at a flush ${s.overlap.flush}, neither ${s.overlap.neither}`);
  }
  const p99s = runs.map((r) => r.phases.save.p99).sort((a, b) => a - b);
  const summary = { savesP99: { min: p99s[0], median: pick(p99s, 50), max: p99s.at(-1) }, bareHonoP99: runs.map((r) => r.phases.bareHono.p99) };
  if (o.runs > 1) log(`save p99 over ${o.runs} runs: min ${summary.savesP99.min}, median ${summary.savesP99.median}, max ${summary.savesP99.max} ms`);
  if (o.out) {
    writeFileSync(o.out, JSON.stringify({ command: `npm run bench:tail -- ${process.argv.slice(2).join(' ')}`, serverCommand: ['node', ...START_FLAGS, 'dist/src/main.js'].join(' '), options: o, startedAt: new Date().toISOString(), summary, runs }, null, 1));
    log(`figures: ${o.out}`);
  }
  process.exitCode = failed ? 1 : 0;
}

// ---- the driver process: one autocannon at a fixed rate per phase ----

async function driver() {
  const { default: autocannon } = await import('autocannon');
  let cfg;
  // each connection gets its own share of the candidates (connection k: candidates k,
  // k + connections, …), four rounds of them, each save a random question and option,
  // all built before the run: no per-request setupRequest, which would cost the driver
  // twice the CPU of a static request and load the shared cores during the saves only
  const saveClients = () => {
    let k = 0;
    return (client) => {
      const mine = [];
      for (let round = 0; round < 4; round++) {
        for (let i = k; i < cfg.saves.length; i += cfg.connections) {
          const q = cfg.questions[Math.floor(Math.random() * cfg.questions.length)];
          mine.push({ method: 'PUT', headers: { 'content-type': 'application/json' }, path: `/attempts/${cfg.saves[i]}/answers/${q.id}`, body: `{"optionId":"${q.optionIds[Math.floor(Math.random() * q.optionIds.length)]}"}` });
        }
      }
      k++;
      client.setRequests(mine);
    };
  };
  // --per-request-setup: one request whose setupRequest picks the next save (candidates
  // round-robin): the connections are made at once, so their ticks coincide, at the price
  // of autocannon rebuilding every save request in the driver (more driver CPU)
  let next = 0;
  const perRequestSave = () => ({
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    setupRequest: (req) => {
      const q = cfg.questions[Math.floor(Math.random() * cfg.questions.length)];
      return { ...req, path: `/attempts/${cfg.saves[next++ % cfg.saves.length]}/answers/${q.id}`, body: `{"optionId":"${q.optionIds[Math.floor(Math.random() * q.optionIds.length)]}"}` };
    },
  });
  const saves = (seconds) => (cfg.perRequestSetup ? runPhase(cfg.serverUrl, [perRequestSave()], seconds) : runPhase(cfg.serverUrl, [{ method: 'GET', path: '/bench/baseline' }], seconds, saveClients()));
  const runPhase = (url, requests, seconds, setupClient) =>
    new Promise((resolve, reject) => {
      const lat = [];
      const slowList = [];
      const made = performance.now();
      const inst = autocannon({ url, connections: cfg.connections, overallRate: cfg.rate, duration: seconds, pipelining: 1, requests, setupClient }, (err, res) => {
        if (err) return reject(err);
        lat.sort((a, b) => a - b);
        resolve({
          seconds: res.duration,
          count: lat.length,
          unmeasured,
          tickSpreadMs,
          rate: Math.round((lat.length + unmeasured) / res.duration),
          p50: r2(pick(lat, 50)),
          p99: r2(pick(lat, 99)),
          p999: r2(pick(lat, 99.9)),
          max: r2(lat.at(-1) ?? 0),
          autocannonP99: res.latency.p99,
          non2xx: res.non2xx,
          errors: res.errors + res.timeouts,
          slowList,
        });
      });
      // requests sent in the phase's first second are not measured (every phase alike):
      // the driver is still opening connections and building each connection's requests
      // (~19 ms a connection for a save phase's 2,000 requests), which the first responses
      // would wait for — the driver's delay, not the server's
      // the connections' one-second ticks are spread over the time it took to make them
      const tickSpreadMs = r2(performance.now() - made);
      const measureFrom = performance.now() + SETTLE_MS;
      let unmeasured = 0;
      inst.on('response', (_client, status, _bytes, ms) => {
        if (status < 200 || status > 299) return;
        if (performance.now() - ms < measureFrom) {
          unmeasured++;
          return;
        }
        lat.push(ms);
        if (ms > cfg.slow || cfg.dump) slowList.push({ end: performance.timeOrigin + performance.now(), ms });
      });
    });
  process.on('message', async (m) => {
    try {
      if (m.cmd === 'init') {
        cfg = m;
        process.send({ ok: true });
      } else if (m.phase === 'warm') {
        await saves(cfg.warm);
        await runPhase(cfg.bareUrl, [{ method: 'GET', path: '/bare' }], cfg.warm);
        await runPhase(cfg.serverUrl, [{ method: 'GET', path: '/bench/baseline' }], cfg.warm);
        process.send({ ok: true });
      } else if (m.phase === 'save') process.send(await saves(cfg.seconds));
      else if (m.phase === 'bareHono') process.send(await runPhase(cfg.bareUrl, [{ method: 'GET', path: '/bare' }], cfg.seconds));
      else if (m.phase === 'serverBare') process.send(await runPhase(cfg.serverUrl, [{ method: 'GET', path: '/bench/baseline' }], cfg.seconds));
    } catch (e) {
      console.error(e);
      process.exit(1);
    }
  });
}

if (process.argv.includes('--driver')) driver();
else if (process.argv[1] === SELF)
  main().catch((e) => {
    console.error(e);
    process.exit(2);
  });
