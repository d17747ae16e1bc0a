/**
 * Row types of the hall's tables as better-sqlite3 returns them from `SELECT *`: derived
 * from the drizzle schema (docs/design.md §13), keyed by the column's SQL name
 * (snake_case), with boolean columns as the 0/1 integers SQLite stores and nullable
 * columns as `| null`. Prepared statements on the hot paths are typed with these, so a
 * column added to the schema reaches every row type at once. A query that selects fewer
 * columns types its rows as a `Pick` of these, next to the query.
 */
import type { Column, Table } from 'drizzle-orm';
import type { answers, attempts, exams, generationVerdicts, hubLinks, hubOutbox, hubPackages, outboxEvents, questions, rosterEntries, workspaces } from './schema/index.js';

/** The value better-sqlite3 gives for one column: booleans are stored as 0/1. */
type RawValue<C extends Column> = (C['_']['data'] extends boolean ? number : C['_']['data']) | (C['_']['notNull'] extends true ? never : null);

/** A table's row as `SELECT *` returns it (column SQL names → raw values). */
type RawRow<T extends Table> = {
  [K in keyof T['_']['columns'] as T['_']['columns'][K]['_']['name']]: RawValue<T['_']['columns'][K]>;
};

/** `SELECT * FROM exams` */
export type ExamRow = RawRow<typeof exams>;
/** `SELECT * FROM questions` */
export type QuestionRow = RawRow<typeof questions>;
/**
 * An attempt as the hall reads and caches it: every column but `durable_seq`, the
 * durability watermark, which only the answer buffer reads and moves (answer-buffer.ts).
 */
export type AttemptRow = Omit<RawRow<typeof attempts>, 'durable_seq'>;
/** `SELECT * FROM answers` */
export type AnswerRow = RawRow<typeof answers>;
/** `SELECT * FROM workspaces` */
export type WorkspaceRow = RawRow<typeof workspaces>;
/** `SELECT * FROM roster_entries` */
export type RosterRow = RawRow<typeof rosterEntries>;
/** `SELECT * FROM outbox_events` (the webhook outbox) */
export type OutboxEventRow = RawRow<typeof outboxEvents>;
/** `SELECT * FROM hub_links` */
export type HubLinkRow = RawRow<typeof hubLinks>;
/** `SELECT * FROM hub_packages` */
export type HubPackageRow = RawRow<typeof hubPackages>;
/** `SELECT * FROM hub_outbox` */
export type HubOutboxRow = RawRow<typeof hubOutbox>;
/** `SELECT * FROM generation_verdicts` (issue 39 §2) */
export type GenerationVerdictRow = RawRow<typeof generationVerdicts>;
