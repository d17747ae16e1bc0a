/** Workspaces (exam halls): identity, credits, encrypted API key and webhook secret. */
import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const workspaces = sqliteTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** STANDALONE_HALL or INSTITUTION */
    type: text('type').notNull(),
    ownerName: text('owner_name').notNull(),
    ownerEmail: text('owner_email').notNull(),
    /** lower-cased e-mail: unique case-insensitively (docs/design.md §4) */
    emailKey: text('email_key').notNull(),
    passwordHash: text('password_hash'),
    credits: integer('credits').notNull(),
    apiKeyDigest: text('api_key_digest').notNull(),
    apiKeySealed: text('api_key_sealed').notNull(),
    webhookSecretSealed: text('webhook_secret_sealed').notNull(),
    webhookUrl: text('webhook_url'),
    /** epoch ms a webhook URL was set on a workspace that had none: the outbox's 7-day failure clock starts no earlier (docs/decisions.md, "An offline centre signs up without a webhook URL") */
    webhookUrlSetAt: integer('webhook_url_set_at'),
    schoolId: text('school_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('workspaces_email_key_uq').on(t.emailKey),
    uniqueIndex('workspaces_api_key_digest_uq').on(t.apiKeyDigest),
    uniqueIndex('workspaces_school_id_uq').on(t.schoolId),
    index('workspaces_created_idx').on(t.createdAt),
  ],
);
