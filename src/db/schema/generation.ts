/**
 * The examiners' verdicts on generated questions (issue 39 §2; docs/decisions.md, "Generation
 * verdicts are stored per workspace"): keep, edit or discard, with the item as generated and
 * its quality features, so a workspace's quality model is refitted on its own examiners'
 * judgements and never on another workspace's.
 */
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { workspaces } from './workspaces.js';

export const generationVerdicts = sqliteTable(
  'generation_verdicts',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
    /** the exam the item was generated for; no foreign key: a verdict outlives a deleted exam */
    examId: text('exam_id'),
    /** who gave the verdict, as the admin page names the examiner (free text ≤ 200; null: not named) */
    examiner: text('examiner'),
    /** the engine that generated the item (the generate response's `engine`) */
    engine: text('engine').notNull(),
    verdict: text('verdict', { enum: ['keep', 'edit', 'discard'] }).notNull(),
    /** JSON: the item exactly as generated */
    itemJson: text('item_json').notNull(),
    /** JSON: the item's quality features when generated ({name: number}) */
    featuresJson: text('features_json').notNull(),
    /** JSON: the item as the examiner imported it after editing; null unless verdict = edit */
    editedJson: text('edited_json'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('generation_verdicts_workspace_idx').on(t.workspaceId, t.createdAt)],
);
