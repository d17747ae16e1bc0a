/**
 * Two papers compared by the main benchmark, run after run (issue 37: the UTME paper's
 * start and save p99 against a flat paper's):
 *
 *   npm run bench:papers -- [--papers=utme,flat180] [--pairs=4] [--warmup=1] [--exam=1000]
 *        [--hall=1000] [--out=DIR]
 *
 * Runs `npm run bench -- --paper=P --exam=N --hall=M --out=DIR/K-P` (scripts/bench/run.mjs,
 * each run its own server, seeded afresh) for the first paper and the baseline (the second)
 * in turn, `--pairs` times, alternating which goes first (A B, B A, A B, …) so a drift of the
 * machine falls on both. First, `--warmup` runs (the baseline first, then alternating) that
 * count for neither paper: the first run after other work on the machine was its paper's
 * slowest in all three invocations before there was one (docs/benchmarks.md, "Against a flat
 * paper of the same length"). `--hall=` (empty) skips the steady hall: start figures only.
 * The start figures are the exam run's start surge (N candidates start within 10 s), the save
 * p99 the steady hall's; each figure is the median over the runs of one paper, and the
 * ratio is the first paper's median ÷ the baseline's. Prints a Markdown table and writes it,
 * with every run's figures, to DIR/paper-pairs.md and DIR/paper-pairs.json.
 *
 *   npm run bench:papers -- --mixed [--papers=utme,flat180] [--runs=6] [--warmup=1] [--exam=1000] [--out=DIR]
 *
 * `--mixed`: both papers in one hall instead (`npm run bench -- --paper=A+B --hall=`,
 * plan.mjs): each run's candidates alternate between the two exams, so both papers' starts
 * share the same surge — the same seconds of the machine and the disk, whose stalls decide
 * the slowest 1 % of a run (docs/benchmarks.md, "With the disk taken out, and with both
 * papers in one surge"). Each run gives both papers' start figures (N ÷ 2 starts each); the
 * table is as above, over `--runs` runs (no server CPU per paper, no steady hall), with each
 * run's own p99 ratio and their median.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAPERS } from './fixtures.mjs';

/** Median of numbers (the mean of the middle two for an even count); null for none. */
export function median(values) {
  const s = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * One run's figures from its results-full.json (scripts/bench/run.mjs).
 * @returns {{paper: string, startP50: number, startP90: number, startP99: number, startCpuSec: number, saveP99: number|null}}
 * @throws Error when the results hold no exam run with a start phase
 */
export function runFigures(results) {
  const exam = results.runs.find((r) => r.scenario === 'exam');
  const start = exam?.phases?.start;
  if (!start) throw new Error('these results hold no exam run (run with --exam=N)');
  const hall = results.runs.find((r) => r.scenario === 'hall');
  const s = start.requests.start;
  return { paper: results.paper.name, startP50: s.p50, startP90: s.p90, startP99: s.p99, startCpuSec: start.server.cpuSec, saveP99: hall?.phases?.hall?.requests?.save?.p99 ?? null };
}

/**
 * The two papers' start figures of one two-paper run (`--paper=A+B`): `[figures of A, figures
 * of B]` from the surge's `start:A` and `start:B` (no server CPU per paper, no steady hall).
 * @throws Error when the results hold no exam run, or no starts of one of the papers
 */
export function mixedFigures(results) {
  const start = results.runs.find((r) => r.scenario === 'exam')?.phases?.start;
  if (!start) throw new Error('these results hold no exam run (run with --exam=N)');
  return results.paper.mix.map(({ name }) => {
    const s = start.requests[`start:${name}`];
    if (!s) throw new Error(`these results hold no starts of ${name}`);
    return { paper: name, startP50: s.p50, startP90: s.p90, startP99: s.p99, startCpuSec: null, saveP99: null };
  });
}

/**
 * Each two-paper run's own start p99 ratio (A ÷ B, both from that run's surge), in run order,
 * and their median: the paired reading of `--mixed`.
 * @param runs mixedFigures of each run, flattened with a `run` number on each
 * @returns {{ratios: number[], median: number|null}}
 */
export function pairedRatios(runs, a, b) {
  const ratios = [];
  for (const run of [...new Set(runs.map((r) => r.run))]) {
    const x = runs.find((r) => r.run === run && r.paper === a);
    const y = runs.find((r) => r.run === run && r.paper === b);
    if (x && y && y.startP99) ratios.push(Math.round((x.startP99 / y.startP99) * 100) / 100);
  }
  return { ratios, median: median(ratios) };
}

/**
 * The order of the runs: `warmup` runs not counted (the baseline `b` first, then alternating),
 * then `pairs` pairs, `a` then `b`, `b` then `a`, … so a drift of the machine falls on both.
 * @returns {{paper: string, warmup: boolean}[]}
 */
export function runPlan(a, b, pairs, warmup = 0) {
  const plan = [];
  for (let i = 0; i < warmup; i++) plan.push({ paper: i % 2 ? a : b, warmup: true });
  for (let pair = 0; pair < pairs; pair++) for (const paper of pair % 2 ? [b, a] : [a, b]) plan.push({ paper, warmup: false });
  return plan;
}

const FIGURES = [
  ['start p50 (ms)', 'startP50'],
  ['start p90 (ms)', 'startP90'],
  ['start p99 (ms)', 'startP99'],
  ['server CPU in the start surge (s)', 'startCpuSec'],
  ['save p99, steady hall (ms)', 'saveP99'],
];

/**
 * The comparison of paper `a` with baseline `b` over runs of both.
 * @param runs runFigures of every run
 * @returns {{rows: {figure: string, a: number|null, b: number|null, ratio: number|null, aRuns: number[], bRuns: number[]}[], markdown: string}}
 */
export function compareRuns(runs, a, b) {
  const round = (x, d = 2) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);
  const rows = FIGURES.map(([figure, key]) => {
    const aRuns = runs.filter((r) => r.paper === a).map((r) => r[key]).filter((v) => v !== null);
    const bRuns = runs.filter((r) => r.paper === b).map((r) => r[key]).filter((v) => v !== null);
    const ma = median(aRuns);
    const mb = median(bRuns);
    return { figure, a: round(ma), b: round(mb), ratio: ma === null || mb === null || mb === 0 ? null : round(ma / mb), aRuns, bRuns };
  }).filter((r) => r.aRuns.length && r.bRuns.length);
  const cell = (v) => (v === null ? '—' : String(v));
  const markdown = [
    `| median of runs | ${a} (${runs.filter((r) => r.paper === a).length} runs) | ${b} (${runs.filter((r) => r.paper === b).length} runs) | ${a} ÷ ${b} | ${a}'s runs | ${b}'s runs |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.figure} | ${cell(r.a)} | ${cell(r.b)} | ${cell(r.ratio)} | ${r.aRuns.map((v) => round(v, 1)).join(', ')} | ${r.bRuns.map((v) => round(v, 1)).join(', ')} |`),
  ].join('\n');
  return { rows, markdown };
}

