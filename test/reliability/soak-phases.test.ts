/**
 * The crash campaign's own bookkeeping (issue 34): where a round's wall time goes
 * (scripts/soak/phases.ts, printed and written into docs/reliability.md with the
 * figures) and the candidates' pauses that end at the kill (scripts/soak/pauses.ts).
 */
import { describe, expect, it } from 'vitest';
import { PhaseClock, phaseTable } from '../../scripts/soak/phases.js';
import { Pauses } from '../../scripts/soak/pauses.js';
import { campaignBlock } from '../../scripts/soak/report.js';
import { newTally, tallyRows } from '../../scripts/soak/tally.js';

describe('campaign phase timings', () => {
  it('sums count, total and longest per phase, sync and async', async () => {
    const clock = new PhaseClock();
    clock.add('kill', 40);
    clock.add('kill', 100);
    expect(clock.time('check', () => 7)).toBe(7);
    await clock.time('wait', () => new Promise((r) => setTimeout(r, 30)));
    const kill = clock.phases.get('kill')!;
    expect(kill).toEqual({ count: 2, totalMs: 140, maxMs: 100 });
    expect(clock.phases.get('check')!.count).toBe(1);
    expect(clock.phases.get('wait')!.totalMs).toBeGreaterThanOrEqual(25);
    expect([...clock.phases.keys()]).toEqual(['kill', 'check', 'wait']);
    const row = clock.rows(1000)[0]!;
    expect(row).toEqual(['kill', '2', '0.1', '70', '100', '14.0 %']);
    expect(phaseTable(clock, 1000)).toContain('| kill | 2 | 0.1 | 70 | 100 | 14.0 % |');
  });

  it('goes into the report block with the mean round against the configured times', () => {
    const t = newTally('FULL', 2, 20);
    t.wallSeconds = 10;
    t.phases.add('round, total', 4000);
    t.phases.add('round, total', 2000);
    t.phases.add('uptime under load (configured)', 2000);
    t.phases.add('rest of the downtime (configured)', 1000);
    expect(tallyRows(t).find(([k]) => k.startsWith('mean time per round'))![1]).toBe('3.00 s (1.50 s)');
    const block = campaignBlock(t, 'npm run soak', 1);
    expect(block).toContain('Where the wall time went');
    expect(block).toContain('| round, total | 2 | 6.0 | 3000 | 4000 | 60.0 % |');
  });
});

describe('candidate pauses', () => {
  it('end at wakeAll (the kill), not after their whole length', async () => {
    const pauses = new Pauses();
    const t0 = performance.now();
    const all = Promise.all([pauses.pause(10_000), pauses.pause(20_000)]);
    setTimeout(() => pauses.wakeAll(), 20);
    await all;
    expect(performance.now() - t0).toBeLessThan(2_000);
    // a pause after the wake runs its own length
    const t1 = performance.now();
    await pauses.pause(30);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(25);
  });
});
