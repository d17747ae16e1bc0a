/**
 * What the hall keeps in memory about each hub link (issue #34, finding 1): how many syncs
 * in a row have failed, when the scheduled job may try again, and an AbortController whose
 * signal every request of the link carries, so that removing the link hangs up at once.
 *
 * Backoff: after n failures in a row the next scheduled sync waits HUB_FIRST_BACKOFF_MS ×
 * 2^(n−1), at most HUB_MAX_BACKOFF_MS (30 s, 1 min, 2 min … 15 min); a successful sync
 * clears it. An operator's "Sync now" is not held back. The state is per process: after a
 * restart a failing hub is tried once at the first run, then backs off again
 * (docs/decisions.md, "Hub addresses and the operator credential").
 */
import type { HallDeps } from '../../hall/deps.js';

/** First wait after a failed sync (the job itself runs every 15 s). */
export const HUB_FIRST_BACKOFF_MS = 30_000;
/** Longest wait between scheduled syncs of a failing link. */
export const HUB_MAX_BACKOFF_MS = 15 * 60_000;

interface LinkState {
  failures: number;
  /** epoch ms before which the scheduled job leaves the link alone */
  nextSyncAt: number;
  controller: AbortController;
}

const byDeps = new WeakMap<HallDeps, Map<string, LinkState>>();

function stateOf(deps: HallDeps, workspaceId: string): LinkState {
  let m = byDeps.get(deps);
  if (!m) byDeps.set(deps, (m = new Map()));
  let s = m.get(workspaceId);
  if (!s) m.set(workspaceId, (s = { failures: 0, nextSyncAt: 0, controller: new AbortController() }));
  return s;
}

/** Wait (ms) after `failures` failed syncs in a row. */
export function hubBackoffMs(failures: number): number {
  return failures <= 0 ? 0 : Math.min(HUB_MAX_BACKOFF_MS, HUB_FIRST_BACKOFF_MS * 2 ** (failures - 1));
}

/** The signal every request of this workspace's link carries (aborted when the link is removed). */
export function linkSignal(deps: HallDeps, workspaceId: string): AbortSignal {
  return stateOf(deps, workspaceId).controller.signal;
}

/** Whether the scheduled job may sync this link at `now` (ms). */
export function syncDue(deps: HallDeps, workspaceId: string, now: number): boolean {
  return stateOf(deps, workspaceId).nextSyncAt <= now;
}

/** Records a sync's outcome: a failure lengthens the wait, a success clears it. */
export function recordSync(deps: HallDeps, workspaceId: string, ok: boolean, now: number): void {
  const s = stateOf(deps, workspaceId);
  s.failures = ok ? 0 : s.failures + 1;
  s.nextSyncAt = ok ? 0 : now + hubBackoffMs(s.failures);
}

/** Failures in a row and the time of the next scheduled try (null: the next run of the job). */
export function syncBackoff(deps: HallDeps, workspaceId: string): { failures: number; nextSyncAt: number | null } {
  const s = stateOf(deps, workspaceId);
  return { failures: s.failures, nextSyncAt: s.failures ? s.nextSyncAt : null };
}

/** Aborts every request of the link and forgets its state (the link was removed). */
export function forgetLink(deps: HallDeps, workspaceId: string): void {
  const m = byDeps.get(deps);
  m?.get(workspaceId)?.controller.abort();
  m?.delete(workspaceId);
}
