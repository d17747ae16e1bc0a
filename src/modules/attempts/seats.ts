/**
 * Seats of an open room (issue 34, finding 4; docs/decisions.md, "Open rooms: one attempt
 * per seat"). An exam without a roster lets anyone choose a student ID, and its submit
 * answer carries the score, so one computer starting attempt after attempt under throwaway
 * IDs could read the answer key off the scores and spend the workspace's credits. A seat
 * is the client address that started an attempt (clientAddress: behind a trusted proxy,
 * the address it forwards); each seat may start one attempt per exam
 * (CBT_OPEN_ROOM_SEAT_ATTEMPTS), plus what an invigilator allows (audited). Resuming an attempt is never a new
 * start, so a candidate may move to another computer. Exams with a roster do not use
 * seats: the issued PIN already ties each student ID to one person.
 */
import type { HallDeps } from '../../hall/deps.js';
import { writeAudit } from '../../hall/audit.js';
import { Conflict } from '../../platform/errors.js';
import { getExamInWorkspace } from '../exams/index.js';

/** One seat of an exam: attempts started there, and further starts it is allowed. */
export interface SeatUse {
  address: string;
  attempts: number;
  /** null: no limit (CBT_OPEN_ROOM_SEAT_ATTEMPTS=0) */
  allowancesLeft: number | null;
}

function grantedAt(deps: HallDeps, examId: string, address: string): number {
  const row = deps.sqlite.prepare('SELECT granted FROM seat_allowances WHERE exam_id = ? AND address = ?').get(examId, address) as { granted: number } | undefined;
  return row?.granted ?? 0;
}

/**
 * Starts a seat may still make: CBT_OPEN_ROOM_SEAT_ATTEMPTS (default 1) plus what the
 * invigilator granted, less what it started; null when the setting is 0 (no limit).
 */
function left(deps: HallDeps, attempts: number, granted: number): number | null {
  const perSeat = deps.config.CBT_OPEN_ROOM_SEAT_ATTEMPTS;
  return perSeat === 0 ? null : Math.max(0, perSeat + granted - attempts);
}

/** Attempts started from `address` for the exam and further starts it may make. */
export function seatUse(deps: HallDeps, examId: string, address: string): SeatUse {
  const { n } = deps.sqlite.prepare('SELECT count(*) AS n FROM attempts WHERE exam_id = ? AND seat_address = ?').get(examId, address) as { n: number };
  return { address, attempts: n, allowancesLeft: left(deps, n, grantedAt(deps, examId, address)) };
}

/**
 * Refuses a new attempt from a seat that has used its attempts. Call inside the start's
 * write transaction (the count and the insert are then one step: two starts at once from
 * one seat cannot both pass), and before the preview (nothing is created there).
 * @throws Conflict 409 `SEAT_USED` (with `seatAddress`)
 */
export function assertSeatFree(deps: HallDeps, examId: string, address: string): void {
  if (deps.config.CBT_OPEN_ROOM_SEAT_ATTEMPTS === 0) return;
  if ((seatUse(deps, examId, address).allowancesLeft ?? 1) > 0) return;
  throw new Conflict(
    'An exam has already been started from this computer. Each computer may start this exam once; if you have not sat it yet, raise your hand: the invigilator can allow another attempt from this computer.',
    { code: 'SEAT_USED', seatAddress: address },
  );
}

/** Every seat of an exam that started an attempt or was granted an allowance, by address. */
export function examSeats(deps: HallDeps, examId: string): SeatUse[] {
  const used = deps.sqlite.prepare('SELECT seat_address AS address, count(*) AS n FROM attempts WHERE exam_id = ? AND seat_address IS NOT NULL GROUP BY seat_address').all(examId) as { address: string; n: number }[];
  const granted = deps.sqlite.prepare('SELECT address, granted FROM seat_allowances WHERE exam_id = ?').all(examId) as { address: string; granted: number }[];
  const seats = new Map<string, { attempts: number; granted: number }>();
  for (const u of used) seats.set(u.address, { attempts: u.n, granted: 0 });
  for (const g of granted) seats.set(g.address, { attempts: seats.get(g.address)?.attempts ?? 0, granted: g.granted });
  return [...seats.entries()]
    .map(([address, s]) => ({ address, attempts: s.attempts, allowancesLeft: left(deps, s.attempts, s.granted) }))
    .sort((a, b) => a.address.localeCompare(b.address));
}

/**
 * POST /exams/:id/seats/allow: the invigilator lets one more attempt start from `address`
 * (e.g. a second shift at the same computer), audited with the reason. After the call
 * the seat may make exactly one more start: a second call before that start is made does
 * not add another.
 * @returns the seat after the allowance
 * @throws NotFound (exam of another workspace)
 */
export function allowSeat(deps: HallDeps, workspaceId: string, examId: string, address: string, reason: string): SeatUse & { examId: string } {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const now = deps.clock.now();
  let after!: SeatUse;
  deps.sqlite.transaction(() => {
    // the seat may make exactly one start more than it has made (an unused allowance is not doubled)
    const perSeat = Math.max(1, deps.config.CBT_OPEN_ROOM_SEAT_ATTEMPTS);
    const granted = Math.max(grantedAt(deps, exam.id, address), seatUse(deps, exam.id, address).attempts + 1 - perSeat);
    deps.sqlite
      .prepare('INSERT INTO seat_allowances (exam_id, address, granted, updated_at) VALUES (?,?,?,?) ON CONFLICT (exam_id, address) DO UPDATE SET granted = excluded.granted, updated_at = excluded.updated_at')
      .run(exam.id, address, granted, now);
    after = seatUse(deps, exam.id, address);
    writeAudit(deps.sqlite, { workspaceId, action: 'seat.allow', targetType: 'exam', targetId: exam.id, reason, detail: { address, attempts: after.attempts }, at: now });
  })();
  return { examId: exam.id, ...after };
}
