/** Scheduled jobs of the optional modules (backups), registered with the core ones. */
import type { AppDeps } from './platform/deps.js';
import type { Job } from './platform/scheduler.js';
import { backupJob } from './modules/backups/schedule.js';
import { hubSyncRun } from './modules/hub-link/sync.js';

/** Extra jobs for these deps. */
export function extraJobs(deps: AppDeps): Job[] {
  const backups = backupJob(deps);
  // the hub link: packages down, releases, heartbeat, results up (nothing to do without a link)
  const hubSync: Job = { name: 'hub-sync', every: 15_000, run: () => hubSyncRun(deps) };
  return backups ? [backups, hubSync] : [hubSync];
}
