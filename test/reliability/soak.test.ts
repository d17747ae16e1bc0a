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

describe('crash campaign (CI size)', () => {
  it('survives 5 SIGKILLs with nothing acknowledged lost and one event per completed attempt', async () => {
    const t = await runCampaign({ kills: 5, candidates: 6, startupKillShare: 0.2 });
    expect(failureSamples(t), 'failures').toEqual([]);
    expect(failed(t)).toBe(false);
    expect(t.kills).toBe(5);
    expect(t.restarts).toBe(5);
    expect(t.savesAcknowledged).toBeGreaterThan(30);
    expect(t.answersChecked).toBeGreaterThan(0);
    expect(t.integrityChecks).toBe(6);
    expect(t.convergenceChecks).toBeGreaterThan(0);
    // every candidate ends COMPLETED, and each completion reached the receiver once (by id)
    expect(t.completedAttempts).toBe(6);
    expect(t.distinctEventsReceived).toBe(6);
    expect(t.duplicateEventIds).toBe(0);
    // outages longer than the clock tolerance happened, so a missing credit would have failed
    expect(t.creditChecksDiscriminating).toBeGreaterThan(0);
  }, 120_000);
});
