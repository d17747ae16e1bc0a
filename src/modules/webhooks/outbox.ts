/**
 * The webhook outbox (docs/design.md §8): events are written as rows in the same transaction
 * that completes (or disqualifies, or regrades) an attempt, with the exact body bytes
 * that every delivery try will send. The dispatcher (dispatcher.ts) delivers them.
 */
import type { Sqlite } from '../../db/index.js';
import { newId } from '../../platform/ids.js';

export type EventType = 'exam.attempt.completed' | 'exam.attempt.disqualified' | 'exam.attempt.regraded';

/**
 * Inserts an outbox row; call inside the business transaction (attempts record their
 * events through attempts/attempt-events.ts, which also writes the hub's copy).
 * @returns the event id (`evt_…`)
 */
export function enqueueWebhookEvent(sqlite: Sqlite, e: { workspaceId: string; type: EventType; data: Record<string, unknown>; at: number }): string {
  const id = newId('evt');
  const body = JSON.stringify({ id, type: e.type, createdAt: new Date(e.at).toISOString(), workspaceId: e.workspaceId, data: e.data });
  sqlite
    .prepare("INSERT INTO outbox_events (id, workspace_id, type, body, status, tries, next_attempt_at, created_at) VALUES (?,?,?,?,'PENDING',0,?,?)")
    .run(id, e.workspaceId, e.type, body, e.at, e.at);
  return id;
}
