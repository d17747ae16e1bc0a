/**
 * Writes campaign figures into docs/reliability.md. Each result goes between its own
 * markers (`<!-- soak:FULL -->` … `<!-- /soak:FULL -->`, likewise NORMAL and
 * throughput), so the prose around them is kept and a new run replaces only its block.
 * A block whose markers are missing is appended at the end.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { phaseTable } from './phases.js';
import { tallyRows, type Tally } from './tally.js';
import type { ThroughputResult } from './throughput.js';
import { ROOT } from './server-process.js';

export const REPORT_FILE = `${ROOT}docs/reliability.md`;

function table(rows: [string, string][]): string {
  return ['| figure | value |', '|---|---|', ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n');
}

/** The Markdown block of one campaign: the figures, then where the wall time went (phases.ts). */
export function campaignBlock(t: Tally, command: string, seed: number): string {
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const phases = `Where the wall time went (phases marked "within uptime" or "overlaps" are part of others):\n\n${phaseTable(t.phases, t.wallSeconds * 1000)}`;
  return `Command: \`${command}\` (seed ${seed}), run ${when}.\n\n${table(tallyRows(t))}\n\n${phases}`;
}

/** `a–b` over the runs of one setting (or `a` when they agree). */
function span(runs: ThroughputResult[], f: (r: ThroughputResult) => number): string {
  const v = runs.map(f);
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

/** The Markdown block of the throughput measurement (a range when a setting ran more than once). */
export function throughputBlock(results: ThroughputResult[], command: string): string {
  const cols: [string, (r: ThroughputResult[]) => string][] = [
    ['answer saves per second (25 candidates back to back)', (r) => span(r, (x) => x.savesPerSecond)],
    ['save latency p50 (ms)', (r) => span(r, (x) => x.saveP50Ms)],
    ['save latency p99 (ms)', (r) => span(r, (x) => x.saveP99Ms)],
    ['durability lag p50 (ms): save acknowledged → covered by durableSeq', (r) => span(r, (x) => x.durableLagP50Ms)],
    ['durability lag p99 (ms)', (r) => span(r, (x) => x.durableLagP99Ms)],
    ['longest flush transaction in the server (ms)', (r) => span(r, (x) => x.flushMaxBatchMs)],
    ['single-row WAL commits per second on this disk', (r) => span(r, (x) => x.commitsPerSecond)],
    ['one 400-row flush batch (ms)', (r) => span(r, (x) => x.batch400Ms)],
  ];
  const modes = [...new Set(results.map((r) => r.synchronous))];
  const runs = modes.map((m) => results.filter((r) => r.synchronous === m));
  const head = `| figure | ${modes.map((m, i) => `synchronous=${m} (${runs[i]!.length} runs)`).join(' | ')} |`;
  const sep = `|---|${modes.map(() => '---').join('|')}|`;
  const rows = cols.map(([name, f]) => `| ${name} | ${runs.map(f).join(' | ')} |`);
  return `Command: \`${command}\`, run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}.\n\n${[head, sep, ...rows].join('\n')}`;
}

/** Replaces (or appends) the block named `name` in docs/reliability.md. */
export function writeBlock(name: string, markdown: string, file = REPORT_FILE): void {
  const open = `<!-- soak:${name} -->`;
  const close = `<!-- /soak:${name} -->`;
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Reliability\n';
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  const block = `${open}\n${markdown}\n${close}`;
  const next = a >= 0 && b > a ? doc.slice(0, a) + block + doc.slice(b + close.length) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
