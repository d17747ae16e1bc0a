/**
 * Scheduled jobs, registered in one place with stable names (docs/design.md §13): node-cron for the
 * second-granular jobs (outbox dispatch, expiry sweep, heartbeat) and a plain interval
 * for the answer flush, whose period is in milliseconds (CBT_FLUSH_INTERVAL_MS).
 * A job never overlaps itself; every job stops on shutdown.
 */
import cron from 'node-cron';
import type { Logger } from './logger.js';

export interface Job {
  name: string;
  /** a node-cron expression with seconds, or an interval in ms */
  every: string | number;
  run: () => unknown | Promise<unknown>;
}

export class Scheduler {
  private readonly stops: (() => void)[] = [];
  constructor(private readonly logger: Logger) {}

  /** Starts a job. */
  add(job: Job): void {
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        await job.run();
      } catch (e) {
        this.logger.error('scheduled job failed', { job: job.name, error: String(e) });
      } finally {
        busy = false;
      }
    };
    if (typeof job.every === 'number') {
      const t = setInterval(tick, job.every);
      this.stops.push(() => clearInterval(t));
    } else {
      const task = cron.schedule(job.every, tick, { name: job.name, noOverlap: true });
      this.stops.push(() => void task.stop());
    }
  }

  /** Stops every job. */
  stopAll(): void {
    for (const s of this.stops.splice(0)) s();
  }
}
