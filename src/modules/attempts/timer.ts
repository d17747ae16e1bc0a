/**
 * The session timer (docs/design.md §7): the server is the clock.
 * remaining = duration + extra − (elapsed − credited), where elapsed stops while the exam
 * is paused and `credited` holds power-cut downtime and past pauses; never past endsAt.
 * All inputs are epoch milliseconds; the result is whole seconds, ≥ 0.
 */
import type { AttemptRow, ExamRow } from '../../db/rows.js';

/** Saves arriving more than this long after the end are refused (409); the sweep finalizes after it. */
export const GRACE_MS = 30_000;

/** Milliseconds left (may be negative: time over by that much). */
export function remainingMs(exam: Pick<ExamRow, 'duration_mins' | 'paused_at' | 'ends_at'>, a: Pick<AttemptRow, 'started_at' | 'credited_ms' | 'extra_seconds'>, now: number): number {
  const clockNow = exam.paused_at !== null ? Math.min(now, Math.max(exam.paused_at, a.started_at)) : now;
  const elapsed = Math.max(0, clockNow - a.started_at - a.credited_ms);
  let left = (exam.duration_mins * 60 + a.extra_seconds) * 1000 - elapsed;
  if (exam.ends_at !== null) left = Math.min(left, exam.ends_at - now);
  return left;
}

/** Whole seconds left, floored at 0 (the `remainingSeconds` field). */
export function remainingSeconds(exam: Parameters<typeof remainingMs>[0], a: Parameters<typeof remainingMs>[1], now: number): number {
  return Math.max(0, Math.floor(remainingMs(exam, a, now) / 1000));
}
