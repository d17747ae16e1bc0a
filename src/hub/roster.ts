/**
 * A hub exam's roster and its centres (docs/hub.md, "Candidates and centres"): each
 * candidate may be assigned to one hall (`hallId`); a hall's package carries the candidates
 * assigned to it and those assigned to no hall (so an exam built before centres existed
 * still reaches every hall it is published to, and the hub's one-sitting rule refuses a
 * second result: result-ingest.ts). The roster is stored in `hub_exams.roster` (jsonb), PINs
 * sealed under the hub key file.
 */
import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import { ValidationError, type FieldError } from '../platform/errors.js';
import { rosterCandidateSchema } from '../core/roster/schemas.js';
import { canonicalSubjects, unknownSubjects, type ExamSection } from '../core/exams/sections.js';
import type { HubDb } from './db/index.js';
import { halls } from './db/schema.js';

/** One roster entry as an examiner sends it (POST /hub/v1/exams, PATCH, the roster routes). */
export const hubRosterEntrySchema = z.object({
  studentId: z.string().trim().min(1).max(64),
  candidateName: z.string().trim().min(1).max(200),
  pin: z.string().regex(/^\d{4,8}$/).optional(),
  /** the hall (centre) the candidate sits at; null = not assigned (every hall the exam is published to); absent on PATCH = unchanged */
  hallId: z.string().trim().min(1).max(64).nullable().optional(),
  /** the hall's roster fields (core/roster/schemas.ts): sections sat besides the compulsory ones, and extra time; absent on PATCH = unchanged */
  subjects: rosterCandidateSchema.shape.subjects,
  extraTimePercent: rosterCandidateSchema.shape.extraTimePercent,
  extraTimeMins: rosterCandidateSchema.shape.extraTimeMins,
});
export type HubRosterEntry = z.infer<typeof hubRosterEntrySchema>;

/** A roster entry as stored: the PIN sealed, the hall or null. */
export interface StoredRosterRow {
  studentId: string;
  candidateName: string;
  /** sealed (SecretBox) */
  pin: string;
  hallId: string | null;
  /** the candidate's subjects, spelled as the exam's sections (absent or []: none listed) */
  subjects?: string[];
  /** access arrangements (absent: 0) */
  extraTimePercent?: number;
  extraTimeMins?: number;
}

/** The access fields of an entry as stored: only those set (so a roster without them stores, and seals, as before). */
export function rosterExtras(r: { subjects?: string[] | null; extraTimePercent?: number; extraTimeMins?: number }): Pick<StoredRosterRow, 'subjects' | 'extraTimePercent' | 'extraTimeMins'> {
  return { ...(r.subjects?.length ? { subjects: r.subjects } : {}), ...(r.extraTimePercent ? { extraTimePercent: r.extraTimePercent } : {}), ...(r.extraTimeMins ? { extraTimeMins: r.extraTimeMins } : {}) };
}

/**
 * Roster subjects checked against the exam's sections with the hall's rules
 * (core/exams/sections.ts): each list spelled as the sections are, in their order; a name
 * that is not a section (or any name when the exam has none) is reported at `pathOf(i)`.
 * @returns the canonical lists (undefined where none are listed) and the errors found
 */
export function checkedSubjects(sections: readonly ExamSection[], lists: (string[] | null | undefined)[], where: (i: number) => { index?: number; row?: number; path?: string; column?: string }): { subjects: (string[] | undefined)[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const subjects = lists.map((list, i) => {
    if (!list?.length) return undefined;
    const unknown = unknownSubjects(sections, list);
    if (!unknown.length) return canonicalSubjects(sections, list);
    const known = sections.length ? `its sections are ${sections.map((s) => `"${s.name}"`).join(', ')}` : 'it has no sections';
    errors.push({ ...where(i), message: `${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is not a section' : 'are not sections'} of this exam (${known}).` });
    return undefined;
  });
  return { subjects, errors };
}

/** The stored roster, with `hallId` null on entries stored before centres existed. */
export function storedRoster(raw: unknown): StoredRosterRow[] {
  return (raw as (Omit<StoredRosterRow, 'hallId'> & { hallId?: string | null })[]).map((r) => ({ ...r, hallId: r.hallId ?? null }));
}

/**
 * The entries each hall's package carries: those assigned to it and those assigned to none,
 * in roster order. Grouped once, so publishing to many halls stays linear in the roster.
 * @returns hallId → that hall's share
 */
export function rosterShares<T extends { hallId: string | null }>(roster: T[]): (hallId: string) => T[] {
  const own = new Map<string, number[]>();
  const unassigned: number[] = [];
  roster.forEach((r, i) => {
    if (r.hallId === null) unassigned.push(i);
    else if (own.has(r.hallId)) own.get(r.hallId)!.push(i);
    else own.set(r.hallId, [i]);
  });
  return (hallId) => [...unassigned, ...(own.get(hallId) ?? [])].sort((x, y) => x - y).map((i) => roster[i]!);
}

/**
 * Checks that every named hall exists on this hub.
 * @param named hall ids with the error path each is reported under (e.g. `roster[3].hallId`)
 * @throws ValidationError listing every unknown hall; nothing is stored then
 */
export async function requireHalls(db: Pick<HubDb, 'select'>, named: { hallId: string; path: string; index?: number }[]): Promise<void> {
  const ids = [...new Set(named.map((n) => n.hallId))];
  if (!ids.length) return;
  const found = new Set((await db.select({ id: halls.id }).from(halls).where(inArray(halls.id, ids))).map((h) => h.id));
  const errors: FieldError[] = named.filter((n) => !found.has(n.hallId)).map((n) => ({ ...(n.index !== undefined ? { index: n.index } : {}), path: n.path, message: `no hall ${n.hallId} on this hub` }));
  if (errors.length) throw new ValidationError(`${errors.length} roster entr${errors.length === 1 ? 'y names a hall' : 'ies name halls'} this hub does not have; nothing was stored.`, errors);
}

/** requireHalls for the `hallId`s of roster entries (null and absent are "not assigned"). */
export async function requireRosterHalls(db: Pick<HubDb, 'select'>, roster: { hallId?: string | null }[]): Promise<void> {
  await requireHalls(
    db,
    roster.flatMap((r, i) => (r.hallId ? [{ hallId: r.hallId, path: `roster[${i}].hallId` }] : [])),
  );
}
