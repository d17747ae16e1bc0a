#!/usr/bin/env node
/**
 * `npm run bench:uploads` — hostile uploads during an exam (issue 22 §1). Builds and starts
 * the real server (as `npm run bench` does), seats 500 candidates who save every 2 s from
 * separate generator processes, and after a warm-up measures interleaved windows of
 * `--seconds` each, A B A B … A (`--pairs` B windows, one more A):
 *   A  the hall alone;
 *   B  the hall while the upload generator (upload-client.mjs, a process of its own under
 *      SCHED_IDLE: it stands for the examiner's machine) fires, one after another and over
 *      and over, a 1 GB .xlsx/.docx/.pptx zip bomb, a zip that lies about its sizes, and a
 *      39 MB .txt at every upload route (bombs.mjs builds them at run time).
 * Interleaving means a disturbance of the shared machine (another helper's job) lands in
 * one window, not in all of one kind: the result is the median over windows of each kind
 * of the save p99, with the range. Per window also: the server's own CPU seconds, its
 * children's (the job processes that read uploads, reaped), the event-loop delay and GC
 * pauses from the probe — where the save latency goes.
 * Memory, sampled every 20 ms from /proc: the server's RSS (its growth over the value
 * before each B), the job processes' peak RSS (VmHWM of each child while it lives), and
 * the machine-level sum (server RSS + its children's RSS at the same instant, minus the
 * server's RSS before B). Written between the `bench:uploads` markers of docs/benchmarks.md.
 * Targets: growth ≤ 200 MB, median B p99 ≤ 2× median A p99, the server keeps serving.
 * The job launcher (the server's standing process that starts job processes) counts with
 * the server: its RSS is in the "before" and in the sum, its reaped children's CPU is the
 * job processes'. Per window the log also prints how many job processes started, how many
 * other processes the server itself had as children (its forks), and this process's CPU.
 * Options: --seconds S (default 30), --pairs N (default 3), --candidates N (default 500),
 * --uploader-same-priority (the upload generator at normal priority, as before 2026-11-27), --no-report.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildBombs, longText } from './bombs.mjs';
import { startGenerators } from './drive.mjs';
import { startReceiver } from './receiver.mjs';
import { jobChildPids, jobLauncherPid } from './job-children.mjs';
import { buildServer, ROOT } from './server.mjs';
import { prepareRun, waitFlushed } from './setup.mjs';
import { summarizePhase } from './summary.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 30);
const PAIRS = arg('pairs', 3);
const loadBefore = loadavg()[0];
const N = arg('candidates', 500);
const REPORT = !process.argv.includes('--no-report');
const SAME_PRIORITY = process.argv.includes('--uploader-same-priority');
const PHASE = { probeConnections: 5, probeEveryMs: 200, saveEveryMs: 2000, jitterMs: 400, telemetryEvery: 30 };
const log = (...a) => console.log(...a);

/**
 * Starts the upload generator (upload-client.mjs) in its own process: under SCHED_IDLE by
 * default (it stands for the examiner's machine, so it must not take the server's CPU),
 * at normal priority with --uploader-same-priority (the bench's configuration until
 * 2026-11-27, when this process fired the uploads itself).
 * @returns {Promise<{fire(endAt: number): Promise<{rounds, results}>, policy: string, close(): void}>}
 */
