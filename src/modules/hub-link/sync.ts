/**
 * The hall's periodic sync with its hub, whenever the internet is there (issue #24 §3, §5):
 * fetch packages it does not have yet, ask for the release of each sealed package whose
 * start is at most 5 minutes away (the hub refuses earlier), and send a heartbeat
 * (attempts in progress, package states, and for each released package its release proof,
 * without which the hub does not count the release). A failure of any kind (unreachable, a
 * reply over its limit, not JSON, the wrong shape, a bad signature, an error status) is
 * recorded on the link in one generic sentence (details in the log) and the scheduled job
 * backs off (link-state.ts); a hall with no internet simply keeps what it has.
 */
import { z } from 'zod';
import { releasePayloadSchema } from '../../core/sync/messages.js';
import type { HallDeps } from '../../hall/deps.js';
import { signedHubRequest, verifiedFromHub, HubUnavailable, HUB_FAILED_TEXT } from './link.js';
import type { HubLinkRow } from '../../db/rows.js';
import { linkSignal, recordSync, syncDue } from './link-state.js';
import { listPackages, releasePackage, storePackage } from './packages.js';
import { deliverHubResults } from './results.js';

/** How early before its start a sealed package is asked for online (the hub's own rule). */
const RELEASE_LEAD_MS = 5 * 60_000;

export interface SyncReport {
  received: string[];
  released: string[];
  error: string | null;
}

/** The package list's shape (docs/hub-protocol.md, "Sealed paper package"); more fields are ignored. */
const packageListSchema = z.array(z.object({ packageId: z.string().min(1).max(64) }).passthrough()).max(1000);

/** One sync of one workspace's link. Never throws: the report carries the error. */
export async function syncWithHub(deps: HallDeps, link: HubLinkRow): Promise<SyncReport> {
  const report: SyncReport = { received: [], released: [], error: null };
  const removed = linkSignal(deps, link.workspace_id); // aborted when the link is removed mid-sync
  try {
    const list = await signedHubRequest(deps, link, 'GET', '/hub/v1/packages');
    if (list.status !== 200) throw new Error(`the hub answered HTTP ${list.status} to the package list`);
    const listed = packageListSchema.safeParse(list.json);
    if (!listed.success) throw new Error('the package list does not have the expected shape');
    const have = new Set(listPackages(deps, link.workspace_id).map((p) => p.package_id));
    for (const p of listed.data) {
      if (have.has(p.packageId)) continue;
      const got = await signedHubRequest(deps, link, 'GET', `/hub/v1/packages/${encodeURIComponent(p.packageId)}`);
      if (got.status !== 200) throw new Error(`the hub answered HTTP ${got.status} for package ${p.packageId}`);
      if (storePackage(deps, link, got.json, 'hub').isNew) report.received.push(p.packageId);
    }
    const now = deps.clock.now();
    for (const p of listPackages(deps, link.workspace_id)) {
      if (p.state !== 'SEALED' || p.starts_at - RELEASE_LEAD_MS > now) continue;
      const rel = await signedHubRequest(deps, link, 'POST', `/hub/v1/releases/${encodeURIComponent(p.package_id)}`);
      if (rel.status !== 200) continue; // too early by the hub's clock, or refused: the typed code remains
      const payload = releasePayloadSchema.safeParse(verifiedFromHub(link, rel.json));
      if (!payload.success || payload.data.packageId !== p.package_id || payload.data.hallId !== link.hall_id) continue;
      releasePackage(deps, link, p.package_id, payload.data.releaseCode, 'hub');
      report.released.push(p.package_id);
    }
    const inProgress = (deps.sqlite.prepare("SELECT count(*) AS n FROM attempts WHERE workspace_id = ? AND status = 'IN_PROGRESS'").get(link.workspace_id) as { n: number }).n;
    await signedHubRequest(deps, link, 'POST', '/hub/v1/heartbeat', { inProgress, packages: listPackages(deps, link.workspace_id).map((p) => ({ packageId: p.package_id, state: p.state, ...(p.release_proof ? { releaseProof: p.release_proof } : {}) })) });
    deps.sqlite.prepare('UPDATE hub_links SET last_sync_at = ?, last_error = NULL WHERE workspace_id = ?').run(deps.clock.now(), link.workspace_id);
    if (!removed.aborted) recordSync(deps, link.workspace_id, true, deps.clock.now());
  } catch (e) {
    // HubUnavailable was logged where it happened; anything else (shape, signature) is logged here
    if (!(e instanceof HubUnavailable)) deps.logger.warn('hub-link sync failed', { hub: link.hub_url, reason: e instanceof Error ? e.message : String(e) });
    report.error = HUB_FAILED_TEXT;
    deps.sqlite.prepare('UPDATE hub_links SET last_error = ? WHERE workspace_id = ?').run(report.error, link.workspace_id);
    if (!removed.aborted) recordSync(deps, link.workspace_id, false, deps.clock.now());
  }
  return report;
}

/** The scheduled job's body: sync every linked workspace not in its backoff wait, then send results up. */
export async function hubSyncRun(deps: HallDeps): Promise<void> {
  const links = deps.sqlite.prepare('SELECT * FROM hub_links').all() as HubLinkRow[];
  for (const link of links) if (syncDue(deps, link.workspace_id, deps.clock.now())) await syncWithHub(deps, link);
  await deliverHubResults(deps);
}
