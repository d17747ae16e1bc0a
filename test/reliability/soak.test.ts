/**
 * The crash campaign at CI size (issue 9: "5 in CI"): the real server process, five
 * SIGKILLs at random moments under a small candidate load, restarts on the same data
 * directory, and every check of the full `npm run soak` — acknowledged answers present
 * on disk and through the API, integrity_check ok, exactly one completed event per
 * completed attempt and no second event id at the receiver, downtime credited, and
 * candidates converging after replaying their queues.
 */
import { describe, expect, it } from 'vitest';
import { runCampaign } from '../../scripts/soak/campaign.js';
import { failed, failureSamples } from '../../scripts/soak/tally.js';
import { powerCutUnavailable } from '../../scripts/soak/power-cut.js';

describe('crash campaign (CI size)', () => {
  it('survives 5 SIGKILLs with nothing acknowledged lost and one event per completed attempt', async () => {
    // every round under load reaches 10 acknowledged saves before its kill, however slow the
    // machine (CI under the full suite once acknowledged only 29 in all rounds together)
    const t = await runCampaign({ kills: 5, candidates: 6, startupKillShare: 0.2, minSavesPerRound: 10 });
    expect(failureSamples(t), 'failures').toEqual([]);
    expect(failed(t)).toBe(false);
    expect(t.kills).toBe(5);
    expect(t.restarts).toBe(5);
    expect(t.thinRounds).toEqual([]);
    expect(t.roundsAtMinimum).toBeGreaterThan(0);
    expect(t.savesAcknowledged).toBeGreaterThanOrEqual(10 * t.roundsAtMinimum);
    expect(t.answersChecked).toBeGreaterThan(0);
    expect(t.integrityChecks).toBe(6);
    expect(t.convergenceChecks).toBeGreaterThan(0);
    // every candidate ends COMPLETED, and each completion reached the receiver once (by id)
    expect(t.completedAttempts).toBe(6);
    expect(t.distinctEventsReceived).toBe(6);
    expect(t.duplicateEventIds).toBe(0);
    // outages longer than the clock tolerance happened, so a missing credit would have failed
    expect(t.creditChecksDiscriminating).toBeGreaterThan(0);
    // where the time went (scripts/soak/phases.ts): every round timed, and the rounds within the wall time
    const round = t.phases.phases.get('round, total');
    expect(round?.count).toBe(5);
    expect(round!.totalMs).toBeLessThan(t.wallSeconds * 1000);
    expect(t.phases.phases.get('on-disk checks (a, b, c), total')?.count).toBe(5);
  }, 120_000);
});

const noPowerCut = powerCutUnavailable();
if (noPowerCut) console.log(`crash campaign power-cut rounds skipped: ${noPowerCut}`);

describe.skipIf(noPowerCut !== null)('crash campaign with power cuts (CI size, root + loop devices)', () => {
  // The data directory is on ext4 on a loop device; at a cut only what that filesystem had
  // written to the device survives (scripts/soak/power-cut.ts). The first round is a cut
  // right after the first start: a key file written without fsync came back empty.
  // Only FULL (the default) promises this; NORMAL loses recent commits at a power cut, as
  // docs/reliability.md says, and the long run (npm run soak) counts how many.
  for (const synchronous of ['FULL'] as const) {
    it(`synchronous=${synchronous}: 2 power cuts and 2 SIGKILLs lose nothing acknowledged`, async () => {
      const t = await runCampaign({ kills: 4, powerCuts: 2, candidates: 6, synchronous, startupKillShare: 0 });
      expect(failureSamples(t), 'failures').toEqual([]);
      expect(t.powerCutsSkipped).toBeNull();
      expect(t.powerCuts).toBe(2);
      expect(t.kills).toBe(4);
      expect(t.answersChecked).toBeGreaterThan(0);
      expect(t.completedAttempts).toBe(6);
    }, 180_000);
  }
});
