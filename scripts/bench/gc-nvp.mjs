#!/usr/bin/env node
/**
 * Sums up V8's `--trace-gc-nvp` lines (one per collection: `pause=`, `gc=s` for a scavenge
 * or `mc` for a mark-compact, `allocated=`, `new_space_survived=`, `promoted=` bytes) per
 * process, over a window of that process's clock (the `N ms:` of each line, ms since its
 * isolate started). Used to read where the 10,000-channel hall's save tail goes
 * (docs/benchmarks.md, "What the collections cost at 10,000 channels"):
 *
 *   BENCH_SERVER_NODE_ARGS="--trace-gc-nvp" npm run bench:ws -- --runs=1 --seconds=15 --server-log=/tmp/gc
 *   node scripts/bench/gc-nvp.mjs /tmp/gc-10000-1.log --from=12000 --to=26000
 *
 * Prints, per process (largest heap first): allocation MB/s, bytes the scavenges copied
 * (survived + promoted) MB/s, scavenges per second with their pause p50 / p90 / max (ms),
 * the pauses' ms per second, the mark-compacts, and the share of the window spent paused.
 * Options: --from=MS --to=MS (default: each process's whole log), --all (every process;
 * default: the largest heap only, which in a hall log is the hall's main thread).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Reads the nvp lines of a log.
 * @param {string} text a log with `[pid:isolate]  N ms: pause=… gc=s …` lines among others
 * @returns {{proc: string, t: number, f: Record<string, string>}[]} proc: the `[pid:isolate]` tag; t: ms
 */
export function parseNvp(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^(\[[^\]]+\])\s+(\d+) ms: (pause=.*\bgc=.*)$/.exec(line);
    if (!m) continue;
    const f = {};
    for (const [, k, v] of m[3].matchAll(/(\S+)=(\S+)/g)) f[k] = v;
    out.push({ proc: m[1], t: Number(m[2]), f });
  }
  return out;
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : 0);

/**
 * Figures of one process's collections within [from, to] ms (defaults: its first and last line).
 * @returns {{proc, seconds, allocMBps, copiedMBps, scavengesPerS, scavengePause: {p50, p90, max}, pauseMsPerS, markCompacts, markCompactMs, pausedShare, maxHeapMB}}
 */
export function summarise(rows, from = -Infinity, to = Infinity) {
  const w = rows.filter((r) => r.t >= from && r.t <= to);
  const t0 = Number.isFinite(from) ? from : Math.min(...w.map((r) => r.t));
  const t1 = Number.isFinite(to) ? to : Math.max(...w.map((r) => r.t));
  const seconds = Math.max(0.001, (t1 - t0) / 1000);
  const num = (r, k) => Number(r.f[k] ?? 0);
  const sc = w.filter((r) => r.f.gc === 's');
  const mc = w.filter((r) => r.f.gc === 'mc');
  const pauses = sc.map((r) => num(r, 'pause')).sort((a, b) => a - b);
  const scMs = pauses.reduce((a, b) => a + b, 0);
  const mcMs = mc.reduce((a, r) => a + num(r, 'pause'), 0);
  const r2 = (x) => Math.round(x * 100) / 100;
  return {
    proc: rows[0]?.proc ?? '',
    seconds: r2(seconds),
    allocMBps: r2(w.reduce((a, r) => a + num(r, 'allocated'), 0) / 1e6 / seconds),
    copiedMBps: r2(sc.reduce((a, r) => a + num(r, 'new_space_survived') + num(r, 'promoted'), 0) / 1e6 / seconds),
    scavengesPerS: r2(sc.length / seconds),
    scavengePause: { p50: pct(pauses, 0.5), p90: pct(pauses, 0.9), max: pauses.at(-1) ?? 0 },
    pauseMsPerS: r2((scMs + mcMs) / seconds),
    markCompacts: mc.length,
    markCompactMs: r2(mcMs),
    pausedShare: r2(((scMs + mcMs) / (seconds * 1000)) * 100),
    maxHeapMB: r2(Math.max(0, ...w.map((r) => num(r, 'total_size_after'))) / 1e6),
  };
}

/** The processes of a log, largest heap first: `[proc, rows][]`. */
export function byProcess(rows) {
  const m = new Map();
  for (const r of rows) (m.get(r.proc) ?? m.set(r.proc, []).get(r.proc)).push(r);
  const heap = (rs) => Math.max(...rs.map((r) => Number(r.f.total_size_after ?? 0)));
  return [...m.entries()].sort((a, b) => heap(b[1]) - heap(a[1]));
}

function main() {
  const files = [];
  let from = -Infinity;
  let to = Infinity;
  let all = false;
  for (const a of process.argv.slice(2)) {
    const [k, v] = a.split('=');
    if (k === '--from') from = Number(v);
    else if (k === '--to') to = Number(v);
    else if (k === '--all') all = true;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}; see scripts/bench/gc-nvp.mjs`);
    else files.push(a);
  }
  if (!files.length) throw new Error('usage: node scripts/bench/gc-nvp.mjs LOG… [--from=MS] [--to=MS] [--all]');
  for (const file of files) {
    const procs = byProcess(parseNvp(readFileSync(file, 'utf8')));
    if (!procs.length) console.log(`${file}: no --trace-gc-nvp lines`);
    for (const [, rows] of all ? procs : procs.slice(0, 1)) {
      const s = summarise(rows, from, to);
      console.log(
        `${file} ${s.proc}: ${s.seconds} s, allocated ${s.allocMBps} MB/s, copied ${s.copiedMBps} MB/s; ` +
          `${s.scavengesPerS} scavenges/s, pause p50 ${s.scavengePause.p50} p90 ${s.scavengePause.p90} max ${s.scavengePause.max} ms; ` +
          `${s.markCompacts} mark-compacts (${s.markCompactMs} ms); paused ${s.pauseMsPerS} ms/s = ${s.pausedShare} % of the time; heap ≤ ${s.maxHeapMB} MB`,
      );
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
