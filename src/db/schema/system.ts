/** Outbox of webhook events, the audit log, and small key/value system state (heartbeat). */
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

export const outboxEvents = sqliteTable(
  'outbox_events',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    type: text('type').notNull(),
    /** the exact body bytes sent on every try (signed as-is) */
    body: text('body').notNull(),
    /** PENDING | DELIVERED | FAILED */
    status: text('status').notNull(),
    tries: integer('tries').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    lastStatusCode: integer('last_status_code'),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at'),
  },
  (t) => [index('outbox_due_idx').on(t.status, t.nextAttemptAt), index('outbox_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason'),
    detailJson: text('detail_json'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('audit_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const systemState = sqliteTable('system_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
