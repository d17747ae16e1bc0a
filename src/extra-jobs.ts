/** Scheduled jobs of the optional modules (backups), registered with the core ones. */
import type { AppDeps } from './platform/deps.js';
import type { Job } from './platform/scheduler.js';
import { backupJob } from './modules/backups/schedule.js';

/** Extra jobs for these deps. */
export function extraJobs(deps: AppDeps): Job[] {
  const backups = backupJob(deps);
  return backups ? [backups] : [];
}
