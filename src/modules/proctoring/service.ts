/**
 * Proctoring telemetry (docs/api-overview.md, "Telemetry event", docs/design.md §7). Violation types count toward
 * the exam's maxTabViolations; when recorded violations EXCEED it, the attempt becomes
 * DISQUALIFIED and is locked (later requests → 403), and `exam.attempt.disqualified` is
 * queued. Network and fullscreen-enter events are recorded but not counted.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { afterWriteTurn, relaxedSync, syncWal } from '../../db/index.js';
import { Conflict } from '../../platform/errors.js';
import { candidateAttempt, recordAttemptEvent, remainingSeconds } from '../attempts/index.js';
import type { AttemptRow } from '../../db/rows.js';
import { VIOLATION_TYPES, type TelemetryType } from '../../core/proctoring/telemetry.js';


const COUNTED = new Set<string>(VIOLATION_TYPES);

/**
 * Records one event once the answer writer thread has given its turn (`afterWriteTurn`).
 * Its commit does not wait for the disk (relaxed: a power cut within the next flush's
 * second may lose an event that changed nothing else; a crash cannot). An event that
 * disqualifies is made durable before this resolves: the WAL is then fsynced in the
 * thread pool (`syncWal`), so no fsync holds the event loop (issue 8).
 * @returns `{attemptId, violations, maxTabViolations, status, disqualified, remainingSeconds, durableSeq}`
 * `req` (the HTTP request) is judged when the exam requires Safe Exam Browser.
 * @throws Forbidden once disqualified, Conflict once completed, NotFound, SafeExamBrowserRequired
 */
export async function recordTelemetry(deps: HallDeps, attemptId: string, input: { type: TelemetryType; meta?: { action?: string } }, req?: Context<AppEnv>) {
  const { response, announce } = await afterWriteTurn(deps.sqlite, () => relaxedSync(deps.sqlite, () => record(deps, attemptId, input, req)));
  if (response.disqualified) await syncWal(deps.sqlite);
  announce();
  return response;
}

/**
 * Writes one event (and a disqualification it causes) in one transaction; see
 * recordTelemetry. `announce` tells the hall (and the outbox dispatcher) what changed:
 * called once the change is as durable as it will be.
 */
function record(deps: HallDeps, attemptId: string, input: { type: TelemetryType; meta?: { action?: string } }, req?: Context<AppEnv>) {
  const { st, paper } = candidateAttempt(deps, attemptId, req);
  if (st.row.status === 'COMPLETED') throw new Conflict('This exam has already been submitted.', { code: 'ALREADY_SUBMITTED' });
  const counted = COUNTED.has(input.type);
  const now = deps.clock.now();
  let eventId: string | null = null;
  deps.sqlite.transaction(() => {
    deps.sqlite.prepare('INSERT INTO telemetry_events (attempt_id, type, action, counted, created_at) VALUES (?,?,?,?,?)').run(attemptId, input.type, input.meta?.action?.slice(0, 200) ?? null, counted ? 1 : 0, now);
    if (!counted) return;
    const r = deps.sqlite.prepare("UPDATE attempts SET violations = violations + 1 WHERE id = ? AND status = 'IN_PROGRESS' RETURNING violations").get(attemptId) as { violations: number } | undefined;
    if (r && r.violations > paper.exam.max_tab_violations) {
      deps.buffer.flushAttempt(attemptId);
      deps.sqlite.prepare("UPDATE attempts SET status = 'DISQUALIFIED', disqualified_at = ? WHERE id = ?").run(now, attemptId);
      const row = deps.sqlite.prepare('SELECT * FROM attempts WHERE id = ?').get(attemptId) as AttemptRow;
      eventId = recordAttemptEvent(deps.sqlite, paper, row, 'exam.attempt.disqualified', now);
    }
  })();
  const fresh = counted ? deps.sessions.reloadAttempt(attemptId)! : st;
  const announce = () => {
    if (eventId) {
      deps.events.emit({ kind: 'attempt-disqualified', examId: paper.exam.id, attemptId, candidateName: fresh.row.candidate_name });
      deps.events.emit({ kind: 'outbox-written', eventId });
    } else if (counted) {
      deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId });
    }
  };
  const response = {
    attemptId,
    violations: fresh.row.violations,
    maxTabViolations: paper.exam.max_tab_violations,
    status: fresh.row.status,
    disqualified: fresh.row.status === 'DISQUALIFIED',
    remainingSeconds: fresh.row.status === 'IN_PROGRESS' ? remainingSeconds(paper.exam, fresh.row, now) : 0,
    durableSeq: deps.buffer.durableSeq(attemptId),
  };
  return { response, announce };
}
