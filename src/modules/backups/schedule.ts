/**
 * Scheduled backups (issue 9: every CBT_BACKUP_INTERVAL_MINS minutes, 10 by default; 0 turns
 * them off). A node-cron job named `backups` ticks every minute and takes a backup when the
 * minute count since the epoch is a multiple of the interval: any interval works (7, 90,
 * 1440 = daily at 00:00 UTC), the times are predictable, and a restart does not shift them.
 */
import cron from 'node-cron';
import type { Job } from '../../platform/scheduler.js';
import { backupInFlight, runBackup, type BackupDeps, type BackupResult } from './service.js';

/** true when a backup is due in the minute containing `nowMs`. */
export function backupDue(nowMs: number, intervalMins: number): boolean {
  if (intervalMins <= 0) return false;
  return Math.floor(nowMs / 60_000) % intervalMins === 0;
}

/**
 * One scheduler tick: backs up when due and no backup is already running.
 * Never throws: a failure is logged (`backup.failed`) and the next tick tries again.
 * @returns the backup taken, or null
 */
export async function backupTick(deps: BackupDeps): Promise<BackupResult | null> {
  if (!backupDue(deps.clock.now(), deps.config.CBT_BACKUP_INTERVAL_MINS)) return null;
  if (backupInFlight(deps.sqlite)) return null;
  try {
    return await runBackup(deps);
  } catch (err) {
    deps.logger.error('backup.failed', { error: (err as Error).message });
    return null;
  }
}

/**
 * The backup job for the shared Scheduler (src/platform/scheduler.ts): checks at second 0
 * of every minute. null when CBT_BACKUP_INTERVAL_MINS is 0 (scheduled backups off).
 */
export function backupJob(deps: BackupDeps): Job | null {
  if (deps.config.CBT_BACKUP_INTERVAL_MINS <= 0) return null;
  return { name: 'backups', every: '0 * * * * *', run: () => backupTick(deps) };
}

/**
 * Starts the scheduled backups on their own (when not using the shared Scheduler).
 * @returns stop(): ends the schedule (a backup already running still finishes)
 */
export function scheduleBackups(deps: BackupDeps): () => void {
  if (deps.config.CBT_BACKUP_INTERVAL_MINS <= 0) {
    deps.logger.info('backup.schedule_disabled', {});
    return () => undefined;
  }
  const task = cron.schedule('* * * * *', () => backupTick(deps), { name: 'backups', noOverlap: true });
  deps.logger.info('backup.scheduled', { everyMins: deps.config.CBT_BACKUP_INTERVAL_MINS, keep: deps.config.CBT_BACKUP_KEEP });
  return () => {
    void task.destroy();
  };
}
