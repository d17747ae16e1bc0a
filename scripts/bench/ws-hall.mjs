#!/usr/bin/env node
/**
 * `npm run bench:ws` — 10,000 candidates on one hall box over their save channels (issue
 * 40 §4, goal B8; docs/benchmarks.md, "10,000 candidates on one box (issue 40 §4)").
 *
 * Per candidate count N (`--counts`), per run (`--runs`):
 *   1. the real server as `npm start` runs it (dist/, built first unless `--no-build`; the
 *      benchmark probe preloaded) on a temp DATA_DIR with the benches' environment
 *      (server.mjs: rate limits raised, CBT_OPEN_ROOM_SEAT_ATTEMPTS=0); the flat WAEC paper
 *      seeded over HTTP, then N + `--put-candidates` attempts IN_PROGRESS written into its
 *      database as a start writes them (seed.mjs; the setup phase), the server restarted;
 *   2. its RSS idle; `--procs` load processes (ws-hall-clients.mjs) open the N channels;
 *      RSS with N channels → per-channel memory = (RSS open − RSS idle) / N (it holds the
 *      channel and the attempt's session state, which the channel's admission loads);
 *   3. an SSE client on the exam's monitor stream (`/exams/{id}/monitor/stream`);
 *   4. `--warm` s unmeasured, then `--seconds` s measured: `--rate` saves/s over the
 *      channels and `--put-rate` over PUT (a further process, its own candidates);
 *      per save: ack (send → reply) and durable acknowledgement (send → the reply's or a
 *      push's durableSeq covering it); per snapshot of the monitor: how far behind each
 *      candidate's last save it shows (receipt − the snapshot's lastSavedAt, for every
 *      attempt whose lastSavedAt moved), and its age (receipt − serverTime); the server's
 *      CPU and VmHWM (/proc), its event-loop delay (probe);
 *   5. the baseline in the same run: a bare `ws` echo server (ws-echo.mjs), the same N
 *      sockets from the same processes at the same channel rate, its ack times and RSS.
 * Holds when: save p99 ≤ 2 × the echo's p99, VmHWM ≤ 600 MB, durable p99 ≤ 1 s, monitor
 * p99 ≤ 2 s behind, and every save acknowledged. Medians over the runs are printed per count.
 *
 * The file-descriptor limit: each socket is a descriptor in the server and in a load
 * process; the script re-executes itself under `ulimit -n 200000` (root, or a hard limit
 * that allows it) and otherwise refuses a count its limit cannot hold.
 *
 * Options: --counts=10000 --runs=3 --seconds=30 --warm=5 --rate=2500 --put-rate=200
 *          --put-candidates=200 --procs=2 --flush-ms=MS (the server's CBT_FLUSH_INTERVAL_MS;
 *          default: the hall's default) --no-monitor (no SSE client: what the monitor costs)
 *          --no-build --out=FILE.json
 *          --server-log=PREFIX (keep each run's hall log as PREFIX-<n>-<run>.log: with
 *          BENCH_SERVER_NODE_ARGS="--trace-gc-nvp" it holds V8's line per collection, which
 *          scripts/bench/gc-nvp.mjs sums up; BENCH_ECHO_NODE_ARGS gives the echo node flags)
 * Exported: `measureWsHall(opts)` (test/bench/ws-hall.test.ts, a CI-sized run).
 */
import { fork, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, freePort, sampleProcess, startServer } from './server.mjs';
import { prepareDatabase, seedOverHttp } from './seed.mjs';
import { summary } from './channel-flood-clients.mjs';

const CLIENTS = fileURLToPath(new URL('./ws-hall-clients.mjs', import.meta.url));
const ECHO = fileURLToPath(new URL('./ws-echo.mjs', import.meta.url));
const WANT_FDS = 200_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (v) => Math.round(v * 10) / 10;

/** The soft limit of open files of this process. */
export function fileLimit() {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? 1024);
}

/** Forks a load process; resolves {child, ready, ask(msg) → its next reply}. */
async function loadProcess(mode, init) {
  const child = fork(CLIENTS, [mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`${mode} process exited (${code})`))));
  exited.catch(() => undefined);
  const next = () => Promise.race([new Promise((r) => child.once('message', r)), exited]);
  child.send(init);
  const ready = await next();
  return { child, ready, ask: (msg) => (child.send(msg), next()) };
}