/**
 * Runs `npm run bench` once (scripts/bench/run.mjs with `argv` and `--out=dir`), its output in
 * `dir.log`; returns its results-full.json.
 * @throws Error when the run fails (`what` names it)
 */
function benchOnce(argv, dir, what) {
  const runScript = fileURLToPath(new URL('./run.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [runScript, ...argv, `--out=${dir}`], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  writeFileSync(`${dir}.log`, `${r.stdout}\n${r.stderr}`);
  if (r.status !== 0) throw new Error(`${what} failed with status ${r.status}: see ${dir}.log`);
  return JSON.parse(readFileSync(join(dir, 'benchmarks', 'results-full.json'), 'utf8'));
}

/** Writes the comparison (and `extra` lines) to `out`/paper-pairs.{json,md} and prints it. */
function report(out, json, markdown, extra = '') {
  const command = `npm run bench:papers -- ${process.argv.slice(2).join(' ')}`.trim();
  const tail = extra ? `\n\n${extra}` : '';
  writeFileSync(join(out, 'paper-pairs.json'), JSON.stringify({ command, ...json }, null, 1));
  writeFileSync(join(out, 'paper-pairs.md'), `${command}\n\n${markdown}${tail}\n`);
  console.log(`\n${markdown}${tail}\n\n(${join(out, 'paper-pairs.md')})`);
}

async function main() {
  const args = Object.fromEntries(process.argv.slice(2).map((x) => { const [k, v = ''] = x.replace(/^--/, '').split('='); return [k, v]; }));
  const [a, b] = (args.papers || 'utme,flat180').split(',');
  for (const p of [a, b]) if (!PAPERS.includes(p)) throw new Error(`unknown paper ${p}; one of ${PAPERS.join(', ')}`);
  const pairs = Number(args.pairs ?? 4);
  const warmup = Number(args.warmup ?? 1);
  if (!Number.isInteger(pairs) || pairs < 1 || !Number.isInteger(warmup) || warmup < 0) throw new Error('--pairs must be a whole number ≥ 1 and --warmup ≥ 0');
  const exam = args.exam ?? '1000';
  if ('mixed' in args) return mixedMain(args, a, b, warmup, exam);
  const hall = args.hall ?? '1000';
  const out = args.out || join(tmpdir(), `hallcbt-paper-pairs-${Date.now()}`);
  mkdirSync(out, { recursive: true });
  const runs = [];
  const warmups = [];
  let k = 0;
  for (const { paper, warmup: notCounted } of runPlan(a, b, pairs, warmup)) {
    const dir = join(out, `${++k}-${paper}${notCounted ? '-warmup' : ''}`);
    const began = new Date().toISOString().slice(11, 19);
    const f = runFigures(benchOnce([`--paper=${paper}`, `--exam=${exam}`, `--hall=${hall}`], dir, `run ${k} (${paper})`));
    (notCounted ? warmups : runs).push({ run: k, began, ...f });
    console.log(`run ${k} ${paper}${notCounted ? ' (warm-up, not counted)' : ''} (${began} UTC): start p50/p90/p99 ${f.startP50}/${f.startP90}/${f.startP99} ms; save p99 ${f.saveP99 ?? '—'} ms`);
  }
  const { rows, markdown } = compareRuns(runs, a, b);
  report(out, { papers: [a, b], warmups, runs, rows }, markdown);
}

/** `--mixed`: `--runs` runs of both papers in one hall (see the module header). */
function mixedMain(args, a, b, warmup, exam) {
  const count = Number(args.runs ?? 6);
  if (!Number.isInteger(count) || count < 1) throw new Error('--runs must be a whole number ≥ 1');
  const out = args.out || join(tmpdir(), `hallcbt-paper-mix-${Date.now()}`);
  mkdirSync(out, { recursive: true });
  const runs = [];
  for (let k = 1; k <= warmup + count; k++) {
    const notCounted = k <= warmup;
    const dir = join(out, `${k}-mixed${notCounted ? '-warmup' : ''}`);
    const began = new Date().toISOString().slice(11, 19);
    const figures = mixedFigures(benchOnce([`--paper=${a}+${b}`, `--exam=${exam}`, '--hall='], dir, `run ${k}`));
    if (!notCounted) runs.push(...figures.map((f) => ({ run: k, began, ...f })));
    console.log(`run ${k}${notCounted ? ' (warm-up, not counted)' : ''} (${began} UTC): ${figures.map((f) => `${f.paper} start p50/p90/p99 ${f.startP50}/${f.startP90}/${f.startP99} ms`).join('; ')}`);
  }
  const { rows, markdown } = compareRuns(runs, a, b);
  const paired = pairedRatios(runs, a, b);
  report(out, { papers: [a, b], mixed: true, runs, rows, paired }, markdown, `Each run's own start p99 ratio (${a} ÷ ${b}, the same surge): ${paired.ratios.join(', ')}; median ${paired.median}.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`npm run bench:papers: ${e.message}`);
    process.exitCode = 1;
  });
}
