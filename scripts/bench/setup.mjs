/**
 * One benchmark run's server: a fresh temp DATA_DIR, a first start to seed over HTTP,
 * a stop, direct database edits (credits; pre-seated attempts), a second start of the
 * same real SQLite file — then the run's two saturation figures (closed-loop req/s of
 * the bare route and of the answer-save path, same server process) before any scenario.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, sampleProcess, startServer } from './server.mjs';
import { prepareDatabase, queryPlans, seedOverHttp } from './seed.mjs';
import { saturate } from './saturate.mjs';

/** The bare route to compare against: /bench/baseline when the server has it, else /version. */
async function detectBaseline(baseUrl) {
  try {
    const r = await fetch(`${baseUrl}/bench/baseline`);
    await r.arrayBuffer();
    if (r.status === 200) return { path: '/bench/baseline', label: 'GET /bench/baseline (a route with no logic, behind the app middleware: request id, JSON log line, headers)' };
  } catch {
    /* fall through */
  }
  return { path: '/version', label: 'GET /version (fallback: nearly bare — passes the app middleware: request id, JSON log line, headers)' };
}

/** Waits until /health reports no buffered answers (≤ `ms`). */
export async function waitFlushed(baseUrl, ms = 30_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const h = await (await fetch(`${baseUrl}/health`)).json();
    if (h.bufferedAnswers === 0) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/**
 * Prepares a run.
 * @param {{seated: number, credits: number, receiverUrl: string, paper?: 'flat'|'flat180'|'utme', satSeconds: number, satConnections: number, log: Function}} o
 * @returns {Promise<{server, seed, dataDir, baseline, seated: object[], saves: object[], saturation: {baseline, save}|null, close(): Promise<void>}>}
 *   saves: the saturation's answers (saturate.mjs `saves`); saturation null when `satSeconds` is 0
 */
export async function prepareRun(o) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-bench-'));
  const first = await startServer({ dataDir });
  let seed;
  let baseline;
  try {
    seed = await seedOverHttp(first.baseUrl, { webhookUrl: o.receiverUrl, paper: o.paper });
    baseline = await detectBaseline(first.baseUrl);
  } finally {
    await first.stop();
  }
  // a sectioned exam's pre-seated attempts are drawn by the server's own code (the build the server runs)
  const drawSitting = seed.sections ? (await import(pathToFileURL(join(ROOT, 'dist/src/core/exams/sections.js')).href)).drawSitting : undefined;
  const sat = prepareDatabase(dataDir, { ...seed, drawSitting, credits: o.credits, attempts: 100, studentPrefix: 'SAT' });
  const seated = o.seated ? prepareDatabase(dataDir, { ...seed, drawSitting, credits: o.credits, attempts: o.seated, studentPrefix: 'H' }) : [];
  const server = await startServer({ dataDir });
  o.log(`  server pid ${server.pid} on ${server.baseUrl}; ${seated.length} candidates seated; baseline ${baseline.path}`);

  // each attempt saves one of its own questions (any of the paper's when it was given all)
  const saves = sat.map((a, i) => {
    const q = seed.questions[a.given ? a.given[i % a.given.length] : i % seed.questions.length];
    return { attemptId: a.attemptId, questionId: q.id, optionIds: q.optionIds };
  });
  const common = { url: server.baseUrl, connections: o.satConnections, seconds: o.satSeconds };
  // with both cores shared by server and generator, req/s may be the generator's limit:
  // the server's CPU per request gives the capacity the server would reach on its own core
  const measure = async (opts) => {
    const a = sampleProcess(server.pid);
    const r = await saturate(opts);
    const b = sampleProcess(server.pid);
    const cpu = (b.cpuSec - a.cpuSec) / ((b.t - a.t) / 1000);
    return { ...r, serverCpuPct: Math.round(cpu * 1000) / 10, cpuUsPerRequest: r.reqPerSec ? Math.round((cpu * 1e6) / r.reqPerSec) : null };
  };
  // both routes are run once unmeasured first: a freshly started server still compiles the
  // code a hall that has run for a minute has optimised, and the first route measured
  // would pay for the shared middleware's warm-up alone
  // satSeconds 0: the caller measures saturation itself (saturation.mjs) from `saves`
  let satBaseline = null;
  let satSave = null;
  if (o.satSeconds > 0) {
    const warm = { ...common, seconds: Math.max(1, Math.ceil(o.satSeconds / 2)) };
    await saturate({ ...warm, kind: 'baseline', path: baseline.path });
    await saturate({ ...warm, kind: 'save', saves });
    satBaseline = await measure({ ...common, kind: 'baseline', path: baseline.path });
    satSave = await measure({ ...common, kind: 'save', saves });
    await waitFlushed(server.baseUrl);
    o.log(`  saturation: bare ${satBaseline.reqPerSec} req/s (${satBaseline.cpuUsPerRequest} µs CPU each), save ${satSave.reqPerSec} req/s (${satSave.cpuUsPerRequest} µs CPU each)`);
  }

  return {
    server,
    seed,
    dataDir,
    baseline,
    seated,
    saves,
    saturation: satBaseline && {
      baseline: satBaseline,
      save: satSave,
      ratio: satBaseline.reqPerSec ? Math.round((satSave.reqPerSec / satBaseline.reqPerSec) * 100) / 100 : null,
      // capacity ratio from server CPU per request (bare µs ÷ save µs)
      cpuRatio: satSave.cpuUsPerRequest ? Math.round((satBaseline.cpuUsPerRequest / satSave.cpuUsPerRequest) * 100) / 100 : null,
    },
    /** Stops the server; returns the database size and query plans; removes the data unless `keep`. */
    async close(keep = false) {
      const exitCode = await server.stop();
      let dbMB = 0;
      let plans = null;
      try {
        dbMB = Math.round((statSync(join(dataDir, 'hallcbt.sqlite')).size / 1048576) * 10) / 10;
        plans = queryPlans(dataDir);
      } catch {
        /* none */
      }
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
      return { dbMB, serverExitCode: exitCode, queryPlans: plans, ...(keep ? { dataDir } : {}) };
    },
  };
}
