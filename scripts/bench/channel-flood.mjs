#!/usr/bin/env node
/**
 * `node scripts/bench/channel-flood.mjs` — one candidate flooding its save channel with
 * tiny malformed frames, and what the other candidates' saves see meanwhile (issue #34,
 * finding 2; docs/reliability.md, "Round two, finding 2").
 *
 * Per run: starts the real server as its own process (`--built`: dist/ as `npm start` runs
 * it, after `npm run build`; else the TypeScript sources through tsx) on a temp DATA_DIR
 * with the hall's default answer rate limit (600 a minute per attempt) and the general one
 * raised; seeds exams and `--candidates` + 1 attempts over HTTP; forks the honest process
 * (channel-flood-clients.mjs --honest: one channel per candidate, each saving every
 * `--every` ms ± 50 %, and GET /health every `--health-every` ms), then runs
 *   1. warm-up, unmeasured (`--warm` s);
 *   2. baseline: the honest candidates alone (`--seconds` s);
 *   3. flood: the same, while a second process (--flooder) floods the last attempt's channel
 *      from the same address (127.0.0.1: one NAT'd hall), reopening it whenever it is
 *      closed, for the same `--seconds`.
 * Every figure is measured in the load processes: save round trips (send → reply, ms) and
 * /health times; the server's CPU share per phase from /proc.
 *
 * Options: --candidates=50 --seconds=15 --every=500 --health-every=50 --warm=2 --runs=1
 *          --built --probe (with --built: the server's event-loop delay, GC and longest
 *          stall per phase, from probe.mjs) --out=FILE.json
 * Exported: `measureChannelFlood(opts)` (the tests: test/security/channel-flood.test.ts, and its timed bounds test/timed/channel-flood.test.ts).
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleProcess, startServer } from './server.mjs';

const CLIENTS = fileURLToPath(new URL('./channel-flood-clients.mjs', import.meta.url));
/** attempts per seeded exam (a standalone workspace starts with 30 credits) */
const PER_EXAM = 25;

