/**
 * Exam rosters (spec 1.1.0 "candidate roster management with PIN distribution by
 * messaging link", docs/design.md §4/§7): the server issues each listed candidate a 6-digit PIN,
 * stored sealed so the examiner can print it again; each entry carries `sms:` and
 * WhatsApp `https://wa.me/` links whose text gives room code, student ID and PIN.
 */
import type { HallDeps } from '../../hall/deps.js';
import { clearStudentThrottle } from '../attempts/index.js';
import { newId, newPin } from '../../platform/ids.js';
import { Conflict, NotFound, ValidationError } from '../../platform/errors.js';
import { iso } from '../../platform/clock.js';
import { getExamInWorkspace } from '../exams/index.js';
import type { ExamRow, RosterRow } from '../../db/rows.js';
import type { RosterInput } from '../../core/roster/schemas.js';
import { canonicalSubjects, parseSections, unknownSubjects, type ExamSection } from '../../core/exams/sections.js';

export type { RosterInput };

/** Message and links for one candidate's PIN slip. */
function messagingLinks(exam: Pick<ExamRow, 'title' | 'access_code'>, e: { studentId: string; candidateName: string; phone: string | null; pin: string }) {
  const text = `HallCBT: ${e.candidateName}, for "${exam.title}" use room code ${exam.access_code}, student ID ${e.studentId} and PIN ${e.pin}. Keep your PIN private.`;
  const digits = (e.phone ?? '').replace(/[^\d]/g, '');
  const plusPhone = e.phone ? (e.phone.trim().startsWith('+') ? `+${digits}` : digits) : '';
  return {
    smsLink: `sms:${plusPhone}?body=${encodeURIComponent(text)}`,
    whatsappLink: `https://wa.me/${digits}?text=${encodeURIComponent(text)}`,
  };
}

function serialize(deps: HallDeps, exam: ExamRow, r: RosterRow) {
  const pin = deps.secrets.open(r.pin_sealed);
  return {
    id: r.id,
    studentId: r.student_id,
    candidateName: r.candidate_name,
    phone: r.phone,
    subjects: r.subjects_json ? (JSON.parse(r.subjects_json) as string[]) : [],
    pin,
    extraTimePercent: r.extra_time_percent,
    extraTimeMins: r.extra_time_mins,
    ...messagingLinks(exam, { studentId: r.student_id, candidateName: r.candidate_name, phone: r.phone, pin }),
    createdAt: iso(r.created_at)!,
  };
}

/**
 * Refuses roster entries whose studentId already has an attempt started with a PIN its
 * candidate chose (the exam was an open room until now): on the roster that studentId
 * would belong to someone who never chose that PIN, so whoever claimed it first would keep
 * it (docs/decisions.md, "A roster student ID is never claimed with a chosen PIN").
 * @throws Conflict 409 `STUDENT_ID_CLAIMED` listing the studentIds
 */
function assertNotClaimed(deps: HallDeps, examId: string, studentIds: string[]): void {
  const claimed = deps.sqlite.prepare('SELECT 1 FROM attempts WHERE exam_id = ? AND student_id = ? AND pin_hash IS NOT NULL');
  const taken = studentIds.filter((id) => claimed.get(examId, id));
  if (taken.length) {
    throw new Conflict(
      `${taken.length === 1 ? 'This student ID has' : 'These student IDs have'} already been used to start the exam with a PIN the candidate chose, before the roster existed: ${taken.slice(0, 20).join(', ')}${taken.length > 20 ? ', …' : ''}. Nothing was stored. Check who sat under ${taken.length === 1 ? 'it' : 'them'} (the monitor), then add the roster without ${taken.length === 1 ? 'it' : 'them'}, or put the roster on a copy of the exam.`,
      { code: 'STUDENT_ID_CLAIMED', studentIds: taken },
    );
  }
}

/**
 * A candidate's subjects as stored (issue 37 item 3): spelled as the exam's sections, in
 * their order, as JSON; null when none are listed. Unknown names are reported in `errors`.
 */
function storedSubjects(sections: ExamSection[], subjects: string[] | null | undefined, index: number, errors: { index: number; path: string; message: string }[]): string | null {
  if (!subjects?.length) return null;
  const unknown = unknownSubjects(sections, subjects);
  if (unknown.length) {
    const known = sections.length ? `its sections are ${sections.map((s) => `"${s.name}"`).join(', ')}` : 'it has no sections';
    errors.push({ index, path: 'subjects', message: `${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is not a section' : 'are not sections'} of this exam (${known}).` });
    return null;
  }
  return JSON.stringify(canonicalSubjects(sections, subjects));
}

