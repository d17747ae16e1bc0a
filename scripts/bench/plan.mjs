/**
 * Benchmark modes and command-line options.
 *
 *   npm run bench                  full mode (issue 8's N values; 10–20 min)
 *   npm run bench -- --quick       the saturation guard (issue 40; saturation.mjs): the HTTP save
 *                                  path against hono alone at 500 connections, 3 runs of 4 s
 *                                  each; prints the ratios and exits 1 when a run's saves ÷ bare
 *                                  hono is under 0.45 or any connection error occurs (about a
 *                                  minute; not part of `npm test`). Add --exam=100 --hall=500
 *                                  for the small scenario runs quick mode used to make.
 *   npm run bench -- --smoke       tiny CI run (test/bench), about 30 s
 * Options: --exam=250,1000  --hall=250,5000  (override the N lists; `--exam=` skips)
 *          --out=DIR (results JSON, report, chart; default docs/ in full mode, else a temp dir)
 *          --keep-data (keep each run's DATA_DIR)  --wait-quiet=MIN (wait ≤ MIN minutes for load < 1.5)
 *          --render=RESULTS.json (no run: rewrite that run's report and chart from its saved figures)
 *          --paper=flat|flat180|utme (the paper seeded; default flat), or --paper=A+B (two
 *          papers in one hall: exam runs only)
 *
 * Papers (fixtures.mjs `benchPaper`):
 *   flat  60 real questions, no sections: every candidate sits all 60 (issue 8's paper).
 *   flat180  180 real questions, no sections: every candidate sits all 180 (the UTME
 *         paper's length without sections or draws: issue 37's same-size baseline).
 *   utme  a UTME-style paper (issue 37): 225 questions in 4 compulsory sections, "Use of
 *         English" drawing 60 of 75 and Mathematics, Physics, Biology 40 of 50 each, so each
 *         candidate sits 180, drawn from the attempt's seed. Starts go through the real
 *         route; the pre-seated attempts (steady hall, saturation) get what a start writes:
 *         a draw seed and the sectioned layout of the server's own draw (seed.mjs).
 *   e.g.  npm run bench -- --paper=utme --exam=1000 --hall=1000 --out=/tmp/b-utme
 *   A+B   both papers in one hall (e.g. utme+flat180): an exam for each, the candidates of an
 *         exam run alternate between them (A, B, A, …), so both papers' starts share one start
 *         surge — the same seconds of the same machine and disk — and the run reports each
 *         paper's start figures as well as the whole surge's (docs/benchmarks.md, "With the
 *         disk taken out, and with both papers in one surge"). No steady hall (its
 *         candidates are pre-seated on one exam): add --hall=.
 *   e.g.  npm run bench -- --paper=utme+flat180 --exam=1000 --hall= --out=/tmp/b-mix
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAPERS } from './fixtures.mjs';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

const MODES = {
  full: {
    exam: [250, 1000, 2500],
    hall: [250, 1000, 2500, 5000, 10000],
    startWindowMs: 10_000,
    startTimeoutMs: 120_000,
    fillWindowMs: 10_000,
    submitWindowMs: 30_000,
    webhookWaitMs: 120_000,
    warmupMs: 6_000,
    hallMs: 60_000,
    baselineHallMs: 20_000,
    saturation: { satSeconds: 8, satConnections: 100 },
  },
  quick: {
    exam: [],
    hall: [],
    guard: { runs: 3, seconds: 4, connections: 500 },
    startWindowMs: 10_000,
    startTimeoutMs: 60_000,
    fillWindowMs: 5_000,
    submitWindowMs: 15_000,
    webhookWaitMs: 60_000,
    warmupMs: 4_000,
    hallMs: 15_000,
    baselineHallMs: 6_000,
    saturation: { satSeconds: 3, satConnections: 50 },
  },
  smoke: {
    exam: [12],
    hall: [],
    // the steady-hall phases run on the exam run's server, to keep CI to one server
    examHallMs: 3_000,
    startWindowMs: 2_000,
    startTimeoutMs: 20_000,
    fillWindowMs: 1_000,
    submitWindowMs: 2_000,
    webhookWaitMs: 15_000,
    warmupMs: 1_000,
    hallMs: 3_000,
    baselineHallMs: 1_500,
    saturation: { satSeconds: 1, satConnections: 10 },
  },
};

/**
 * A `--paper` value: one of PAPERS, or two different ones joined by `+` (both in one hall).
 * @throws Error naming the papers there are
 */
export function parsePaper(v) {
  const names = v.split('+');
  for (const name of names) if (!PAPERS.includes(name)) throw new Error(`unknown paper --paper=${v}; one of ${PAPERS.join(', ')}, or two of them joined by +`);
  if (names.length > 2 || new Set(names).size !== names.length) throw new Error(`--paper=${v}: at most two different papers in one hall`);
  return v;
}

const list = (v) => (v === '' ? [] : v.split(',').map((x) => Number(x.trim())).filter((x) => Number.isInteger(x) && x > 0));

/**
 * Parses argv into the run plan.
 * @returns {{mode, paper: 'flat'|'flat180'|'utme'|string (two joined by +), exam: number[], hall: number[], outDir, writeDocs: boolean, keepData, waitQuietMin, ...windows}}
 * @throws Error on an unknown option or paper
 */
export function parsePlan(argv) {
  const mode = argv.includes('--smoke') ? 'smoke' : argv.includes('--quick') ? 'quick' : 'full';
  const plan = { mode, ...structuredClone(MODES[mode]), paper: 'flat', keepData: false, waitQuietMin: 0, outDir: null, render: null };
  for (const a of argv) {
    const [k, v = ''] = a.split('=');
    if (k === '--smoke' || k === '--quick' || k === '--full') continue;
    else if (k === '--exam') plan.exam = list(v);
    else if (k === '--hall') plan.hall = list(v);
    else if (k === '--out') plan.outDir = v;
    else if (k === '--keep-data') plan.keepData = true;
    else if (k === '--wait-quiet') plan.waitQuietMin = Number(v) || 10;
    else if (k === '--render') plan.render = v;
    else if (k === '--paper') plan.paper = parsePaper(v);
    else throw new Error(`unknown option ${a}; see scripts/bench/plan.mjs`);
  }
  if (plan.paper.includes('+') && plan.hall.length) throw new Error(`--paper=${plan.paper} runs exam runs only (a steady hall's candidates are pre-seated on one exam): add --hall=`);
  plan.writeDocs = mode === 'full' && plan.outDir === null;
  plan.outDir ??= mode === 'full' ? DOCS : join(tmpdir(), `hallcbt-bench-${mode}`);
  return plan;
}