async function startUploader(setup) {
  const idle = !SAME_PRIORITY;
  const args = [fileURLToPath(new URL('./upload-client.mjs', import.meta.url))];
  const proc = idle ? spawn('chrt', ['--idle', '0', process.execPath, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' }) : spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const next = (want) =>
    new Promise((resolve, reject) => {
      const onMsg = (m) => {
        if (m.failed) done(new Error(`upload generator: ${m.failed}`));
        else if (m[want]) done(null, m[want]);
      };
      const onExit = (code) => done(new Error(`upload generator exited (${code})`));
      const done = (err, v) => {
        proc.off('message', onMsg);
        proc.off('exit', onExit);
        if (err) reject(err);
        else resolve(v);
      };
      proc.on('message', onMsg);
      proc.on('exit', onExit);
    });
  const ready = next('ready');
  proc.send({ setup });
  await ready;
  return {
    policy: idle ? 'SCHED_IDLE' : 'normal priority (SCHED_OTHER, nice 0)',
    fire(endAt) {
      const fired = next('fired');
      proc.send({ fire: { endAt } });
      return fired;
    },
    close: () => proc.kill(),
  };
}

/** perf_hooks' gc entry kinds (constants.NODE_PERFORMANCE_GC_*) */
const GC_KINDS = { 1: 'scavenge', 4: 'mark-compact (major)', 8: 'incremental marking', 16: 'weak callbacks' };

/**
 * The probe's GC timeline (`[{at, ms, kind}]`) summed by kind: which collections make a
 * window's pauses (scavenges of the young generation, or full collections of a growing heap).
 */
function gcByKind(entries) {
  const out = {};
  for (const e of entries) {
    const k = GC_KINDS[e.kind] ?? `kind ${e.kind}`;
    const g = (out[k] ??= { count: 0, totalMs: 0, maxMs: 0, over5: 0 });
    g.count++;
    g.totalMs = Math.round((g.totalMs + e.ms) * 10) / 10;
    g.maxMs = Math.max(g.maxMs, e.ms);
    if (e.ms > 5) g.over5++;
  }
  return out;
}

function writeBlock(markdown) {
  const file = `${ROOT}docs/benchmarks.md`;
  const open = '<!-- bench:uploads -->';
  const close = '<!-- /bench:uploads -->';
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  const block = `${open}\n${markdown}\n${close}`;
  writeFileSync(file, a >= 0 && b > a ? doc.slice(0, a) + block + doc.slice(b + close.length) : `${doc.trimEnd()}\n\n${block}\n`);
}

/** RSS and peak RSS (VmHWM) of a process, MB; zeros when it is gone. */
function memOf(pid) {
  try {
    const st = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(st)?.[1] ?? 0) / 1024, hwm: Number(/VmHWM:\s+(\d+)/.exec(st)?.[1] ?? 0) / 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** Child pids of a process, from /proc ([] when it is gone). */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Time the process's main thread spent runnable but waiting for a core (ms, cumulative;
 * field 2 of /proc/<pid>/task/<pid>/schedstat): how much of a window's latency is the
 * scheduler's rather than the server's own work. 0 where schedstat is missing.
 */
function runDelayMs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return 0;
  }
}

/** CPU seconds of the server itself (utime+stime) and of its reaped children (cutime+cstime). */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { own: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};
const r1 = (v) => Math.round(v * 10) / 10;

