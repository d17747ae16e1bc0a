/**
 * The issue-8 scenarios, each on its own fresh server (setup.mjs):
 *
 * - `examRun(n)` — start surge → fill → submit surge for one hall of n candidates:
 *   n starts within 10 s (room code + studentId + 4-digit PIN; started candidates begin
 *   saving at once), every candidate uploads a full script, then all n submit within
 *   30 s while the others keep saving; the loopback receiver waits for every
 *   `exam.attempt.completed` webhook (drain time = last webhook − last submit reply).
 *   (Smoke mode also runs the steady-hall phases on this server before submitting.)
 * - `hallRun(n)` — steady hall: n seated candidates save every 2 s (random phase,
 *   ±jitter, occasional telemetry) for the measured window after a warm-up, then the
 *   same open-loop pattern against the bare route (the baseline hall).
 *
 * Every measured phase runs with a monitor (server CPU/RSS, /health, probe) and 5 probe
 * connections GETting the bare route every 200 ms (baseline in the same window).
 */
import { randomInt } from 'node:crypto';
import { startGenerators } from './drive.mjs';
import { startMonitor } from './monitor.mjs';
import { prepareRun, waitFlushed } from './setup.mjs';
import { summarizePhase, webhookFigures } from './summary.mjs';

const PROBES = { probeConnections: 5, probeEveryMs: 200 };
const HALL = { saveEveryMs: 2000, jitterMs: 400, telemetryEvery: 30 };

async function measured(server, gens, phase, durationMs) {
  const mon = startMonitor(server);
  const res = await gens.runPhase({ ...PROBES, ...HALL, ...phase });
  const srv = await mon.stop();
  return summarizePhase(res, srv, durationMs ?? res.wallMs);
}

/** The measured steady-hall window, then the same open-loop pattern on the bare route. */
async function steadyPhases(run, gens, cfg, out, log) {
  out.phases.hall = await measured(run.server, gens, { kind: 'hall', durationMs: cfg.hallMs, deadlineMs: cfg.hallMs + 30_000 }, cfg.hallMs);
  const s = out.phases.hall;
  log(`    memory: ${memoryLine(s)}`);
  log(`    save p50/p99/max ${s.requests.save?.p50}/${s.requests.save?.p99}/${s.requests.save?.max} ms at ${s.requests.save?.perSec}/s; errors ${s.errorCount}; server CPU ${s.server.cpuPctAvg} %, RSS ${s.server.rssMBMax} MB; loop max ${s.server.probe?.eventLoopDelayMs.max} ms`);
  await waitFlushed(run.server.baseUrl);
  out.phases.baselineHall = await measured(run.server, gens, { kind: 'hall', target: 'baseline', durationMs: cfg.baselineHallMs, deadlineMs: cfg.baselineHallMs + 30_000 }, cfg.baselineHallMs);
  const b = out.phases.baselineHall.requests['baseline-hall'];
  log(`    bare route, same pattern: p50/p99/max ${b?.p50}/${b?.p99}/${b?.max} ms; server CPU ${out.phases.baselineHall.server.cpuPctAvg} %`);
}

const generatorsFor = (n) => (n <= 500 ? 2 : n <= 2500 ? 3 : 4);

/** Start surge, fill and submit surge for n candidates. */
/** The probe's largest memory figures of a phase, one line (MB). */
const memoryLine = (p) => {
  const m = p.server.probe?.memoryMaxMB;
  const st = p.server.probe?.longestStall;
  return m ? `RSS ${m.rssMB}, V8 heap ${m.heapUsedMB} used / ${m.heapTotalMB} total, external ${m.externalMB} MB (largest samples); longest stall ${st?.ms} ms at ${st?.atMs} ms into the phase` : 'no probe figures';
};