async function call(baseUrl, path, body, apiKey) {
  const r = await fetch(baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) }, body: JSON.stringify(body) });
  const json = await r.json().catch(() => null);
  if (r.status >= 300) throw new Error(`POST ${path} → ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/**
 * Registers workspaces (an exam of ten four-option MCQs each) and starts `n` attempts
 * over HTTP; resolves [{attemptId, questions: [{id, optionIds}]}].
 */
async function seedAttempts(baseUrl, n) {
  const out = [];
  const questions = Array.from({ length: 10 }, (_, i) => ({ prompt: `Flood question ${i + 1}: which is the largest?`, type: 'MCQ', marks: 1, options: ['one', 'two', 'three', 'four'].map((t, j) => ({ text: `${t} (${i})`, isCorrect: j === i % 4 })) }));
  for (let h = 0; out.length < n; h++) {
    const ws = await call(baseUrl, '/workspaces/standalone', { name: `Flood hall ${h}`, ownerName: 'Flood Owner', email: `flood.${Date.now()}.${h}@example.com`, webhookUrl: 'http://127.0.0.1:9/unused' });
    const exam = await call(baseUrl, '/exams', { workspaceId: ws.id, title: `Flood exam ${h}`, durationMins: 180, maxTabViolations: 100 }, ws.apiKey);
    await call(baseUrl, '/questions/bulk', { workspaceId: ws.id, examId: exam.id, questions }, ws.apiKey);
    for (let k = 0; k < PER_EXAM && out.length < n; k++) {
      const studentId = `F-${out.length + 1}`;
      const body = await call(baseUrl, '/attempts/start', { accessCode: exam.accessCode, studentId, candidateName: `Flood ${studentId}`, candidatePin: '4321' });
      out.push({ attemptId: body.attemptId, questions: body.questions.map((q) => ({ id: q.id, optionIds: q.options.map((o) => o.id) })) });
    }
  }
  return out;
}

/** Forks a load process; resolves {child, ask(msg) → next reply}. */
async function loadProcess(mode, init, nice = 0) {
  const child = fork(CLIENTS, [mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (nice) setPriority(child.pid, nice);
  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`${mode} process exited (${code})`))));
  exited.catch(() => undefined);
  const next = () => Promise.race([new Promise((r) => child.once('message', r)), exited]);
  child.send(init);
  await next();
  return { child, ask: (msg) => (child.send(msg), next()) };
}

/**
 * One measurement (see the file's comment).
 * @param {{candidates?: number, seconds?: number, everyMs?: number, healthEveryMs?: number, warm?: number, built?: boolean, twin?: boolean, log?: (s: string) => void}} o
 *   `twin`: also run a second hall with its own honest candidates and no flooder, measured
 *   during the flood phase (the machine's other work at that time, measured beside it)
 * @returns {Promise<{baseline, flood, twin?, flooder, serverCpu: {baseline: number, flood: number}}>} baseline/flood/twin:
 *   `{saves: {n, p50, p99, max} ms, errors, health: {n, p50, p99, max} ms, closes}`; flooder: its tally
 *   (connections, opened, refused by status, closeCodes, frames and bytes written, retryAfter s)
 */
export async function measureChannelFlood(o = {}) {
  const { candidates = 50, seconds = 15, everyMs = 500, healthEveryMs = 50, warm = 2, built = false, probe = false, twin: withTwin = false, log = () => {} } = o;
  const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-chanflood-'));
  const kids = [];
  let server = null;
  let twinServer = null;
  try {
    const env = { CBT_ANSWER_RATE_LIMIT_PER_MIN: '600', CBT_FLUSH_INTERVAL_MS: '1000' };
    server = await startServer({ dataDir, probe: probe && built, source: !built, env });
    const attempts = await seedAttempts(server.baseUrl, candidates + 1);
    const target = attempts.pop();
    log(`  server pid ${server.pid}; ${attempts.length} honest candidates, flooder on ${target.attemptId}`);
    const honest = await loadProcess('--honest', { baseUrl: server.baseUrl, candidates: attempts, everyMs, healthEveryMs });
    kids.push(honest.child);
    // the twin: a second hall with its own honest candidates and no flooder, measured during
    // the flood phase, so that what the machine's other work does then is measured beside it
    let twin = null;
    if (withTwin) {
      mkdirSync(join(dataDir, 'twin'));
      twinServer = await startServer({ dataDir: join(dataDir, 'twin'), probe: false, source: !built, env });
      twin = await loadProcess('--honest', { baseUrl: twinServer.baseUrl, candidates: await seedAttempts(twinServer.baseUrl, candidates), everyMs, healthEveryMs });
      kids.push(twin.child);
    }
    if (warm > 0) await Promise.all([honest.ask({ cmd: 'phase', seconds: warm }), twin?.ask({ cmd: 'phase', seconds: warm })]);
    const probed = {};
    const cpu = async (run, phase) => {
      await server.probe('reset');
      const a = sampleProcess(server.pid);
      const r = await run();
      const b = sampleProcess(server.pid);
      const p = await server.probe('read');
      if (p) probed[phase] = { eventLoopDelayMs: p.eventLoopDelayMs, gc: p.gc, longestStall: p.longestStall };
      return [r, Math.round(((b.cpuSec - a.cpuSec) / ((b.t - a.t) / 1000)) * 100) / 100];
    };
    const [baseline, cpuBase] = await cpu(() => honest.ask({ cmd: 'phase', seconds }), 'baseline');
    log(`  baseline: save p99 ${baseline.saves.p99} ms (n ${baseline.saves.n}), /health max ${baseline.health.max} ms`);
    // the flooder at nice 19: in a hall it is another computer; here it must not take the
    // CPU the server and the honest process need (2 cores), or the figures would measure
    // the machine's contention rather than the server's fairness. It still writes as fast
    // as its socket takes frames (megabytes a second, where the attack needed 2 Mbit/s).
    const flood = await loadProcess('--flooder', { baseUrl: server.baseUrl, attemptId: target.attemptId, seconds }, 19);
    kids.push(flood.child);
    const [[during, tally, beside], cpuFlood] = await cpu(() => Promise.all([honest.ask({ cmd: 'phase', seconds }), flood.ask({ cmd: 'go' }), twin?.ask({ cmd: 'phase', seconds })]), 'flood');
    log(`  flood:    save p99 ${during.saves.p99} ms (n ${during.saves.n}), /health max ${during.health.max} ms; flooder ${JSON.stringify({ ...tally, retryAfter: tally.retryAfter.slice(0, 5) })}`);
    if (beside) log(`  twin (same time, no flood): save p99 ${beside.saves.p99} ms (n ${beside.saves.n}), /health max ${beside.health.max} ms`);
    log(`  slowest 1 % [ms, sent at ms into the phase]: baseline ${JSON.stringify(baseline.slowest.slice(0, 8))}; flood ${JSON.stringify(during.slowest.slice(0, 8))}`);
    if (probed.flood) log(`  server (probe): ${JSON.stringify(probed)}`);
    return { baseline, flood: during, ...(beside ? { twin: beside } : {}), flooder: tally, serverCpu: { baseline: cpuBase, flood: cpuFlood }, probe: probed };
  } finally {
    for (const k of kids) k.kill('SIGKILL');
    if (server) await server.stop();
    if (twinServer) await twinServer.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const o = { candidates: 50, seconds: 15, everyMs: 500, healthEveryMs: 50, warm: 2, runs: 1, built: false, probe: false, out: null };
  const keys = { '--candidates': 'candidates', '--seconds': 'seconds', '--every': 'everyMs', '--health-every': 'healthEveryMs', '--warm': 'warm', '--runs': 'runs' };
  for (const a of process.argv.slice(2)) {
    const [k, v = ''] = a.split('=');
    if (keys[k] && Number(v) >= 0) o[keys[k]] = Number(v);
    else if (k === '--built') o.built = true;
    else if (k === '--probe') o.probe = true;
    else if (k === '--out') o.out = v;
    else throw new Error(`unknown option ${a}; see scripts/bench/channel-flood.mjs`);
  }
  const runs = [];
  for (let r = 1; r <= o.runs; r++) {
    console.log(`run ${r}/${o.runs}: ${o.candidates} candidates saving every ${o.everyMs} ms, ${o.seconds} s per phase (${o.built ? 'dist/' : 'tsx sources'})`);
    const m = await measureChannelFlood({ ...o, log: console.log });
    const floor = Math.max(m.baseline.saves.p99, 5);
    console.log(`  ratio p99(flood) / max(p99(baseline), 5 ms) = ${(m.flood.saves.p99 / floor).toFixed(2)}; server CPU ${m.serverCpu.baseline} → ${m.serverCpu.flood}`);
    runs.push({ ...o, ...m });
  }
  if (o.out) writeFileSync(o.out, JSON.stringify(runs, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(2);
  });
}