async function main() {
  const command = `npm run bench:uploads${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  log('building the server…');
  buildServer();
  const bombs = await buildBombs(1024);
  const text = longText(39);
  const receiver = await startReceiver();
  const run = await prepareRun({ seated: N, credits: 200, receiverUrl: receiver.url, satSeconds: 2, satConnections: 20, log });
  const target = { host: '127.0.0.1', port: run.server.port };
  const gens = await startGenerators({ target, candidates: run.seated, questions: run.seed.questions, accessCode: run.seed.accessCode, baselinePath: run.baseline.path, processes: 2, probeConnections: 5 });
  const { apiKey, workspaceId, examId } = run.seed;
  const pid = run.server.pid;
  const routes = [
    { route: 'POST /questions/import-excel', path: '/questions/import-excel', fields: { workspaceId, examId }, file: 'questions.xlsx' },
    { route: 'POST /exams/{id}/roster/import', path: `/exams/${examId}/roster/import`, fields: {}, file: 'roster.xlsx' },
    { route: 'POST /questions/import', path: '/questions/import', fields: { workspaceId, examId }, file: 'bank.docx' },
    { route: 'POST /api/cbt/ai/generate-questions', path: '/api/cbt/ai/generate-questions', fields: { count: '5' }, file: 'notes.docx' },
  ];
  const shots = routes.flatMap((r) => [
    ...bombs.map((b) => ({ ...r, what: b.name, bytes: b.bytes, name: r.path.includes('generate') && b.name.startsWith('pptx') ? 'slides.pptx' : r.file })),
    { ...r, what: '39 MB .txt', bytes: text, name: r.file.replace(/\.\w+$/, '.txt') },
  ]);
  const phase = (durationMs) => gens.runPhase({ ...PHASE, kind: 'hall', durationMs, deadlineMs: durationMs + 30_000 });
  const out = { candidates: N, seconds: SECONDS, results: [], windows: [], uploads: 0 };
  let uploader = null;

  /** One window: the hall for SECONDS, with the uploads fired through it when `withUploads`. */
  async function window(kind, withUploads) {
    await waitFlushed(run.server.baseUrl);
    await run.server.probe('reset');
    const cpu0 = cpuOf(pid);
    const self0 = process.cpuUsage();
    const wait0 = runDelayMs(pid);
    // the job launcher (a standing process the server starts at boot) counts with the server:
    // in the RSS before B, in the sum, and its reaped children's CPU as the job processes'
    const launcher = jobLauncherPid(pid);
    const launcherCpu0 = launcher ? cpuOf(launcher) : { own: 0, children: 0 };
    const launcherBefore = launcher ? memOf(launcher).rss : 0;
    const before = memOf(pid).rss;
    const mem = { serverPeak: before, childPeak: 0, sumPeak: before + launcherBefore, children: new Set(), serverChildren: new Set() };
    const sampler = setInterval(() => {
      const server = memOf(pid).rss;
      let sum = server + (launcher ? memOf(launcher).rss : 0);
      for (const c of jobChildPids(pid)) {
        const m = memOf(c);
        mem.children.add(c);
        mem.childPeak = Math.max(mem.childPeak, m.hwm);
        sum += m.rss;
      }
      for (const c of childrenOf(pid)) mem.serverChildren.add(c);
      mem.serverPeak = Math.max(mem.serverPeak, server);
      mem.sumPeak = Math.max(mem.sumPeak, sum);
    }, 20);
    const hall = phase(SECONDS * 1000);
    let rounds = 0;
    if (withUploads) {
      const fired = await uploader.fire(Date.now() + SECONDS * 1000);
      rounds = fired.rounds;
      for (const r of fired.results) {
        out.uploads++;
        const first = out.results.find((x) => x.route === r.route && x.what === r.what);
        if (!first) out.results.push(r);
        else if (first.status !== r.status) out.results.push({ ...r, what: `${r.what} (again)` });
      }
    }
    const summary = summarizePhase(await hall, { cpuSec: 0 }, SECONDS * 1000);
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 300)); // let the last child be reaped into cutime
    const cpu1 = cpuOf(pid);
    const self1 = process.cpuUsage(self0);
    const waitMs = Math.round(runDelayMs(pid) - wait0);
    const launcherCpu1 = launcher && jobLauncherPid(pid) === launcher ? cpuOf(launcher) : launcherCpu0;
    const probe = await run.server.probe('read');
    const timeline = await run.server.probe('timeline');
    const save = summary.requests.save ?? {};
    const w = {
      kind,
      rounds,
      saves: save.count,
      p50: save.p50,
      p99: save.p99,
      max: save.max,
      errors: summary.errorCount,
      serverCpuS: r1(cpu1.own - cpu0.own),
      childCpuS: r1(cpu1.children - cpu0.children + launcherCpu1.children - launcherCpu0.children),
      launcherCpuS: r1(launcherCpu1.own - launcherCpu0.own),
      launcherMB: Math.round(launcherBefore),
      loopP99: probe?.eventLoopDelayMs?.p99,
      loopMax: probe?.eventLoopDelayMs?.max,
      gcMs: probe?.gc?.totalMs,
      gcMaxMs: probe?.gc?.maxMs,
      rssBefore: Math.round(before),
      serverGrowth: Math.round(mem.serverPeak - before),
      childPeak: Math.round(mem.childPeak),
      sumGrowth: Math.round(mem.sumPeak - before - launcherBefore),
      childCount: mem.children.size,
      // processes the server itself had as children during the window (its forks show up here; the launcher is one)
      serverChildren: [...mem.serverChildren].filter((c) => c !== launcher).length,
      benchCpuS: r1((self1.user + self1.system) / 1e6),
      waitMs,
      gcByKind: gcByKind(timeline?.gc ?? []),
    };
    out.windows.push(w);
    log(`  ${kind}: save p50 ${w.p50} p99 ${w.p99} max ${w.max} ms; CPU server ${w.serverCpuS} s, job processes ${w.childCpuS} s; loop p99/max ${w.loopP99}/${w.loopMax} ms; GC ${w.gcMs} ms; RSS server +${w.serverGrowth}, child peak ${w.childPeak}, sum +${w.sumGrowth} MB; job processes started ${w.childCount} (other children of the server: ${w.serverChildren}); launcher ${w.launcherMB} MB, CPU ${w.launcherCpuS} s; this process's CPU ${w.benchCpuS} s; the server's main thread waited for a core ${w.waitMs} ms`);
    log(`    GC pauses by kind: ${Object.entries(w.gcByKind).map(([k, g]) => `${k} ${g.count} (${g.totalMs} ms, longest ${g.maxMs} ms, ${g.over5} over 5 ms)`).join('; ') || 'none'}`);
    return w;
  }

  try {
    uploader = await startUploader({ baseUrl: run.server.baseUrl, apiKey, shots });
    log(`upload generator: its own process, ${uploader.policy}`);
    log(`warm-up ${Math.min(SECONDS, 15)} s with ${N} candidates…`);
    await phase(Math.min(SECONDS, 15) * 1000);
    for (let i = 0; i < PAIRS; i++) {
      await window('A', false);
      await window('B', true);
    }
    await window('A', false);
    out.healthStatus = (await fetch(`${run.server.baseUrl}/health`)).status;
    out.serverAfterMB = Math.round(memOf(pid).rss);
  } finally {
    uploader?.close();
    await gens.close();
    await run.close();
    await receiver.close?.();
  }
  const A = out.windows.filter((w) => w.kind === 'A');
  const B = out.windows.filter((w) => w.kind === 'B');
  const range = (ws, k) => `${Math.min(...ws.map((w) => w[k]))}–${Math.max(...ws.map((w) => w[k]))}`;
  const medA = Math.round(median(A.map((w) => w.p99)) * 100) / 100;
  const medB = Math.round(median(B.map((w) => w.p99)) * 100) / 100;
  const ratio = Math.round((medB / medA) * 100) / 100;
  const serverGrowth = Math.max(...B.map((w) => w.serverGrowth));
  const childPeak = Math.max(...B.map((w) => w.childPeak));
  const sumGrowth = Math.max(...B.map((w) => w.sumGrowth));
  const errors = out.windows.reduce((s, w) => s + w.errors, 0);
  const md = [
    `Command: \`flock /tmp/hallcbt-quiet.lock ${command}\`, run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (load average before: ${loadBefore.toFixed(1)} on this shared 2-core machine).`,
    '',
    `${N} seated candidates save every 2 s (±0.4 s) from 2 generator processes; after a warm-up, ${out.windows.length} windows of ${SECONDS} s in the order ${out.windows.map((w) => w.kind).join(' ')}. During each B the upload generator, a process of its own under **${SAME_PRIORITY ? 'normal priority (`--uploader-same-priority`, the configuration of the runs before 2026-11-27)' : 'SCHED_IDLE (it stands for the examiner\'s machine; `--uploader-same-priority` runs it at normal priority, as before 2026-11-27)'}**, fires each upload below at its route, one after another, round after round (${out.uploads} uploads in all).`,
    '',
    '| upload | route | status | ms (first time) |',
    '|---|---|---|---|',
    ...out.results.map((r) => `| ${r.what} | ${r.route} | ${r.status}${r.code ? ` ${r.code}` : ''}${r.truncated ? ' (truncated: true)' : ''} | ${r.ms} |`),
    '',
    '| window | saves | save p50 / p99 / max (ms) | errors | server CPU (s) | job processes CPU (s) | event loop p99 / max (ms) | GC (ms) | server RSS before (MB) | server RSS growth (MB) | job process peak RSS (MB) | server + job processes growth (MB) | job processes started / forks by the server |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...out.windows.map((w, i) => `| ${i + 1} ${w.kind} | ${w.saves} | ${w.p50} / ${w.p99} / ${w.max} | ${w.errors} | ${w.serverCpuS} | ${w.childCpuS} | ${w.loopP99} / ${w.loopMax} | ${w.gcMs} | ${w.rssBefore} | +${w.serverGrowth} | ${w.kind === 'B' ? w.childPeak : '–'} | +${w.sumGrowth} | ${w.childCount} / ${w.serverChildren} |`),
    '',
    `Save p99, median over windows: A **${medA} ms** (range ${range(A, 'p99')}), B **${medB} ms** (range ${range(B, 'p99')}); B ÷ A = **${ratio}** (target ≤ 2: ${ratio <= 2 ? 'met' : '**missed**'}).`,
    `Memory during B (worst window): the server's RSS grew by **${serverGrowth} MB**; the job process peaked at **${childPeak} MB** RSS; server + job launcher + job process at the same instant grew by **${sumGrowth} MB** over their RSS before B (target ≤ 200: ${sumGrowth <= 200 ? 'met' : '**missed**'}; the sum of the two peaks, ${serverGrowth + childPeak} MB, bounds it from above). Server RSS after the run: ${out.serverAfterMB} MB; the job launcher's (a standing process, in the "before" and the sum): ${Math.max(...out.windows.map((w) => w.launcherMB))} MB. Request errors: ${errors}. /health after: ${out.healthStatus}.`,
  ].join('\n');
  log(`\n${md}\n`);
  if (REPORT) writeBlock(md);
  return sumGrowth <= 200 && ratio <= 2 && out.healthStatus === 200 && errors === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
