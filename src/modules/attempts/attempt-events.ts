/**
 * One recorded event per change that finishes or re-scores an attempt (docs/design.md §8):
 * completed, disqualified, regraded. The event is written inside the transaction that
 * makes the change, from the attempt row that transaction holds: the webhook outbox row
 * (webhooks/outbox.ts) and, for an attempt of a released hub exam, the hub outbox row with
 * the same event id (hub-link/results.ts). So an event exists exactly when the change does,
 * and both outboxes describe the same row.
 */
import type { Sqlite } from '../../db/index.js';
import type { AttemptRow } from '../../db/rows.js';
import { iso } from '../../platform/clock.js';
import { enqueueWebhookEvent, type EventType } from '../webhooks/index.js';
import { enqueueHubResult } from '../hub-link/index.js';
import type { Paper } from '../sessions/index.js';
import { storedSectionScores } from './stored-section-scores.js';

/**
 * The event payload's `data` for an attempt (docs/design.md §8; README, "A whole exam with
 * curl"); `sectionScores` is added when the exam has sections (issue 37 item 5).
 */
export function eventData(paper: Paper, a: AttemptRow) {
  const sectionScores = storedSectionScores(a);
  return {
    attemptId: a.id,
    examId: a.exam_id,
    examTitle: paper.exam.title,
    candidateName: a.candidate_name,
    studentId: a.student_id,
    score: a.score ?? 0,
    maxScore: a.max_score ?? paper.maxScore,
    percentage: a.percentage ?? 0,
    grade: a.grade ?? 'F9',
    status: a.status,
    startedAt: iso(a.started_at),
    completedAt: iso(a.completed_at ?? a.disqualified_at),
    violations: a.violations,
    autoSubmitted: !!a.auto_submitted,
    pendingReview: !!a.pending_review,
    ...(sectionScores ? { sectionScores } : {}),
  };
}

/**
 * Records an event of `row`, read inside the caller's transaction after its change; call
 * inside that transaction. `extra` adds members to the webhook's `data` (e.g. `lockReason`).
 * @returns the event id (`evt_…`), for the caller's `outbox-written` notice after the commit
 */
export function recordAttemptEvent(sqlite: Sqlite, paper: Paper, row: AttemptRow, type: EventType, at: number, extra: Record<string, unknown> = {}): string {
  const eventId = enqueueWebhookEvent(sqlite, { workspaceId: row.workspace_id, type, data: { ...eventData(paper, row), ...extra }, at });
  enqueueHubResult(sqlite, { eventId, type, at }, row);
  return eventId;
}
