/** Scheduled jobs of the optional modules (backups), registered with the core ones. */
import type { AppDeps } from './platform/deps.js';
import type { Job } from './platform/scheduler.js';

/** Extra jobs for these deps. */
export function extraJobs(_deps: AppDeps): Job[] {
  return [];
}
