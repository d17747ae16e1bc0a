/**
 * Issue #34, finding 2: one candidate flooding its save channel with tiny malformed frames
 * froze every other channel (other candidates' save p99 16.4 s, /health 16 s during a
 * 15 s flood). The real server runs as its own process; the load comes from two more
 * (scripts/bench/channel-flood.mjs): 50 honest candidates on their channels, saving
 * 200 times a second between them (a 1,000-candidate hall saving every 5 s) and timing
 * /health every 50 ms, first alone (8 s, the baseline), then for 8 s beside a flooder
 * that writes malformed frames as fast as its socket takes them and reopens its channel
 * at once whenever it is closed. Before the budgets the flood phase's save p99 and /health
 * were seconds (4.2 s and 4.3 s here, against ~12 ms and ~28 ms alone).
 *
 * Timed, so it runs in `npm run test:timed`, not `npm test` (docs/decisions.md, "No timing
 * assertion in npm test"); what must hold whatever the timing is tested in `npm test`
 * (test/security/channel-flood.test.ts).
 *
 * Bounds, each against the same run's baseline:
 * - save p99 with the flood ≤ 2 × max(baseline p99, twin p99, 5 ms): the twin is a second
 *   hall process with its own 50 honest candidates and no flooder, measured during the flood
 *   phase (other test files load this shared 2-core machine in bursts; the twin sees the same
 *   bursts as the flooded hall); the 5 ms floor because a sub-millisecond baseline would turn
 *   one scheduler hiccup into a failure; the attack it guards against costs seconds, not
 *   milliseconds.
 * - /health max with the flood < max(100 ms, 2 × the baseline's or the twin's /health max): 100 ms is the
 *   issue's bound on an idle machine; where other jobs share the two cores the baseline's
 *   own max is already tens of ms (a single slow sample in 160), so the bound follows it,
 *   still two orders of magnitude under what the flood did.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { measureChannelFlood } from '../../scripts/bench/channel-flood.mjs';

type Summary = { n: number; p50: number; p99: number; max: number };
type Phase = { saves: Summary; errors: number; health: Summary; closes: number };
interface Measured {
  baseline: Phase;
  flood: Phase;
  twin: Phase;
  flooder: { connections: number; opened: number; refused: Record<string, number>; closeCodes: Record<string, number>; frames: number; bytes: number };
}

describe('one candidate flooding its save channel', () => {
  it('leaves the other candidates’ saves within 2× of their p99 without it, and /health fast', async () => {
    const m = (await measureChannelFlood({ candidates: 50, seconds: 8, everyMs: 250, healthEveryMs: 50, warm: 2, twin: true, log: console.log })) as Measured;
    console.log(JSON.stringify({ baseline: m.baseline, flood: m.flood, twin: m.twin, flooder: { ...m.flooder, retryAfter: undefined } }));
    expect(m.twin.errors).toBe(0);
    expect(m.twin.saves.n).toBeGreaterThan(0.8 * m.baseline.saves.n);
    expect(m.flood.saves.p99).toBeLessThanOrEqual(2 * Math.max(m.baseline.saves.p99, m.twin.saves.p99, 5));
    expect(m.flood.health.max).toBeLessThan(Math.max(100, 2 * Math.max(m.baseline.health.max, m.twin.health.max)));
    // every honest save was answered, none refused, no honest channel closed, and about as
    // many went through as without the flood
    expect(m.baseline.errors + m.flood.errors).toBe(0);
    expect(m.flood.closes).toBe(0);
    expect(m.flood.saves.n).toBeGreaterThan(0.8 * m.baseline.saves.n);
    // the flood happened: megabytes of frames written; the channel closed over its budget
    // and its reopening refused (the seat slowed), not served
    expect(m.flooder.bytes).toBeGreaterThan(1_000_000);
    expect(m.flooder.closeCodes['4429']).toBeGreaterThanOrEqual(1);
    expect(m.flooder.refused['429'] ?? 0).toBeGreaterThan(0);
  }, 90_000);
});
