/**
 * Proctoring telemetry (spec "Telemetry event", DESIGN §7). Violation types count toward
 * the exam's maxTabViolations; when recorded violations EXCEED it, the attempt becomes
 * DISQUALIFIED and is locked (later requests → 403), and `exam.attempt.disqualified` is
 * queued. Network and fullscreen-enter events are recorded but not counted.
 */
import type { AppDeps } from '../../platform/deps.js';
import { relaxedSync } from '../../db/index.js';
import { Conflict } from '../../platform/errors.js';
import { enqueueEvent } from '../webhooks/outbox.js';
import { candidateAttempt } from '../attempts/answers.js';
import { eventData } from '../attempts/finalize.js';
import { remainingSeconds } from '../attempts/timer.js';
import type { AttemptRow } from '../attempts/session-cache.js';

export const VIOLATION_TYPES = ['TAB_SWITCH', 'WINDOW_BLUR', 'FULLSCREEN_EXIT', 'COPY', 'PASTE', 'CONTEXT_MENU'] as const;
export const RECORDED_TYPES = ['NETWORK_OFFLINE', 'NETWORK_ONLINE', 'FULLSCREEN_ENTER'] as const;
export const TELEMETRY_TYPES = [...VIOLATION_TYPES, ...RECORDED_TYPES] as const;
export type TelemetryType = (typeof TELEMETRY_TYPES)[number];

const COUNTED = new Set<string>(VIOLATION_TYPES);

/**
 * Records one event.
 * @returns `{attemptId, violations, maxTabViolations, status, remainingSeconds, durableSeq}`
 * @throws Forbidden once disqualified, Conflict once completed, NotFound
 */
export function recordTelemetry(deps: AppDeps, attemptId: string, input: { type: TelemetryType; meta?: { action?: string } }) {
  const { st, paper } = candidateAttempt(deps, attemptId);
  if (st.row.status === 'COMPLETED') throw new Conflict('This exam has already been submitted.', { code: 'ALREADY_SUBMITTED' });
  const counted = COUNTED.has(input.type);
  const now = deps.clock.now();
  let disqualified = false;
  // an event that cannot disqualify commits without waiting for the disk (a power cut
  // within the next flush's second may lose it; a crash cannot); one that may, waits
  const stored = counted ? (deps.sqlite.prepare('SELECT violations FROM attempts WHERE id = ?').get(attemptId) as { violations: number } | undefined) : undefined;
  const mayDisqualify = counted && (stored?.violations ?? 0) + 1 > paper.exam.max_tab_violations;
  const write = () => deps.sqlite.transaction(() => {
    deps.sqlite.prepare('INSERT INTO telemetry_events (attempt_id, type, action, counted, created_at) VALUES (?,?,?,?,?)').run(attemptId, input.type, input.meta?.action?.slice(0, 200) ?? null, counted ? 1 : 0, now);
    if (!counted) return;
    const r = deps.sqlite.prepare("UPDATE attempts SET violations = violations + 1 WHERE id = ? AND status = 'IN_PROGRESS' RETURNING violations").get(attemptId) as { violations: number } | undefined;
    if (r && r.violations > paper.exam.max_tab_violations) {
      deps.buffer.flushAttempt(attemptId);
      deps.sqlite.prepare("UPDATE attempts SET status = 'DISQUALIFIED', disqualified_at = ? WHERE id = ?").run(now, attemptId);
      const row = deps.sqlite.prepare('SELECT * FROM attempts WHERE id = ?').get(attemptId) as AttemptRow;
      enqueueEvent(deps.sqlite, { workspaceId: row.workspace_id, type: 'exam.attempt.disqualified', data: eventData(paper, row), at: now });
      disqualified = true;
    }
  });
  if (mayDisqualify) write()();
  else relaxedSync(deps.sqlite, () => write()());
  const fresh = counted ? deps.sessions.reloadAttempt(attemptId)! : st;
  if (disqualified) {
    deps.events.emit({ kind: 'attempt-disqualified', examId: paper.exam.id, attemptId, candidateName: fresh.row.candidate_name });
    deps.events.emit({ kind: 'outbox-written', eventId: attemptId });
  } else if (counted) {
    deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId });
  }
  return {
    attemptId,
    violations: fresh.row.violations,
    maxTabViolations: paper.exam.max_tab_violations,
    status: fresh.row.status,
    disqualified: fresh.row.status === 'DISQUALIFIED',
    remainingSeconds: fresh.row.status === 'IN_PROGRESS' ? remainingSeconds(paper.exam, fresh.row, now) : 0,
    durableSeq: deps.buffer.durableSeq(attemptId),
  };
}
