/** The hub's audit trail: every refusal of a hall request and every examiner action on halls and papers. */
import type { HubDb } from './db/index.js';
import { hubAudit } from './db/schema.js';

/** Appends one audit row. */
export async function audit(db: Pick<HubDb, 'insert'>, row: { at: Date; actor: string; action: string; hallId?: string | null; detail?: Record<string, unknown> }): Promise<void> {
  await db.insert(hubAudit).values({ at: row.at, actor: row.actor, action: row.action, hallId: row.hallId ?? null, detail: row.detail ?? {} });
}
