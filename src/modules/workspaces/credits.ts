/**
 * Candidate testing credits (docs/decisions.md, "Credits a centre tops up offline"):
 * every workspace starts with FREE_CREDITS (30); a new attempt costs one, a resume none,
 * and none left answers 402 (attempts/start.ts). Only the hall operator adds credits, on
 * the hall itself, with a note saying why (a receipt, a term's allowance); each top-up is
 * an audit row of the workspace, written in the same transaction as the new balance.
 *
 * `addCredits` takes who grants (`by`), so the signed grant that comes with an exam
 * board's paper (hub-link/packages.ts, at its release) uses the same function rather than a
 * second way of changing a balance.
 */
import type { HallDeps } from '../../hall/deps.js';
import { writeAudit } from '../../hall/audit.js';
import { NotFound } from '../../platform/errors.js';

/** Whoever adds credits: the hall operator, or an exam board's hub with a paper (its package id in `ref`). */
export type CreditGrantor = { by: 'operator' } | { by: 'hub'; ref: string };

/** A top-up: `add` credits (integer 1–100000, checked at the edge), `note` ≤ 200 characters. */
export interface CreditTopUp {
  workspaceId: string;
  add: number;
  note: string;
  grantor: CreditGrantor;
}

/**
 * Adds credits to a workspace and writes the audit row `credits.add` (reason = the note;
 * detail = { add, credits, by, ref? }) in one transaction.
 * @returns the workspace id and its new balance
 * @throws NotFound (404) when no workspace has that id; nothing changes then
 */
export function addCredits(deps: HallDeps, t: CreditTopUp): { id: string; credits: number } {
  return deps.sqlite.transaction(() => {
    const row = deps.sqlite.prepare('UPDATE workspaces SET credits = credits + ? WHERE id = ? RETURNING credits').get(t.add, t.workspaceId) as { credits: number } | undefined;
    if (!row) throw new NotFound('Workspace');
    writeAudit(deps.sqlite, {
      workspaceId: t.workspaceId,
      action: 'credits.add',
      targetType: 'workspace',
      targetId: t.workspaceId,
      reason: t.note || null,
      detail: { add: t.add, credits: row.credits, ...t.grantor },
      at: deps.clock.now(),
    });
    return { id: t.workspaceId, credits: row.credits };
  })();
}

/** One line of the operator's list of workspaces. */
export interface WorkspaceCredits {
  id: string;
  name: string;
  type: string;
  ownerEmail: string;
  credits: number;
  createdAt: string;
}

/** Every workspace on this hall with its credits, by name (the operator's screen). */
export function listWorkspaceCredits(deps: HallDeps): WorkspaceCredits[] {
  const rows = deps.sqlite.prepare('SELECT id, name, type, owner_email, credits, created_at FROM workspaces ORDER BY name COLLATE NOCASE, created_at').all() as {
    id: string; name: string; type: string; owner_email: string; credits: number; created_at: number;
  }[];
  return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, ownerEmail: r.owner_email, credits: r.credits, createdAt: new Date(r.created_at).toISOString() }));
}

/** An exam whose roster has candidates who have not started yet. */
export interface RosterWaiting {
  examId: string;
  title: string;
  waiting: number;
}

/**
 * The exams of a workspace (not yet closed at `now`) whose rosters list candidates with no
 * attempt yet, most waiting first (at most 20). Each of them will spend a credit when they
 * start, so the admin page warns when `waiting` exceeds the credits left.
 */
export function rosterWaiting(deps: HallDeps, workspaceId: string, now: number): RosterWaiting[] {
  return deps.sqlite
    .prepare(
      `SELECT e.id AS examId, e.title AS title, count(*) AS waiting
       FROM roster_entries r JOIN exams e ON e.id = r.exam_id
       WHERE r.workspace_id = ? AND (e.ends_at IS NULL OR e.ends_at > ?)
         AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.exam_id = r.exam_id AND a.student_id = r.student_id)
       GROUP BY e.id ORDER BY waiting DESC, e.title LIMIT 20`,
    )
    .all(workspaceId, now) as RosterWaiting[];
}
