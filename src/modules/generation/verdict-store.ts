/**
 * The examiners' keep / edit / discard verdicts on generated questions, per workspace (issue
 * 39 §2; docs/decisions.md, "Generation verdicts are stored per workspace"): recorded in
 * batches when the admin page imports the kept questions, exported as JSON or CSV, reset,
 * summarised, and folded into the workspace's quality model for its next generation. Every
 * query is keyed by the caller's workspace, so one workspace's verdicts never reach
 * another's model. Recording and resetting are audited (docs/design.md §13).
 */
import Papa from 'papaparse';
import type { HallDeps } from '../../hall/deps.js';
import { writeAudit } from '../../hall/audit.js';
import { newId } from '../../platform/ids.js';
import type { GenerationVerdictRow } from '../../db/rows.js';
import type { ItemJudgement, ItemVerdict, QualityFeatures, QualityModel } from '../../core/generation/quality/model.js';
import { getExamInWorkspace } from '../exams/index.js';
import { BASE_QUALITY_MODEL } from '../../core/generation/quality/base-model.js';
import { fitQualityModel } from '../../core/generation/quality/fit.js';

/** One verdict as the API takes it (validated by verdict-routes.ts). */
export interface VerdictInput {
  verdict: ItemVerdict;
  /** the item exactly as generated (a generate response's `questions[i]`) */
  item: Record<string, unknown>;
  /** its quality features; default `item.quality.features` when that is a {name: number} map, else {} */
  features?: QualityFeatures;
  /** the item as imported after editing: required for "edit", refused otherwise */
  edited?: Record<string, unknown>;
}

/** A batch: the engine that generated the items, the exam they were generated for, who judged. */
export interface VerdictBatch {
  engine: string;
  examId?: string;
  examiner?: string;
  verdicts: VerdictInput[];
}

/** A stored verdict as exported (times in epoch ms). */
export interface StoredVerdict {
  id: string;
  examId: string | null;
  examiner: string | null;
  engine: string;
  verdict: ItemVerdict;
  item: unknown;
  features: QualityFeatures;
  edited: unknown;
  createdAt: number;
}

/** The item's own `quality.features`, when it carries a {name: finite number} map. */
function featuresOf(v: VerdictInput): QualityFeatures {
  if (v.features) return v.features;
  const q = (v.item as { quality?: { features?: unknown } }).quality?.features;
  if (!q || typeof q !== 'object' || Array.isArray(q)) return {};
  const out: QualityFeatures = {};
  for (const [k, n] of Object.entries(q)) if (typeof n === 'number' && Number.isFinite(n)) out[k] = n;
  return out;
}

const toStored = (r: GenerationVerdictRow): StoredVerdict => ({
  id: r.id,
  examId: r.exam_id,
  examiner: r.examiner,
  engine: r.engine,
  verdict: r.verdict,
  item: JSON.parse(r.item_json),
  features: JSON.parse(r.features_json) as QualityFeatures,
  edited: r.edited_json === null ? null : JSON.parse(r.edited_json),
  createdAt: r.created_at,
});

/** Verdict counts of a workspace. */
function counts(deps: HallDeps, workspaceId: string): Record<ItemVerdict | 'total', number> {
  const rows = deps.sqlite.prepare('SELECT verdict, count(*) AS n FROM generation_verdicts WHERE workspace_id = ? GROUP BY verdict').all(workspaceId) as { verdict: ItemVerdict; n: number }[];
  const out = { keep: 0, edit: 0, discard: 0, total: 0 };
  for (const r of rows) {
    out[r.verdict] = r.n;
    out.total += r.n;
  }
  return out;
}

/**
 * Stores a batch of verdicts in one transaction with one audit row
 * (`generation.verdicts.record`, detail: counts, engine, exam).
 * @returns the number stored and the workspace's summary after it.
 * @throws NotFound when `examId` is not an exam of the workspace (nothing stored)
 */
