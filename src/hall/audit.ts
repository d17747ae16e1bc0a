/**
 * Audit rows for invigilator and examiner actions (docs/design.md §13: written in the same
 * transaction as the action). `reason` is required for actions on candidates.
 */
import type { Sqlite } from '../db/index.js';
import { newId } from '../platform/ids.js';

export interface AuditEntry {
  workspaceId: string;
  action: string;
  targetType: string;
  targetId: string;
  reason?: string | null;
  detail?: Record<string, unknown>;
  at: number;
}

/** Inserts one audit row; call inside the action's transaction. */
export function writeAudit(sqlite: Sqlite, e: AuditEntry): void {
  sqlite
    .prepare('INSERT INTO audit_log (id, workspace_id, action, target_type, target_id, reason, detail_json, created_at) VALUES (?,?,?,?,?,?,?,?)')
    .run(newId('aud'), e.workspaceId, e.action, e.targetType, e.targetId, e.reason ?? null, e.detail ? JSON.stringify(e.detail) : null, e.at);
}
