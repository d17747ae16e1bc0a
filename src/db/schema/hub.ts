/**
 * The hall's side of a hub (issue #24, docs/hub-protocol.md): its enrolment (one per
 * workspace: the hub's URL and public key, the hall's sealed signing key), the sealed
 * packages it received (nothing readable about the questions until release), and the
 * results waiting to go up (an outbox of its own, with the webhook outbox's durability).
 */
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { PACKAGE_STATES } from '../../core/sync/messages.js';

export const hubLinks = sqliteTable('hub_links', {
  workspaceId: text('workspace_id').primaryKey(),
  hubUrl: text('hub_url').notNull(),
  hallId: text('hall_id').notNull(),
  hubPublicKey: text('hub_public_key').notNull(),
  publicKey: text('public_key').notNull(),
  privateKeySealed: text('private_key_sealed').notNull(),
  enrolledAt: integer('enrolled_at').notNull(),
  lastSyncAt: integer('last_sync_at'),
  lastError: text('last_error'),
});

export const hubPackages = sqliteTable(
  'hub_packages',
  {
    packageId: text('package_id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    hubExamId: text('hub_exam_id').notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    startsAt: integer('starts_at').notNull(),
    endsAt: integer('ends_at'),
    durationMins: integer('duration_mins').notNull(),
    /** the signed envelope as received; null once released (the paper is then in the exam tables) */
    envelope: text('envelope'),
    /** SEALED | RELEASED | SUPERSEDED | TOO_LATE (core/sync/messages.ts PACKAGE_STATES; a type, no CHECK) */
    state: text('state', { enum: PACKAGE_STATES }).notNull(),
    source: text('source').notNull(),
    receivedAt: integer('received_at').notNull(),
    releasedAt: integer('released_at'),
    releasedBy: text('released_by'),
    /** the hall exam created at release */
    examId: text('exam_id'),
    /** the release proof sent in heartbeats (core/sync/release-proof.ts); set at release */
    releaseProof: text('release_proof'),
    failedCodes: integer('failed_codes').notNull().default(0),
    lastFailedAt: integer('last_failed_at'),
  },
  (t) => [index('hub_packages_exam_idx').on(t.examId), index('hub_packages_ws_idx').on(t.workspaceId)],
);

export const hubOutbox = sqliteTable(
  'hub_outbox',
  {
    eventId: text('event_id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    /** the exact ResultEvent body sent on every try */
    body: text('body').notNull(),
    /** PENDING | DELIVERED | FAILED */
    status: text('status').notNull(),
    tries: integer('tries').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at'),
  },
  (t) => [index('hub_outbox_due_idx').on(t.status, t.createdAt)],
);
