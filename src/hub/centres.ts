/**
 * Candidates and centres on the hub (docs/hub.md, "Candidates and centres"): the roster
 * with each candidate's hall, assigning or moving candidates (one, or many at once), and a
 * roster file (CSV or .xlsx, the hall's reader: core/formats/roster-io.ts) whose `centre`
 * column names each candidate's hall by id or by name. Every change runs under the exam's
 * edit rules (authoring.ts editExamRow): refused once a hall has released the paper or may
 * release it; on a published exam it makes the next version and re-issues the packages at
 * once, so a moved candidate leaves one hall's package and joins the other's.
 */
import { eq } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { NotFound, ValidationError, type FieldError } from '../platform/errors.js';
import type { Upload } from '../uploads/upload-file.js';
import { readRosterUpload } from '../uploads/roster-upload.js';
import { editExamRow, type Reissued } from './authoring.js';
import type { HubDeps } from './deps.js';
import { halls, hubExams } from './db/schema.js';
import { checkedSubjects, requireHalls, rosterExtras, storedRoster, type StoredRosterRow } from './roster.js';
import { sectionsOf } from './exam-sections.js';

/** One assignment: a candidate of the roster and the hall they sit at (null: no hall). */
export const assignmentSchema = z.object({ studentId: z.string().trim().min(1).max(64), hallId: z.string().trim().min(1).max(64).nullable() });
export type Assignment = z.infer<typeof assignmentSchema>;

/** What a roster change answers: the exam's version after it and the packages it re-issued. */
export interface RosterChange {
  examVersion: number;
  reissued: Reissued;
}

/**
 * The exam's roster with each candidate's hall (id and name; null when not assigned), PIN,
 * subjects ([]: none listed) and extra time, and the count per hall. @throws NotFound
 */
export async function hubRoster(deps: HubDeps, examId: string) {
  const rows = await deps.db.select({ roster: hubExams.roster }).from(hubExams).where(eq(hubExams.id, examId));
  if (!rows[0]) throw new NotFound('Exam');
  const names = new Map((await deps.db.select({ id: halls.id, name: halls.name }).from(halls)).map((h) => [h.id, h.name]));
  const candidates = storedRoster(rows[0].roster).map((r) => ({ studentId: r.studentId, candidateName: r.candidateName, pin: deps.secrets.open(r.pin), hallId: r.hallId, hallName: r.hallId ? (names.get(r.hallId) ?? null) : null, subjects: r.subjects ?? [], extraTimePercent: r.extraTimePercent ?? 0, extraTimeMins: r.extraTimeMins ?? 0 }));
  const perHall = new Map<string, number>();
  for (const c of candidates) if (c.hallId) perHall.set(c.hallId, (perHall.get(c.hallId) ?? 0) + 1);
  return {
    examId,
    candidates,
    unassigned: candidates.filter((c) => c.hallId === null).length,
    halls: [...perHall].map(([hallId, n]) => ({ hallId, hallName: names.get(hallId) ?? null, candidates: n })),
  };
}

/**
 * Assigns candidates to halls (or to none), all or nothing. An assignment that changes
 * nothing is not a change (no new version); otherwise see the module's comment.
 * @param one the single-candidate route: a studentId not on the roster is NotFound, not a 400
 * @throws NotFound (exam), ValidationError (a studentId not on the roster or twice, an unknown hall; `errors[].index`), Conflict (released / release window)
 */
export async function assignCandidates(deps: HubDeps, examinerId: string, examId: string, assignments: Assignment[], one = false): Promise<RosterChange> {
  const seen = new Set<string>();
  const twice = assignments.flatMap((a, index) => (seen.has(a.studentId) ? [{ index, path: 'studentId', message: `${a.studentId} is assigned twice` }] : (seen.add(a.studentId), [])));
  if (twice.length) throw new ValidationError('A candidate appears twice in the assignments; nothing was stored.', twice);
  await requireHalls(deps.db, assignments.flatMap((a, index) => (a.hallId ? [{ hallId: a.hallId, path: 'hallId', index }] : [])));
  const current = await deps.db.select({ version: hubExams.version, roster: hubExams.roster }).from(hubExams).where(eq(hubExams.id, examId));
  if (!current[0]) throw new NotFound('Exam');
  const before = new Map(storedRoster(current[0].roster).map((r) => [r.studentId, r.hallId]));
  const missing: FieldError[] = assignments.flatMap((a, index) => (before.has(a.studentId) ? [] : [{ index, path: 'studentId', message: `${a.studentId} is not on this exam’s roster` }]));
  if (missing.length && one) throw new NotFound('Candidate');
  if (missing.length) throw new ValidationError(`${missing.length} candidate(s) are not on the roster; nothing was stored.`, missing);
  if (assignments.every((a) => before.get(a.studentId) === a.hallId)) return { examVersion: current[0].version, reissued: [] };
  const out = await editExamRow(deps, examinerId, examId, 'candidates-assigned', (e) => {
    const to = new Map(assignments.map((a) => [a.studentId, a.hallId]));
    const roster = storedRoster(e.roster);
    if (assignments.some((a) => !roster.some((r) => r.studentId === a.studentId))) throw new ValidationError('The roster changed meanwhile: a candidate is no longer on it; nothing was stored.');
    const moved = roster.filter((r) => to.has(r.studentId) && to.get(r.studentId) !== r.hallId).map((r) => ({ studentId: r.studentId, from: r.hallId, to: to.get(r.studentId)! }));
    return { set: { roster: roster.map((r) => (to.has(r.studentId) ? { ...r, hallId: to.get(r.studentId)! } : r)) }, result: {}, detail: { moved: moved.slice(0, 100), count: moved.length } };
  });
  return { examVersion: out.version, reissued: out.reissued };
}

