/**
 * The hall's periodic sync with its hub, whenever the internet is there (issue #24 §3, §5):
 * fetch packages it does not have yet, ask for the release of each sealed package whose
 * start is at most 5 minutes away (the hub refuses earlier), and send a heartbeat
 * (attempts in progress, package states, and for each released package its release proof,
 * without which the hub does not count the release). Failures are recorded on the link and retried
 * at the next run; a hall with no internet simply keeps what it has.
 */
import { releasePayloadSchema } from '../../core/sync/messages.js';
import type { HallDeps } from '../../hall/deps.js';
import { signedHubRequest, verifiedFromHub, HubUnavailable, type HubLinkRow } from './link.js';
import { listPackages, releasePackage, storePackage } from './packages.js';
import { deliverHubResults } from './results.js';

/** How early before its start a sealed package is asked for online (the hub's own rule). */
export const RELEASE_LEAD_MS = 5 * 60_000;

export interface SyncReport {
  received: string[];
  released: string[];
  error: string | null;
}

/** One sync of one workspace's link. Never throws: the report carries the error. */
export async function syncWithHub(deps: HallDeps, link: HubLinkRow): Promise<SyncReport> {
  const report: SyncReport = { received: [], released: [], error: null };
  try {
    const list = await signedHubRequest(deps, link, 'GET', '/hub/v1/packages');
    if (list.status !== 200) throw new HubUnavailable(`the hub answered HTTP ${list.status} to the package list: ${list.json?.detail ?? ''}`);
    const have = new Set(listPackages(deps, link.workspace_id).map((p) => p.package_id));
    for (const p of list.json as { packageId: string }[]) {
      if (have.has(p.packageId)) continue;
      const got = await signedHubRequest(deps, link, 'GET', `/hub/v1/packages/${encodeURIComponent(p.packageId)}`);
      if (got.status !== 200) throw new HubUnavailable(`the hub answered HTTP ${got.status} for package ${p.packageId}`);
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
  } catch (e) {
    report.error = e instanceof Error ? e.message : String(e);
    deps.sqlite.prepare('UPDATE hub_links SET last_error = ? WHERE workspace_id = ?').run(report.error, link.workspace_id);
  }
  return report;
}

/** The scheduled job's body: sync every linked workspace, then send results up. */
export async function hubSyncRun(deps: HallDeps): Promise<void> {
  const links = deps.sqlite.prepare('SELECT * FROM hub_links').all() as HubLinkRow[];
  for (const link of links) await syncWithHub(deps, link);
  await deliverHubResults(deps);
}
