/**
 * Safe Exam Browser enforcement on candidate requests (issue 25). Exams that do not
 * require SEB pay one property read (`paper.seb === null`). For the others every request
 * is judged (seb/verify.ts); a request without valid evidence answers 403 with the
 * problem type `/problems/safe-exam-browser-required`, and on an attempt in progress it
 * does what SEB's developer page asks of exam systems: the answers saved so far are kept
 * (written now), the attempt is stopped and locked (status DISQUALIFIED, lock_reason
 * SAFE_EXAM_BROWSER), and only an invigilator's reinstate (audited) reopens it.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { ApiError } from '../../platform/errors.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { verifySebRequest, type SebGate, type SebVerdict } from '../seb/verify.js';
import { sebLink } from '../seb/exam-seb.js';
import type { Paper } from './paper.js';
import type { AttemptState } from './session-cache.js';
import type { AttemptRow } from '../../db/rows.js';
import { eventData } from './finalize.js';

/** lock_reason of an attempt stopped by a failed SEB check */
export const SEB_LOCK = 'SAFE_EXAM_BROWSER';

/** 403: the request did not come from Safe Exam Browser with this exam's configuration. */
export class SafeExamBrowserRequired extends ApiError {
  constructor(gate: SebGate, verdict: SebVerdict, locked: boolean) {
    const why = verdict === 'missing' ? 'The request did not come from Safe Exam Browser.' : 'The request came with a Safe Exam Browser key that does not match this exam’s configuration.';
    super(403, 'safe-exam-browser-required', 'Safe Exam Browser required', `This exam opens only in Safe Exam Browser with the exam’s configuration. ${why}${locked ? ' The attempt was stopped and locked; your saved answers are kept, and the invigilator can reopen it.' : ''}`, {
      code: 'SEB_REQUIRED',
      reason: verdict,
      locked,
      configUrl: gate.configUrl,
      sebUrl: sebLink(gate.configUrl),
    });
  }
}

/**
 * Checks a candidate request of `paper`'s exam. Records the verdict on `st` for the
 * monitor; on failure locks `st` when in progress.
 * @throws SafeExamBrowserRequired
 */
export function enforceSeb(deps: HallDeps, c: Context<AppEnv>, paper: Paper, st?: AttemptState): void {
  const gate = paper.seb!;
  const verdict = verifySebRequest(c, deps.config, gate);
  const valid = verdict === 'ok';
  if (st && st.sebValid !== valid) {
    st.sebValid = valid;
    deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId: st.row.id });
  }
  if (valid) return;
  const locked = !!st && st.row.status === 'IN_PROGRESS';
  if (locked) lockForSeb(deps, st, paper, verdict);
  throw new SafeExamBrowserRequired(gate, verdict, locked);
}

/** Keeps the answers, stops and locks the attempt, records why, and tells the hall. */
function lockForSeb(deps: HallDeps, st: AttemptState, paper: Paper, verdict: SebVerdict): void {
  const id = st.row.id;
  const now = deps.clock.now();
  deps.sqlite.transaction(() => {
    deps.buffer.flushAttempt(id);
    const changed = deps.sqlite.prepare("UPDATE attempts SET status = 'DISQUALIFIED', disqualified_at = ?, lock_reason = ? WHERE id = ? AND status = 'IN_PROGRESS'").run(now, SEB_LOCK, id);
    if (changed.changes === 0) return;
    deps.sqlite.prepare('INSERT INTO telemetry_events (attempt_id, type, action, counted, created_at) VALUES (?,?,?,?,?)').run(id, 'SEB_CHECK_FAILED', verdict, 0, now);
    const row = deps.sqlite.prepare('SELECT * FROM attempts WHERE id = ?').get(id) as AttemptRow;
    enqueueEvent(deps.sqlite, { workspaceId: row.workspace_id, type: 'exam.attempt.disqualified', data: { ...eventData(paper, row), lockReason: SEB_LOCK }, at: now });
  })();
  const fresh = deps.sessions.reloadAttempt(id)!;
  deps.events.emit({ kind: 'attempt-disqualified', examId: paper.exam.id, attemptId: id, candidateName: fresh.row.candidate_name });
  deps.events.emit({ kind: 'outbox-written', eventId: id });
}