/** The hall a `centre` cell names: a hall's id, or its name (case and spacing ignored) when one hall alone has it. */
function centreResolver(all: { id: string; name: string }[]): (cell: string) => string | { error: string } {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  const ids = new Set(all.map((h) => h.id));
  const byName = new Map<string, string[]>();
  for (const h of all) byName.set(norm(h.name), [...(byName.get(norm(h.name)) ?? []), h.id]);
  return (cell) => {
    if (ids.has(cell)) return cell;
    const named = byName.get(norm(cell)) ?? [];
    if (named.length === 1) return named[0]!;
    return { error: named.length ? `${named.length} halls are named "${cell}": give the hall’s id (${named.join(', ')})` : `no hall on this hub has the id or name "${cell}"` };
  };
}

/**
 * Adds or updates candidates from a roster file (CSV or .xlsx: studentId, candidateName, an
 * optional `centre` naming the hall by id or name, and the hall's optional subjects and extra
 * time columns, core/formats/roster-io.ts; phone is not kept on the hub). A subject that is
 * not a section of the exam is an error of its row (the hall's rule). A candidate already on
 * the roster gets the file's name, centre (an empty centre: no hall), subjects and extra
 * time, and keeps their PIN; a new one is issued a 6-digit PIN; candidates not in the file
 * stay as they are. All or nothing.
 * @throws NotFound, 415/413/422 upload errors, ValidationError (`errors: [{row, column, message}]`), Conflict
 */
export async function importHubRoster(deps: HubDeps, examinerId: string, examId: string, upload: Upload): Promise<RosterChange & { created: number; updated: number }> {
  const exists = await deps.db.select({ id: hubExams.id }).from(hubExams).where(eq(hubExams.id, examId));
  if (!exists[0]) throw new NotFound('Exam');
  const read = await readRosterUpload(deps.jobs, upload);
  const resolve = centreResolver(await deps.db.select({ id: halls.id, name: halls.name }).from(halls));
  const hallOf = read.centres.map((cell, i) => {
    if (cell === null) return null;
    const r = resolve(cell);
    if (typeof r === 'string') return r;
    read.errors.push({ row: read.rows[i]!, column: 'centre', message: r.error });
    return null;
  });
  if (read.errors.length) throw new ValidationError(`${new Set(read.errors.map((e) => e.row)).size} row(s) of the roster file have problems; nothing was stored.`, read.errors.map((e) => ({ ...e })));
  const counts = { created: 0, updated: 0 };
  const out = await editExamRow(deps, examinerId, examId, 'roster-imported', (e) => {
    const roster = storedRoster(e.roster);
    const index = new Map(roster.map((r, i) => [r.studentId, i]));
    counts.created = counts.updated = 0;
    const subjects = checkedSubjects(sectionsOf(e.settings), read.candidates.map((c) => c.subjects), (i) => ({ row: read.rows[i]!, column: 'subjects' }));
    if (subjects.errors.length) throw new ValidationError(`${subjects.errors.length} row(s) of the roster file have problems; nothing was stored.`, subjects.errors);
    read.candidates.forEach((c, i) => {
      const at = index.get(c.studentId);
      const row: StoredRosterRow = { studentId: c.studentId, candidateName: c.candidateName, pin: at === undefined ? deps.secrets.seal(String(randomInt(0, 1_000_000)).padStart(6, '0')) : roster[at]!.pin, hallId: hallOf[i] ?? null, ...rosterExtras({ ...c, subjects: subjects.subjects[i] }) };
      if (at === undefined) {
        index.set(c.studentId, roster.length);
        roster.push(row);
        counts.created++;
      } else {
        roster[at] = row;
        counts.updated++;
      }
    });
    if (roster.length > 20_000) throw new ValidationError(`A roster holds at most 20000 candidates; this file would make ${roster.length}.`, [{ row: null, column: 'studentId', message: 'too many candidates' }]);
    return { set: { roster }, result: {}, detail: { ...counts } };
  });
  return { ...counts, examVersion: out.version, reissued: out.reissued };
}
