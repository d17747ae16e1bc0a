/**
 * Where a crash campaign's wall time goes, phase by phase (issue 34: a round of the long
 * run took ~3.9 s against the ~2.5 s of uptime and downtime it was configured for).
 *
 * `PhaseClock` sums, per named phase, how often it ran, the milliseconds it took in
 * total and at most. Phases on the campaign's own path (start-up wait, uptime, kill,
 * power-cut steps, on-disk checks, rest of the downtime…) add up to a round's wall time;
 * phases marked "within uptime" overlap the uptime and are reported for information
 * (e.g. how long the recovery of every candidate took after a restart). The summary goes
 * into the campaign's report (report.ts, `campaignBlock`; tally.ts adds the mean round) and to
 * the console (scripts/soak.ts).
 */

/** One phase's figures: count, total and longest, ms. */
export interface PhaseFigures {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** Per-phase timings of one campaign, in the order the phases first ran. */
export class PhaseClock {
  readonly phases = new Map<string, PhaseFigures>();

  /** Records one run of `phase` that took `ms` milliseconds. */
  add(phase: string, ms: number): void {
    const f = this.phases.get(phase) ?? { count: 0, totalMs: 0, maxMs: 0 };
    f.count++;
    f.totalMs += ms;
    if (ms > f.maxMs) f.maxMs = ms;
    this.phases.set(phase, f);
  }

  /** Runs `fn` (sync or async) and records its duration under `phase`; returns its result. */
  time<T>(phase: string, fn: () => T): T {
    const t0 = performance.now();
    const done = () => this.add(phase, performance.now() - t0);
    const out = fn();
    if (out instanceof Promise) return out.finally(done) as T;
    done();
    return out;
  }

  /**
   * The summary as table rows: phase, count, total seconds, mean and longest ms, share of
   * `wallMs` (the campaign's wall time). Phases that overlap others are named so.
   */
  rows(wallMs: number): [string, string, string, string, string, string][] {
    return [...this.phases].map(([name, f]) => [
      name,
      String(f.count),
      (f.totalMs / 1000).toFixed(1),
      f.count ? (f.totalMs / f.count).toFixed(0) : '0',
      f.maxMs.toFixed(0),
      wallMs > 0 ? `${((100 * f.totalMs) / wallMs).toFixed(1)} %` : '–',
    ]);
  }
}

/** The phase table as Markdown (the campaign report's "where the time went"). */
export function phaseTable(clock: PhaseClock, wallMs: number): string {
  const head = '| phase | count | total (s) | mean (ms) | longest (ms) | share of wall time |';
  return [head, '|---|---|---|---|---|---|', ...clock.rows(wallMs).map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