/** Starts the bare echo server; resolves {pid, baseUrl, stop()}. */
async function startEcho() {
  const port = await freePort();
  // BENCH_ECHO_NODE_ARGS (space-separated) adds node flags for diagnosis, as BENCH_SERVER_NODE_ARGS does the hall's
  const execArgv = (process.env.BENCH_ECHO_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = fork(ECHO, [String(port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`echo server exited (${c})`)));
  });
  return { pid: child.pid, baseUrl: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

/**
 * The monitor's SSE stream as the admin page reads it; while `measuring` it notes, per
 * snapshot, its age and how far behind each candidate's last save it shows.
 */
function watchMonitor(baseUrl, examId, apiKey) {
  const st = { measuring: false, snapshots: 0, ages: [], behind: [], gaps: [], last: new Map(), lastAt: 0, errors: 0 };
  let buf = '';
  const onEvent = (text) => {
    // a snapshot on connect, then deltas of the changed rows (the page applies both alike)
    if (!text.startsWith('event: snapshot') && !text.startsWith('event: delta')) return;
    const at = Date.now();
    const snap = JSON.parse(text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'));
    for (const a of snap.attempts) {
      if (!a.lastSavedAt) continue;
      const saved = Date.parse(a.lastSavedAt);
      const before = st.last.get(a.attemptId);
      st.last.set(a.attemptId, saved);
      if (st.measuring && before !== undefined && saved > before) st.behind.push(at - saved);
    }
    if (st.measuring) {
      st.snapshots++;
      st.ages.push(at - Date.parse(snap.serverTime));
      if (st.lastAt) st.gaps.push(at - st.lastAt);
    }
    st.lastAt = at;
  };
  const req = request(`${baseUrl}/exams/${examId}/monitor/stream`, { headers: { 'x-api-key': apiKey, accept: 'text/event-stream' } }, (res) => {
    if (res.statusCode !== 200) st.errors++;
    res.setEncoding('utf8');
    res.on('data', (d) => {
      buf += d;
      let cut;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        onEvent(buf.slice(0, cut));
        buf = buf.slice(cut + 2);
      }
    });
  });
  req.on('error', () => st.errors++);
  req.end();
  return { st, stop: () => req.destroy() };
}

/** Splits `list` into `k` slices of (nearly) equal length. */
const slices = (list, k) => Array.from({ length: k }, (_, j) => list.slice(Math.floor((j * list.length) / k), Math.floor(((j + 1) * list.length) / k)));

/** Runs one phase on every load process; merges their tallies. */
async function phase(procs, msg) {
  const rs = await Promise.all(procs.map((p) => p.ask(msg)));
  const sum = (k) => rs.reduce((n, r) => n + (r[k] ?? 0), 0);
  const problems = {};
  for (const r of rs) for (const [k, v] of Object.entries(r.problems ?? {})) problems[k] = (problems[k] ?? 0) + v;
  return { acks: rs.flatMap((r) => r.acks), durable: rs.flatMap((r) => r.durable ?? []), sent: sum('sent'), errors: sum('errors'), undurable: sum('undurable'), unanswered: sum('unanswered'), closes: sum('closes'), problems };
}

/** Opens the channels of `candidates` from `k` processes; resolves the processes. */
async function openAll(baseUrl, candidates, k, echo) {
  const t0 = performance.now();
  const procs = await Promise.all(slices(candidates, k).map((part) => loadProcess('--channels', { baseUrl, candidates: part, echo })));
  const opened = procs.reduce((n, p) => n + p.ready.opened, 0);
  const failed = procs.reduce((n, p) => n + p.ready.failed, 0);
  return { procs, opened, failed, firstError: procs.find((p) => p.ready.firstError)?.ready.firstError ?? null, openS: Math.round((performance.now() - t0) / 100) / 10 };
}

/**
 * One run at `n` candidates (see the file's comment).
 * @param {{n: number, seconds?: number, warm?: number, rate?: number, putRate?: number, putCandidates?: number, procs?: number, source?: boolean, serverLog?: string | null, log?: Function}} o  serverLog: where to copy the hall's log (its stdout and stderr) before its data directory goes
 * @returns {Promise<object>} `{n, hall: {save, durable, put, …, rss}, echo: {save, rss}, ratio, holds}` (ms, MB, KB)
 */
export async function measureWsHall(o) {
  const { n, seconds = 30, warm = 5, rate = 2500, putRate = 200, putCandidates = 200, procs: k = 2, flushMs = null, watch = true, source = false, serverLog = null, log = () => {} } = o;
  const env = flushMs ? { CBT_FLUSH_INTERVAL_MS: String(flushMs) } : {};
  if (fileLimit() < n + 2000) throw new Error(`the open-files limit (${fileLimit()}) cannot hold ${n} sockets in one process: raise ulimit -n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-wshall-'));
  const kids = [];
  let server = null;
  let echo = null;
  let monitor = null;
  try {
    const first = await startServer({ dataDir, source, probe: !source }); // (the probe is dist's: from the sources there is none)
    let seed;
    try {
      seed = await seedOverHttp(first.baseUrl, { webhookUrl: 'http://127.0.0.1:9/unused' });
    } finally {
      await first.stop();
    }
    const seated = prepareDatabase(dataDir, { ...seed, credits: n + putCandidates + 1000, attempts: n + putCandidates, studentPrefix: 'W' });
    const cands = seated.map((s) => ({ attemptId: s.attemptId, questions: seed.questions.map((q) => ({ id: q.id, optionIds: q.optionIds })) }));
    const chanCands = cands.slice(0, n);
    server = await startServer({ dataDir, source, env, probe: !source });
    await sleep(2000);
    const idle = sampleProcess(server.pid);
    const opening = await openAll(server.baseUrl, chanCands, k, false);
    kids.push(...opening.procs.map((p) => p.child));
    await sleep(2000);
    const open = sampleProcess(server.pid);
    log(`  hall pid ${server.pid}: ${opening.opened}/${n} channels open in ${opening.openS} s (${opening.failed} refused${opening.firstError ? `: ${opening.firstError}` : ''}); RSS ${mb(idle.rssMB)} → ${mb(open.rssMB)} MB`);
    const put = await loadProcess('--put', { baseUrl: server.baseUrl, candidates: cands.slice(n) });
    kids.push(put.child);
    if (watch) monitor = watchMonitor(server.baseUrl, seed.examId, seed.apiKey);
    const all = [...opening.procs.map((p) => ({ ask: (m) => p.ask({ ...m, rate: rate / k }) })), { ask: (m) => put.ask({ ...m, putRate }) }];
    if (warm > 0) await phase(all, { cmd: 'phase', seconds: warm, drainMs: 1000 });
    if (!source) await server.probe('reset');
    if (monitor) monitor.st.measuring = true;
    const a = sampleProcess(server.pid);
    const channelPart = opening.procs.map((p) => ({ ask: (m) => p.ask({ ...m, rate: rate / k }) }));
    const [hallTally, putTally] = await Promise.all([phase(channelPart, { cmd: 'phase', seconds, drainMs: 3000 }), put.ask({ cmd: 'phase', seconds, putRate, drainMs: 3000 })]);
    if (monitor) monitor.st.measuring = false;
    const b = sampleProcess(server.pid);
    const probe = source ? null : await server.probe('read');
    monitor?.stop();
    for (const p of [...opening.procs, put]) p.child.send({ cmd: 'stop' });
    const m = monitor?.st ?? { snapshots: 0, behind: [], ages: [], gaps: [], errors: 0 };
    const hall = {
      opened: opening.opened,
      refused: opening.failed,
      openS: opening.openS,
      sent: hallTally.sent,
      save: summary(hallTally.acks),
      durable: summary(hallTally.durable),
      errors: hallTally.errors,
      problems: hallTally.problems,
      undurable: hallTally.undurable,
      unanswered: hallTally.unanswered,
      closes: hallTally.closes,
      put: { sent: putTally.sent, errors: putTally.errors, ...summary(putTally.acks) },
      monitor: { snapshots: m.snapshots, behind: summary(m.behind), age: summary(m.ages), gapMax: Math.max(0, ...m.gaps), errors: m.errors },
      cpuPct: Math.round(((b.cpuSec - a.cpuSec) / ((b.t - a.t) / 1000)) * 1000) / 10,
      // the whole machine's busy share over the phase (both cores, every process: the load processes and other work)
      machineBusyPct: Math.round(((b.machineBusy - a.machineBusy) / Math.max(1, b.machineTotal - a.machineTotal)) * 1000) / 10,
      rss: { idleMB: mb(idle.rssMB), openMB: mb(open.rssMB), endMB: mb(b.rssMB), hwmMB: mb(b.hwmMB) },
      perChannelKB: Math.round(((open.rssMB - idle.rssMB) * 1024) / Math.max(1, opening.opened) * 10) / 10,
      loopDelayMs: probe ? { p99: probe.eventLoopDelayMs?.p99, max: probe.eventLoopDelayMs?.max } : null,
      longestStall: probe?.longestStall ?? null,
      probe: probe ? { flush: probe.flush, gc: probe.gc, memoryMaxMB: probe.memoryMaxMB } : null,
    };
    log(`  hall: save p50 ${hall.save.p50} p99 ${hall.save.p99} max ${hall.save.max} ms (n ${hall.save.n}/${hall.sent}); durable p99 ${hall.durable.p99} ms; PUT p99 ${hall.put.p99} ms (n ${hall.put.n}); monitor behind p99 ${hall.monitor.behind.p99} ms, max ${hall.monitor.behind.max}; CPU ${hall.cpuPct} % (machine ${hall.machineBusyPct} % busy); VmHWM ${hall.rss.hwmMB} MB; ${hall.perChannelKB} KB/channel; errors ${hall.errors} ${JSON.stringify(hall.problems)}, undurable ${hall.undurable}, unanswered ${hall.unanswered}, closes ${hall.closes}`);
    await server.stop();
    server = null;
    for (const c of kids.splice(0)) c.kill('SIGKILL');

    echo = await startEcho();
    await sleep(500);
    const eIdle = sampleProcess(echo.pid);
    const eOpening = await openAll(echo.baseUrl, chanCands, k, true);
    kids.push(...eOpening.procs.map((p) => p.child));
    await sleep(2000);
    const eOpen = sampleProcess(echo.pid);
    const eAll = eOpening.procs.map((p) => ({ ask: (m) => p.ask({ ...m, rate: rate / k }) }));
    if (warm > 0) await phase(eAll, { cmd: 'phase', seconds: warm, drainMs: 1000 });
    const ea = sampleProcess(echo.pid);
    const eTally = await phase(eAll, { cmd: 'phase', seconds, drainMs: 3000 });
    const eb = sampleProcess(echo.pid);
    const echoOut = {
      opened: eOpening.opened,
      save: summary(eTally.acks),
      unanswered: eTally.unanswered,
      cpuPct: Math.round(((eb.cpuSec - ea.cpuSec) / ((eb.t - ea.t) / 1000)) * 1000) / 10,
      rss: { idleMB: mb(eIdle.rssMB), openMB: mb(eOpen.rssMB), hwmMB: mb(eb.hwmMB) },
      perSocketKB: Math.round(((eOpen.rssMB - eIdle.rssMB) * 1024) / Math.max(1, eOpening.opened) * 10) / 10,
    };
    log(`  echo: save p50 ${echoOut.save.p50} p99 ${echoOut.save.p99} max ${echoOut.save.max} ms (n ${echoOut.save.n}); CPU ${echoOut.cpuPct} %; VmHWM ${echoOut.rss.hwmMB} MB; ${echoOut.perSocketKB} KB/socket`);
    const ratio = Math.round((hall.save.p99 / Math.max(echoOut.save.p99, 0.01)) * 100) / 100;
    const checks = {
      saveP99Within2x: ratio <= 2,
      rssWithin600MB: hall.rss.hwmMB <= 600,
      durableP99Within1s: hall.durable.p99 <= 1000,
      monitorWithin2s: hall.monitor.snapshots > 0 && hall.monitor.behind.p99 <= 2000,
      everySaveAcknowledged: hall.opened === n && hall.errors === 0 && hall.undurable === 0 && hall.unanswered === 0 && hall.closes === 0 && hall.put.errors === 0,
    };
    return { n, seconds, rate, putRate, flushMs, hall, echo: echoOut, ratio, checks, holds: Object.values(checks).every(Boolean) };
  } finally {
    monitor?.stop();
    for (const c of kids) c.kill('SIGKILL');
    echo?.stop();
    if (server) await server.stop();
    if (serverLog) copyFileSync(join(dataDir, 'server.log'), serverLog);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Medians over the runs of one count (the figures docs/benchmarks.md reports). */
export function medians(runs) {
  const pick = (f) => Math.round(median(runs.map(f)) * 100) / 100;
  return {
    n: runs[0].n,
    runs: runs.length,
    saveP50: pick((r) => r.hall.save.p50),
    saveP99: pick((r) => r.hall.save.p99),
    echoP99: pick((r) => r.echo.save.p99),
    ratio: pick((r) => r.ratio),
    durableP99: pick((r) => r.hall.durable.p99),
    putP99: pick((r) => r.hall.put.p99),
    monitorBehindP99: pick((r) => r.hall.monitor.behind.p99),
    monitorBehindMax: pick((r) => r.hall.monitor.behind.max),
    hwmMB: pick((r) => r.hall.rss.hwmMB),
    perChannelKB: pick((r) => r.hall.perChannelKB),
    echoPerSocketKB: pick((r) => r.echo.perSocketKB),
    cpuPct: pick((r) => r.hall.cpuPct),
    machineBusyPct: pick((r) => r.hall.machineBusyPct),
    held: runs.filter((r) => r.holds).length,
  };
}

async function main() {
  if (!process.env.WS_HALL_ULIMIT && fileLimit() < WANT_FDS) {
    // raise the limit for this script and everything it starts (the server, the load processes)
    const r = spawnSync('bash', ['-c', `ulimit -Hn ${WANT_FDS} 2>/dev/null; ulimit -Sn ${WANT_FDS} 2>/dev/null; exec "$@"`, 'bash', process.execPath, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, WS_HALL_ULIMIT: '1' } });
    process.exit(r.status ?? 2);
  }
  const o = { flushMs: null, counts: [10_000], runs: 3, seconds: 30, warm: 5, rate: 2500, putRate: 200, putCandidates: 200, procs: 2, build: true, out: null };
  const keys = { '--flush-ms': 'flushMs', '--runs': 'runs', '--seconds': 'seconds', '--warm': 'warm', '--rate': 'rate', '--put-rate': 'putRate', '--put-candidates': 'putCandidates', '--procs': 'procs' };
  for (const arg of process.argv.slice(2)) {
    const [key, v = ''] = arg.split('=');
    if (keys[key] && Number(v) >= 0) o[keys[key]] = Number(v);
    else if (key === '--counts') o.counts = v.split(',').map(Number);
    else if (key === '--no-build') o.build = false;
    else if (key === '--no-monitor') o.watch = false;
    else if (key === '--out') o.out = v;
    else if (key === '--server-log') o.serverLogPrefix = v;
    else throw new Error(`unknown option ${arg}; see scripts/bench/ws-hall.mjs`);
  }
  console.log(`open files: ${fileLimit()} per process`);
  if (o.build) buildServer();
  const all = [];
  for (const n of o.counts) {
    const runs = [];
    for (let r = 1; r <= o.runs; r++) {
      console.log(`${n} candidates, run ${r}/${o.runs}: ${o.rate} saves/s over the channels from ${o.procs} processes + ${o.putRate}/s over PUT, ${o.seconds} s (after ${o.warm} s)${o.flushMs ? `, flush every ${o.flushMs} ms` : ''}`);
      const serverLog = o.serverLogPrefix ? `${o.serverLogPrefix}-${n}-${r}.log` : null;
      const m = await measureWsHall({ ...o, n, serverLog, log: console.log });
      if (serverLog) console.log(`  the hall's log (its stdout and stderr): ${serverLog}`);
      console.log(`  ratio save p99 ÷ echo p99 = ${m.ratio}; ${m.holds ? 'holds' : `misses: ${Object.entries(m.checks).filter(([, ok]) => !ok).map(([c]) => c).join(', ')}`}`);
      runs.push(m);
    }
    console.log(`medians at ${n}: ${JSON.stringify(medians(runs))}`);
    all.push({ n, runs, medians: medians(runs) });
  }
  if (o.out) writeFileSync(o.out, JSON.stringify(all, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(2);
  });
}
