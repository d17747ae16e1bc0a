/**
 * `npm run bench:papers` (scripts/bench/paper-pairs.mjs, issue 37): the figures it reads from
 * a benchmark run's results and the medians and ratios it reports. Pure: no server runs here.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { compareRuns, median, mixedFigures, pairedRatios, runFigures, runPlan } from '../../scripts/bench/paper-pairs.mjs';

/** A results-full.json of scripts/bench/run.mjs, reduced to what the comparison reads. */
function results(paper: string, startP99: number, saveP99: number | null) {
  const runs: object[] = [{ scenario: 'exam', phases: { start: { requests: { start: { p50: startP99 / 10, p90: startP99 / 4, p99: startP99 } }, server: { cpuSec: 4 } } } }];
  if (saveP99 !== null) runs.push({ scenario: 'hall', phases: { hall: { requests: { save: { p99: saveP99 } } } } });
  return { paper: { name: paper }, runs };
}

describe('npm run bench:papers', () => {
  it('takes the median of an odd and an even count, and ignores what is not a number', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([null, 5, Number.NaN])).toBe(5);
    expect(median([])).toBeNull();
  });

  it('reads the start surge and the steady hall of each run, and refuses results without an exam run', () => {
    expect(runFigures(results('utme', 30, 1.5))).toMatchObject({ paper: 'utme', startP99: 30, startP50: 3, saveP99: 1.5, startCpuSec: 4 });
    expect(runFigures(results('flat180', 20, null)).saveP99).toBeNull();
    expect(() => runFigures({ paper: { name: 'utme' }, runs: [{ scenario: 'hall', phases: {} }] })).toThrow(/no exam run/);
  });

  it('plans the warm-up runs first, not counted, and then alternates which paper goes first', () => {
    const plan = runPlan('utme', 'flat180', 2, 1);
    expect(plan).toEqual([
      { paper: 'flat180', warmup: true },
      { paper: 'utme', warmup: false },
      { paper: 'flat180', warmup: false },
      { paper: 'flat180', warmup: false },
      { paper: 'utme', warmup: false },
    ]);
    expect(runPlan('utme', 'flat180', 1, 2).filter((r: { warmup: boolean }) => r.warmup).map((r: { paper: string }) => r.paper)).toEqual(['flat180', 'utme']);
    expect(runPlan('utme', 'flat180', 3).every((r: { warmup: boolean }) => !r.warmup)).toBe(true);
  });

  it('compares medians, not single runs: one slow run of the paper does not decide the ratio', () => {
    const runs = [results('utme', 80, 1.4), results('flat180', 30, 1.4), results('flat180', 32, 1.6), results('utme', 31, 1.5), results('utme', 29, null), results('flat180', 28, null)].map(runFigures);
    const { rows, markdown } = compareRuns(runs, 'utme', 'flat180');
    const p99 = rows.find((r: { figure: string }) => r.figure === 'start p99 (ms)');
    expect(p99).toMatchObject({ a: 31, b: 30, ratio: 1.03, aRuns: [80, 31, 29], bRuns: [30, 32, 28] });
    const save = rows.find((r: { figure: string }) => r.figure.startsWith('save p99'));
    expect(save).toMatchObject({ a: 1.45, b: 1.5, ratio: 0.97 });
    expect(markdown).toContain('| start p99 (ms) | 31 | 30 | 1.03 | 80, 31, 29 | 30, 32, 28 |');
    expect(markdown).toContain('utme (3 runs)');
  });

  it('--mixed: reads both papers of one surge from the same run, and pairs each run with itself', () => {
    const start = (p99: number) => ({ p50: p99 / 10, p90: p99 / 4, p99 });
    const mixed = (utme: number, flat: number) => ({
      paper: { name: 'utme+flat180', mix: [{ name: 'utme' }, { name: 'flat180' }] },
      runs: [{ scenario: 'exam', phases: { start: { requests: { start: start(Math.max(utme, flat)), 'start:utme': start(utme), 'start:flat180': start(flat) }, server: { cpuSec: 4 } } } }],
    });
    expect(mixedFigures(mixed(22, 20))).toEqual([
      { paper: 'utme', startP50: 2.2, startP90: 5.5, startP99: 22, startCpuSec: null, saveP99: null },
      { paper: 'flat180', startP50: 2, startP90: 5, startP99: 20, startCpuSec: null, saveP99: null },
    ]);
    const noFlat = mixed(22, 20);
    delete (noFlat.runs[0]!.phases.start.requests as Record<string, unknown>)['start:flat180'];
    expect(() => mixedFigures(noFlat)).toThrow(/no starts of flat180/);
    // one surge with a long disk stall lifts both papers' p99 together: the run's own ratio stays near 1
    const runs = [mixed(22, 20), mixed(200, 190), mixed(15, 16)].flatMap((r, i) => mixedFigures(r).map((f: object) => ({ run: i + 1, ...f })));
    expect(pairedRatios(runs, 'utme', 'flat180')).toEqual({ ratios: [1.1, 1.05, 0.94], median: 1.05 });
    // the run-by-run table leaves out what a mixed run cannot tell apart (server CPU per paper)
    expect(compareRuns(runs, 'utme', 'flat180').rows.map((r: { figure: string }) => r.figure)).toEqual(['start p50 (ms)', 'start p90 (ms)', 'start p99 (ms)']);
  });
});