/**
 * Adds candidates (all-or-nothing), each with its access arrangements (extra time, read
 * once at the candidate's start and kept with the attempt) and subjects. A studentId
 * already on the roster or repeated in the request, or a subject that is not a section of
 * the exam → 400 listing the indexes; one already started with a chosen PIN → 409
 * (assertNotClaimed).
 */
export function addToRoster(deps: HallDeps, workspaceId: string, examId: string, candidates: RosterInput[]) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const seen = new Set<string>();
  const errors: { index: number; path: string; message: string }[] = [];
  const exists = deps.sqlite.prepare('SELECT 1 FROM roster_entries WHERE exam_id = ? AND student_id = ?');
  const subjects: (string | null)[] = [];
  const sections = parseSections(exam.sections_json) ?? [];
  candidates.forEach((cand, index) => {
    if (seen.has(cand.studentId)) errors.push({ index, path: 'studentId', message: `studentId ${cand.studentId} appears twice in the request` });
    else if (exists.get(exam.id, cand.studentId)) errors.push({ index, path: 'studentId', message: `studentId ${cand.studentId} is already on the roster` });
    seen.add(cand.studentId);
    subjects.push(storedSubjects(sections, cand.subjects, index, errors));
  });
  if (errors.length) throw new ValidationError('Some candidates could not be added; nothing was stored.', errors);
  assertNotClaimed(deps, exam.id, candidates.map((c) => c.studentId));
  const now = deps.clock.now();
  const ids: string[] = [];
  const ins = deps.sqlite.prepare('INSERT INTO roster_entries (id, exam_id, workspace_id, student_id, candidate_name, phone, pin_sealed, subjects_json, created_at, extra_time_percent, extra_time_mins) VALUES (?,?,?,?,?,?,?,?,?,?,?)');
  deps.sqlite.transaction(() => {
    candidates.forEach((cand, i) => {
      const id = newId('cand');
      ids.push(id);
      ins.run(id, exam.id, workspaceId, cand.studentId, cand.candidateName, cand.phone ?? null, deps.secrets.seal(newPin(6)), subjects[i], now, cand.extraTimePercent ?? 0, cand.extraTimeMins ?? 0);
    });
  })();
  deps.sessions.invalidateExam(exam.id);
  const get = deps.sqlite.prepare('SELECT * FROM roster_entries WHERE id = ?');
  return ids.map((id) => serialize(deps, exam, get.get(id) as RosterRow));
}

/** GET /exams/:id/roster, ordered by studentId. */
export function listRoster(deps: HallDeps, workspaceId: string, examId: string) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const rows = deps.sqlite.prepare('SELECT * FROM roster_entries WHERE exam_id = ? ORDER BY student_id').all(exam.id) as RosterRow[];
  return rows.map((r) => serialize(deps, exam, r));
}

function getEntry(deps: HallDeps, examId: string, candidateId: string): RosterRow {
  const r = deps.sqlite.prepare('SELECT * FROM roster_entries WHERE id = ? AND exam_id = ?').get(candidateId, examId) as RosterRow | undefined;
  if (!r) throw new NotFound('Roster entry');
  return r;
}

/** DELETE a roster entry; refused (409) once the candidate has an attempt. */
export function removeFromRoster(deps: HallDeps, workspaceId: string, examId: string, candidateId: string): void {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const r = getEntry(deps, exam.id, candidateId);
  if (deps.sqlite.prepare('SELECT 1 FROM attempts WHERE exam_id = ? AND student_id = ?').get(exam.id, r.student_id)) {
    throw new Conflict('This candidate has already started the exam and cannot be removed from the roster.');
  }
  deps.sqlite.prepare('DELETE FROM roster_entries WHERE id = ?').run(r.id);
  deps.sessions.invalidateExam(exam.id);
}

/** Issues a new PIN for one roster entry, and clears that studentId's sign-in throttle. */
export function regeneratePin(deps: HallDeps, workspaceId: string, examId: string, candidateId: string) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const r = getEntry(deps, exam.id, candidateId);
  deps.sqlite.prepare('UPDATE roster_entries SET pin_sealed = ? WHERE id = ?').run(deps.secrets.seal(newPin(6)), r.id);
  // a new PIN is a fresh start: wrong guesses at the old one no longer hold anyone back
  clearStudentThrottle(deps, exam.id, r.student_id);
  return serialize(deps, exam, getEntry(deps, exam.id, candidateId));
}
