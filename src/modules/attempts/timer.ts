/**
 * The session timer (docs/design.md §7): the server is the clock.
 * remaining = allowed − (elapsed − credited), where elapsed stops while the exam is
 * paused and `credited` holds power-cut downtime and past pauses; never past endsAt.
 * allowed = duration × (1 + extraTimePercent/100) + extraTimeMins + extraSeconds: the
 * candidate's access arrangements from the roster (docs/decisions.md, "Extra time from
 * the roster") and the invigilator's grants. All inputs are epoch milliseconds; the
 * result is whole seconds, ≥ 0.
 */
import type { AttemptRow, ExamRow } from '../../db/rows.js';

/** Saves arriving more than this long after the end are refused (409); the sweep finalizes after it. */
export const GRACE_MS = 30_000;

/** The attempt's fields the clock reads. */
export type ClockFields = Pick<AttemptRow, 'started_at' | 'credited_ms' | 'extra_seconds' | 'extra_time_percent' | 'extra_time_mins'>;

/**
 * Milliseconds of exam time the candidate has in all (pauses and downtime aside): the
 * duration stretched by the roster's percentage, plus its minutes and the invigilator's
 * grants. Whole milliseconds: duration_mins × 600 × (100 + percent) is an integer.
 * The expiry sweep writes the same sum in SQL (sweep.ts).
 */
export function allowedMs(exam: Pick<ExamRow, 'duration_mins'>, a: Pick<ClockFields, 'extra_seconds' | 'extra_time_percent' | 'extra_time_mins'>): number {
  return exam.duration_mins * 600 * (100 + a.extra_time_percent) + (a.extra_time_mins * 60 + a.extra_seconds) * 1000;
}

/** Milliseconds left (may be negative: time over by that much). */
export function remainingMs(exam: Pick<ExamRow, 'duration_mins' | 'paused_at' | 'ends_at'>, a: ClockFields, now: number): number {
  const clockNow = exam.paused_at !== null ? Math.min(now, Math.max(exam.paused_at, a.started_at)) : now;
  const elapsed = Math.max(0, clockNow - a.started_at - a.credited_ms);
  let left = allowedMs(exam, a) - elapsed;
  if (exam.ends_at !== null) left = Math.min(left, exam.ends_at - now);
  return left;
}

/** Whole seconds left, floored at 0 (the `remainingSeconds` field). */
export function remainingSeconds(exam: Parameters<typeof remainingMs>[0], a: Parameters<typeof remainingMs>[1], now: number): number {
  return Math.max(0, Math.floor(remainingMs(exam, a, now) / 1000));
}