export async function examRun(n, cfg, receiver, log) {
  const run = await prepareRun({ seated: 0, credits: n + 200, receiverUrl: receiver.url, paper: cfg.paper, ...cfg.saturation, log });
  receiver.reset();
  receiver.setSecret(run.seed.webhookSecret);
  // two papers in one hall (--paper=A+B): candidate i sits exam i mod 2, so both share the surge
  const mix = run.seed.mix;
  const candidates = Array.from({ length: n }, (_, i) => {
    const c = { studentId: `C${String(i + 1).padStart(5, '0')}`, pin: String(randomInt(10000)).padStart(4, '0') };
    if (!mix) return c;
    const { accessCode, paper, perCandidate } = mix[i % mix.length];
    return { ...c, accessCode, paper, perCandidate };
  });
  const target = { host: '127.0.0.1', port: run.server.port };
  const gens = await startGenerators({ target, candidates, questions: run.seed.allQuestions, perCandidate: run.seed.perCandidate, accessCode: run.seed.accessCode, baselinePath: run.baseline.path, processes: generatorsFor(n), ...PROBES });
  const out = { scenario: 'exam', n, generators: generatorsFor(n), connected: gens.connected, saturation: run.saturation, baseline: run.baseline.label, phases: {} };
  try {
    log(`  start surge: ${n} candidates within ${cfg.startWindowMs / 1000} s`);
    out.phases.start = await measured(run.server, gens, { kind: 'start', windowMs: cfg.startWindowMs, saves: true, settleMs: 2000, deadlineMs: cfg.startWindowMs + cfg.startTimeoutMs + 5000, timeouts: { start: cfg.startTimeoutMs } });
    log(`    started ${out.phases.start.started}/${n}; start p99 ${out.phases.start.requests.start?.p99 ?? '-'} ms; errors ${out.phases.start.errorCount}`);
    for (const m of mix ?? []) {
      const r = out.phases.start.requests[`start:${m.paper}`];
      log(`    ${m.paper}: ${r?.count ?? 0} starts, p50/p90/p99 ${r?.p50 ?? '-'}/${r?.p90 ?? '-'}/${r?.p99 ?? '-'} ms`);
    }
    out.phases.fill = await measured(run.server, gens, { kind: 'fill', windowMs: cfg.fillWindowMs, settleMs: 1000, deadlineMs: cfg.fillWindowMs + 60_000 });
    await waitFlushed(run.server.baseUrl);
    if (cfg.examHallMs) await steadyPhases(run, gens, { ...cfg, hallMs: cfg.examHallMs }, out, log);
    log(`  submit surge: ${out.phases.start.started} submits within ${cfg.submitWindowMs / 1000} s`);
    out.phases.submit = await measured(run.server, gens, { kind: 'submit', windowMs: cfg.submitWindowMs, saves: true, settleMs: 500, deadlineMs: cfg.submitWindowMs + 90_000 });
    const submits = out.phases.submit.submits;
    const deadline = Date.now() + cfg.webhookWaitMs;
    while (Date.now() < deadline && submits.some(([id]) => !receiver.arrivals.has(id))) await new Promise((r) => setTimeout(r, 100));
    out.webhooks = webhookFigures(submits, receiver);
    delete out.phases.submit.submits;
    log(`    submitted ${submits.length}; submit p99 ${out.phases.submit.requests.submit?.p99 ?? '-'} ms; webhooks ${out.webhooks.received}/${submits.length}, drain ${out.webhooks.drainMs} ms`);
    for (const [name, p] of Object.entries(out.phases)) log(`    memory, ${name}: ${memoryLine(p)}`);
  } finally {
    await gens.close();
    Object.assign(out, await run.close(cfg.keepData));
  }
  return out;
}

/** Steady hall of n seated candidates, then the same pattern on the bare route. */
export async function hallRun(n, cfg, receiver, log) {
  const run = await prepareRun({ seated: n, credits: 200, receiverUrl: receiver.url, paper: cfg.paper, ...cfg.saturation, log });
  const target = { host: '127.0.0.1', port: run.server.port };
  const gens = await startGenerators({ target, candidates: run.seated, questions: run.seed.questions, perCandidate: run.seed.perCandidate, accessCode: run.seed.accessCode, baselinePath: run.baseline.path, processes: generatorsFor(n), ...PROBES });
  const out = { scenario: 'hall', n, generators: generatorsFor(n), connected: gens.connected, saturation: run.saturation, baseline: run.baseline.label, phases: {} };
  try {
    log(`  steady hall: ${n} candidates (${gens.connected} connections), warm-up ${cfg.warmupMs / 1000} s, measured ${cfg.hallMs / 1000} s`);
    await gens.runPhase({ ...PROBES, ...HALL, kind: 'hall', durationMs: cfg.warmupMs, deadlineMs: cfg.warmupMs + 30_000 });
    await steadyPhases(run, gens, cfg, out, log);
  } finally {
    await gens.close();
    Object.assign(out, await run.close(cfg.keepData));
  }
  return out;
}
