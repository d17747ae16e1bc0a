/**
 * Time-keeping jobs (docs/design.md §7): the expiry sweep auto-submits attempts whose time ran
 * out (after the 30 s grace for late saves), and the heartbeat records that the server
 * is alive so that, after a power cut, the downtime is credited to every attempt that
 * was in progress. Both run from the scheduler in main.ts; tests call them directly.
 */
import type { HallDeps } from '../../hall/deps.js';
import { relaxedSync } from '../../db/index.js';
import { finalizeAttempt } from './finalize.js';
import { GRACE_MS } from './timer.js';

/**
 * Finalizes every in-progress attempt whose time (and grace) is over, paused exams aside;
 * the time allowed is timer.ts `allowedMs` (roster extra time included), written in SQL.
 * @returns ids of the attempts submitted
 */
export function sweepExpired(deps: HallDeps): string[] {
  const now = deps.clock.now();
  const due = deps.sqlite
    .prepare(
      `SELECT a.id FROM attempts a JOIN exams e ON e.id = a.exam_id
       WHERE a.status = 'IN_PROGRESS' AND e.paused_at IS NULL AND (
         a.started_at + a.credited_ms + e.duration_mins * 600 * (100 + a.extra_time_percent) + (a.extra_time_mins * 60 + a.extra_seconds) * 1000 + ? <= ?
         OR (e.ends_at IS NOT NULL AND e.ends_at + ? <= ?))`,
    )
    .all(GRACE_MS, now, GRACE_MS, now) as { id: string }[];
  const done: string[] = [];
  for (const { id } of due) {
    try {
      finalizeAttempt(deps, id, { autoSubmitted: true });
      done.push(id);
    } catch (e) {
      deps.logger.error('expiry sweep could not submit an attempt', { attemptId: id, error: String(e) });
    }
  }
  return done;
}

const HEARTBEAT_KEY = 'heartbeat';

/** Records "alive at now" (epoch ms). */
export function writeHeartbeat(deps: HallDeps): void {
  // a power cut may lose the last 2 s of heartbeat: candidates get at most that much extra time
  relaxedSync(deps.sqlite, () => deps.sqlite.prepare('INSERT INTO system_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(HEARTBEAT_KEY, String(deps.clock.now())));
}

/**
 * At start-up: credits the time since the last heartbeat to every attempt in progress
 * (exams paused at the time are skipped: their pause is credited on resume). Each
 * attempt gets at most the time since it started.
 * @returns `{downtimeMs, attempts}` credited
 */
export function creditDowntime(deps: HallDeps): { downtimeMs: number; attempts: number } {
  const row = deps.sqlite.prepare('SELECT value FROM system_state WHERE key = ?').get(HEARTBEAT_KEY) as { value: string } | undefined;
  const now = deps.clock.now();
  if (!row) {
    writeHeartbeat(deps);
    return { downtimeMs: 0, attempts: 0 };
  }
  const downtimeMs = Math.max(0, now - Number(row.value));
  let attempts = 0;
  deps.sqlite.transaction(() => {
    attempts = deps.sqlite
      .prepare(
        `UPDATE attempts SET credited_ms = credited_ms + min(?, max(0, ? - started_at))
         WHERE status = 'IN_PROGRESS' AND exam_id IN (SELECT id FROM exams WHERE paused_at IS NULL)`,
      )
      .run(downtimeMs, now).changes;
    writeHeartbeat(deps);
  })();
  return { downtimeMs, attempts };
}
