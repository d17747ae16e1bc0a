#!/usr/bin/env node
/**
 * `npm run bench` — issue 8's load harness. Builds and starts the real server (dist/src/main.js
 * as `npm start` runs it, a fresh temp SQLite file per run) as its own process, seeds it over HTTP, drives
 * virtual candidates from separate generator processes on 127.0.0.1, and writes the
 * results: `<out>/benchmarks/results-<mode>.json`, the chart PNG, and the report
 * (docs/benchmarks.md in full mode; `<out>/benchmarks-<mode>.md` otherwise).
 * Exit code 1 when any request failed (the issue requires 0 errors) or, with --quick, when the
 * saturation guard fails (saturation.mjs), 2 on a crash.
 * Modes and options: plan.mjs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parsePlan } from './plan.mjs';
import { describeMachine, waitQuiet } from './machine.mjs';
import { startReceiver } from './receiver.mjs';
import { examRun, hallRun } from './scenarios.mjs';
import { describePaper, missingFixtures } from './fixtures.mjs';
import { writeReport } from './report.mjs';
import { writeChart } from './chart.mjs';
import { measureBareHono } from './bare-hono.mjs';
import { buildServer, START_FLAGS } from './server.mjs';
import { GUARD_RATIO, saturationCheck } from './saturation.mjs';

const log = (...a) => console.log(...a);

/** Writes the chart and the report of a results object; returns their paths. */
async function publish(results, plan) {
  const dir = join(plan.outDir, 'benchmarks');
  mkdirSync(dir, { recursive: true });
  const chartPath = await writeChart(results, join(dir, `latency-${results.mode}`));
  const mdPath = plan.writeDocs ? join(plan.outDir, 'benchmarks.md') : join(plan.outDir, `benchmarks-${results.mode}.md`);
  writeReport(results, mdPath, chartPath);
  return { chartPath, mdPath };
}

async function main() {
  const plan = parsePlan(process.argv.slice(2));
  if (plan.render) {
    const results = JSON.parse(readFileSync(plan.render, 'utf8'));
    const { mdPath, chartPath } = await publish(results, { ...plan, writeDocs: plan.writeDocs && results.mode === 'full' });
    log(`rewrote ${mdPath} and ${chartPath} from ${plan.render}`);
    return;
  }
  const missing = missingFixtures();
  if (missing) {
    console.error(`npm run bench: ${missing}`);
    process.exitCode = 2;
    return;
  }
  const began = Date.now();
  log(`HallCBT benchmark, ${plan.mode} mode, ${plan.paper} paper: exam runs N=${plan.exam.join(',') || '-'}, steady hall N=${plan.hall.join(',') || '-'}`);
  if (plan.waitQuietMin) await waitQuiet(plan.waitQuietMin, 1.5, log);
  buildServer();
  const machine = await describeMachine();
  log(`  ${machine.cores} × ${machine.cpu}; load ${machine.loadavg.join(' ')}; machine busy ${machine.busyPctBefore} % before start; fsync ${machine.fsyncMs} ms`);

  if (plan.guard) {
    // the saturation guard (issue 40): saves ÷ hono alone at 500 connections, every error counted
    const g = plan.guard;
    log(`saturation guard: ${g.runs} runs × ${g.seconds} s per route at ${g.connections} connections (saves ÷ bare hono ≥ ${GUARD_RATIO}, 0 connection errors)`);
    const r = await saturationCheck({ ...g, log });
    log(`  medians: saves ÷ bare hono ${r.median.ratio} (${r.median.save} / ${r.median.bare} req/s); connection errors ${r.errors}; server RSS peak ${r.rssPeakMB} MB → ${r.ok ? 'pass' : 'FAIL'}`);
    if (!r.ok) process.exitCode = 1;
    if (!plan.exam.length && !plan.hall.length) return;
  }
  const stackCeiling = await measureBareHono(plan.saturation);
  log(`  stack ceiling (hono alone, no middleware, own process): ${stackCeiling.reqPerSec} req/s`);
  const receiver = await startReceiver();
  const runs = [];
  let plans = null;
  try {
    for (const n of plan.exam) {
      log(`exam run, N = ${n}`);
      runs.push(await examRun(n, plan, receiver, log));
    }
    for (const n of plan.hall) {
      log(`steady hall run, N = ${n}`);
      runs.push(await hallRun(n, plan, receiver, log));
    }
  } finally {
    await receiver.close();
  }
  for (const r of runs) {
    plans ??= r.queryPlans;
    delete r.queryPlans;
  }

  const results = {
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    serverCommand: ['node', ...START_FLAGS, 'dist/src/main.js'].join(' '),
    mode: plan.mode,
    startedAt: new Date(began).toISOString(),
    minutes: Math.round((Date.now() - began) / 6000) / 10,
    machine: { ...machine, loadavgAfter: loadavg().map((x) => Math.round(x * 100) / 100) },
    paper: describePaper(plan.paper),
    windows: { startWindowMs: plan.startWindowMs, fillWindowMs: plan.fillWindowMs, submitWindowMs: plan.submitWindowMs, hallMs: plan.hallMs, baselineHallMs: plan.baselineHallMs, warmupMs: plan.warmupMs, ...plan.saturation },
    stackCeiling,
    runs,
    queryPlans: plans,
  };
  const dir = join(plan.outDir, 'benchmarks');
  mkdirSync(dir, { recursive: true });
  const jsonPath = join(dir, `results-${plan.mode}.json`);
  writeFileSync(jsonPath, JSON.stringify(results, null, 1));
  const { chartPath, mdPath } = await publish(results, plan);
  const errors = runs.reduce((s, r) => s + Object.values(r.phases).reduce((t, p) => t + p.errorCount, 0) + (r.webhooks?.missing ?? 0), 0);
  log(`done in ${results.minutes} min; ${errors} errors; results ${jsonPath}; report ${mdPath}; chart ${chartPath ?? '(none)'}`);
  if (errors) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