export function recordVerdicts(deps: HallDeps, workspaceId: string, batch: VerdictBatch) {
  if (batch.examId !== undefined) getExamInWorkspace(deps, workspaceId, batch.examId);
  const now = deps.clock.now();
  const insert = deps.sqlite.prepare(
    'INSERT INTO generation_verdicts (id, workspace_id, exam_id, examiner, engine, verdict, item_json, features_json, edited_json, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)',
  );
  const tally = { keep: 0, edit: 0, discard: 0 };
  deps.sqlite.transaction(() => {
    for (const v of batch.verdicts) {
      insert.run(newId('gv'), workspaceId, batch.examId ?? null, batch.examiner ?? null, batch.engine, v.verdict, JSON.stringify(v.item), JSON.stringify(featuresOf(v)), v.edited ? JSON.stringify(v.edited) : null, now);
      tally[v.verdict] += 1;
    }
    writeAudit(deps.sqlite, { workspaceId, action: 'generation.verdicts.record', targetType: 'workspace', targetId: workspaceId, detail: { ...tally, engine: batch.engine, examId: batch.examId ?? null, examiner: batch.examiner ?? null }, at: now });
  })();
  return { recorded: batch.verdicts.length, summary: verdictSummary(deps, workspaceId) };
}

/** Every verdict of the workspace, oldest first. */
export function listVerdicts(deps: HallDeps, workspaceId: string): StoredVerdict[] {
  const rows = deps.sqlite.prepare('SELECT * FROM generation_verdicts WHERE workspace_id = ? ORDER BY created_at, rowid').all(workspaceId) as GenerationVerdictRow[];
  return rows.map(toStored);
}

/** Guards a CSV text cell against formula injection (as core/formats/results-export.ts does). */
const csvCell = (v: string | null) => (v === null ? '' : /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/**
 * The workspace's verdicts as CSV (RFC 4180, CRLF, UTF-8 with BOM), one row per verdict:
 * id, createdAt (ISO 8601 UTC), examId, examiner, engine, verdict, type, prompt, features,
 * item, edited (the last three as JSON).
 */
export function verdictsCsv(verdicts: StoredVerdict[]): string {
  const fields = ['id', 'createdAt', 'examId', 'examiner', 'engine', 'verdict', 'type', 'prompt', 'features', 'item', 'edited'];
  const data = verdicts.map((v) => {
    const item = v.item as { type?: unknown; prompt?: unknown };
    return [v.id, new Date(v.createdAt).toISOString(), v.examId, v.examiner, v.engine, v.verdict, typeof item.type === 'string' ? item.type : null, typeof item.prompt === 'string' ? item.prompt : null, JSON.stringify(v.features), JSON.stringify(v.item), v.edited === null ? null : JSON.stringify(v.edited)].map(csvCell);
  });
  return `\uFEFF${Papa.unparse({ fields, data }, { newline: '\r\n' })}\r\n`;
}

/**
 * Deletes every verdict of the workspace (its model returns to the base), audited as
 * `generation.verdicts.reset` with the counts deleted and the optional reason.
 * @returns how many were deleted.
 */
export function resetVerdicts(deps: HallDeps, workspaceId: string, reason?: string): { deleted: number } {
  const now = deps.clock.now();
  return deps.sqlite.transaction(() => {
    const before = counts(deps, workspaceId);
    const { changes } = deps.sqlite.prepare('DELETE FROM generation_verdicts WHERE workspace_id = ?').run(workspaceId);
    writeAudit(deps.sqlite, { workspaceId, action: 'generation.verdicts.reset', targetType: 'workspace', targetId: workspaceId, reason: reason ?? null, detail: { keep: before.keep, edit: before.edit, discard: before.discard }, at: now });
    return { deleted: changes };
  })();
}

/**
 * The workspace's quality model: the base refitted on this workspace's verdicts only
 * (docs/decisions.md, "Generation verdicts are stored per workspace").
 */
export function workspaceQualityModel(deps: HallDeps, workspaceId: string): QualityModel {
  const rows = deps.sqlite.prepare('SELECT verdict, features_json FROM generation_verdicts WHERE workspace_id = ? ORDER BY created_at, rowid').all(workspaceId) as { verdict: ItemVerdict; features_json: string }[];
  const judgements: ItemJudgement[] = rows.map((r) => ({ verdict: r.verdict, features: JSON.parse(r.features_json) as QualityFeatures }));
  return fitQualityModel(BASE_QUALITY_MODEL, judgements);
}

/** Counts by verdict and the model the workspace's next generation uses (version, judgements folded in, threshold). */
export function verdictSummary(deps: HallDeps, workspaceId: string) {
  const model = workspaceQualityModel(deps, workspaceId);
  return { counts: counts(deps, workspaceId), model: { version: model.version, judgements: model.judgements, threshold: model.threshold } };
}
