/**
 * Safe Exam Browser enforcement on candidate requests (issue 25; issue #34 finding 6).
 * Exams that do not require SEB pay one property read (`paper.seb === null`). For the
 * others every request is judged — the Config check, and the Browser Exam Key check when
 * the exam registers keys (seb-check/verify.ts); a request that fails either answers 403 with the
 * problem type `/problems/safe-exam-browser-required`, and on an attempt in progress it
 * does what SEB's developer page asks of exam systems: the answers saved so far are kept
 * (written now), the attempt is stopped and locked (status DISQUALIFIED, lock_reason
 * SAFE_EXAM_BROWSER), and only an invigilator's reinstate (audited) reopens it.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { ApiError } from '../../platform/errors.js';
import { recordAttemptEvent } from './attempt-events.js';
import { checkSebRequest, sebVerdict, type SebCheck, type SebVerdict } from '../seb-check/index.js';
import { recordRequestHash } from '../seb/index.js';
import type { Paper, AttemptState } from '../sessions/index.js';
import type { AttemptRow } from '../../db/rows.js';

/** lock_reason of an attempt stopped by a failed SEB check */
export const SEB_LOCK = 'SAFE_EXAM_BROWSER';

const WHY: Record<Exclude<SebVerdict, 'ok'>, string> = {
  missing: 'The request did not come from Safe Exam Browser.',
  mismatch: 'The request came with a Safe Exam Browser key that does not match this exam’s configuration.',
  'bek-missing': 'The request did not carry a Browser Exam Key: this exam accepts only the Safe Exam Browser versions the centre registered.',
  'bek-mismatch': 'The request came from a Safe Exam Browser version this exam does not accept (its Browser Exam Key is not registered).',
};

/**
 * 403: the request failed the exam's SEB checks. No link to the .seb file: it sits behind
 * the download code the invigilator hands out (docs/operations.md §12).
 */
export class SafeExamBrowserRequired extends ApiError {
  constructor(verdict: Exclude<SebVerdict, 'ok'>, locked: boolean) {
    super(403, 'safe-exam-browser-required', 'Safe Exam Browser required', `This exam opens only in Safe Exam Browser with the exam’s configuration. ${WHY[verdict]}${locked ? ' The attempt was stopped and locked; your saved answers are kept, and the invigilator can reopen it.' : ' Ask the invigilator for the exam’s Safe Exam Browser link.'}`, {
      code: 'SEB_REQUIRED',
      reason: verdict,
      locked,
    });
  }
}

/**
 * Checks a candidate request of `paper`'s exam. Records the checks on `st` for the
 * monitor, and an unmatched RequestHash for the examiner (seb/sightings.ts); on failure
 * locks `st` when in progress.
 * @returns the passed checks (both shown on the monitor)
 * @throws SafeExamBrowserRequired
 */
export function enforceSeb(deps: HallDeps, c: Context<AppEnv>, paper: Paper, st?: AttemptState): SebCheck {
  const gate = paper.seb!;
  const { check, unmatched } = checkSebRequest(c, deps.config, gate);
  if (unmatched) recordRequestHash(deps, paper.exam.id, c.req.header('user-agent'), unmatched);
  const verdict = sebVerdict(check);
  const valid = verdict === 'ok';
  if (st && (st.sebValid !== valid || !sameCheck(st.sebCheck, check))) {
    st.sebValid = valid;
    st.sebCheck = check;
    deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId: st.row.id });
  }
  if (verdict === 'ok') return check;
  const locked = !!st && st.row.status === 'IN_PROGRESS';
  if (locked) lockForSeb(deps, st, paper, verdict);
  throw new SafeExamBrowserRequired(verdict, locked);
}

/** Records on `st` (for the monitor) that a request of it passed the SEB checks `check`. */
export function noteSebPassed(st: AttemptState, check: SebCheck): void {
  st.sebValid = true;
  st.sebCheck = check;
}

function sameCheck(a: SebCheck | null, b: SebCheck): boolean {
  return !!a && a.configKey === b.configKey && a.browserExamKey === b.browserExamKey && a.evidence === b.evidence;
}

/** Keeps the answers, stops and locks the attempt, records why, and tells the hall. */
function lockForSeb(deps: HallDeps, st: AttemptState, paper: Paper, verdict: SebVerdict): void {
  const id = st.row.id;
  const now = deps.clock.now();
  let eventId: string | null = null;
  deps.sqlite.transaction(() => {
    deps.buffer.flushAttempt(id);
    const changed = deps.sqlite.prepare("UPDATE attempts SET status = 'DISQUALIFIED', disqualified_at = ?, lock_reason = ? WHERE id = ? AND status = 'IN_PROGRESS'").run(now, SEB_LOCK, id);
    if (changed.changes === 0) return;
    deps.sqlite.prepare('INSERT INTO telemetry_events (attempt_id, type, action, counted, created_at) VALUES (?,?,?,?,?)').run(id, 'SEB_CHECK_FAILED', verdict, 0, now);
    const row = deps.sqlite.prepare('SELECT * FROM attempts WHERE id = ?').get(id) as AttemptRow;
    eventId = recordAttemptEvent(deps.sqlite, paper, row, 'exam.attempt.disqualified', now, { lockReason: SEB_LOCK });
  })();
  const fresh = deps.sessions.reloadAttempt(id)!;
  deps.events.emit({ kind: 'attempt-disqualified', examId: paper.exam.id, attemptId: id, candidateName: fresh.row.candidate_name });
  if (eventId) deps.events.emit({ kind: 'outbox-written', eventId });
}
