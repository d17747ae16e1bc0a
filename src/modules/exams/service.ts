/**
 * Exam rules (docs/design.md §5): defaults, the scheduling window, installation-unique room
 * codes matched case-insensitively, publish flag, pause/resume of the whole exam
 * (the clock stops for every candidate: the paused span is credited on resume),
 * duplicate and delete (409 once it has attempts).
 */
import type { HallDeps } from '../../hall/deps.js';
import type { ExamRow, QuestionRow } from '../../db/rows.js';
import { newId, newRoomCode } from '../../platform/ids.js';
import { Conflict, NotFound, ValidationError } from '../../platform/errors.js';
import { iso } from '../../platform/clock.js';
import { writeAudit } from '../../hall/audit.js';
import type { CreateExamInput, PatchExamInput } from '../../core/exams/schemas.js';
import { sebColumnsAfter } from '../seb/index.js';
import { sebReadShape, type SebColumns } from '../seb-check/index.js';
import { insertQuestion } from './question-store.js';
import { parseSections } from '../../core/exams/sections.js';
import { assertDrawsPossible, assertSectionsFit, sectionsFromInput, sectionsRead } from './sections.js';

/** Exam row of the caller's workspace. @throws NotFound (also for another workspace's exam) */
export function getExamInWorkspace(deps: HallDeps, workspaceId: string, examId: string): ExamRow {
  const row = deps.sqlite.prepare('SELECT * FROM exams WHERE id = ? AND workspace_id = ?').get(examId, workspaceId) as ExamRow | undefined;
  if (!row) throw new NotFound('Exam');
  return row;
}

/** Row → API shape. */
export function serializeExam(e: ExamRow) {
  return {
    id: e.id,
    workspaceId: e.workspace_id,
    title: e.title,
    instructions: e.instructions,
    accessCode: e.access_code,
    durationMins: e.duration_mins,
    startsAt: iso(e.starts_at),
    endsAt: iso(e.ends_at),
    maxTabViolations: e.max_tab_violations,
    shuffleQuestions: !!e.shuffle_questions,
    shuffleChoices: !!e.shuffle_choices,
    showResultAfter: !!e.show_result_after,
    calculator: e.calculator,
    sections: sectionsRead(e),
    isPublished: !!e.is_published,
    isPaused: e.paused_at !== null,
    requireSafeExamBrowser: !!e.require_seb,
    safeExamBrowser: sebReadShape(e),
    createdAt: iso(e.created_at)!,
  };
}

const SEB_UPDATE = 'UPDATE exams SET require_seb = ?, seb_base_url = ?, seb_quit_password = ?, seb_quit_hash = ?, seb_browser_exam_keys = ? WHERE id = ?';
const sebArgs = (c: SebColumns) => [c.require_seb, c.seb_base_url, c.seb_quit_password, c.seb_quit_hash, c.seb_browser_exam_keys] as const;

/** Instructions as stored: trimmed; blank → null (none). */
const storedInstructions = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);

function parseWindow(startsAt: string | null | undefined, endsAt: string | null | undefined): { starts: number | null; ends: number | null } {
  const starts = startsAt ? Date.parse(startsAt) : null;
  const ends = endsAt ? Date.parse(endsAt) : null;
  if (starts !== null && ends !== null && ends <= starts) {
    throw new ValidationError('endsAt must be after startsAt.', [{ path: 'endsAt', message: 'must be after startsAt' }]);
  }
  return { starts, ends };
}

function assertCodeFree(deps: HallDeps, code: string, exceptExamId?: string): void {
  const row = deps.sqlite.prepare('SELECT id FROM exams WHERE access_code = ?').get(code) as { id: string } | undefined;
  if (row && row.id !== exceptExamId) throw new Conflict(`The room code ${code} is already used by another exam on this server. Choose another or leave it out to get one generated.`, { code: 'ACCESS_CODE_TAKEN' });
}

function freshCode(deps: HallDeps): string {
  for (let i = 0; i < 50; i++) {
    const code = newRoomCode();
    if (!deps.sqlite.prepare('SELECT 1 FROM exams WHERE access_code = ?').get(code)) return code;
  }
  throw new Conflict('Could not generate a free room code; try again.');
}

/**
 * POST /exams. `workspaceId` must be the caller's (else 404).
 * @param sebOrigin base URL for a Safe Exam Browser configuration, asked only when SEB is required
 */
export function createExam(deps: HallDeps, callerWorkspaceId: string, input: CreateExamInput, sebOrigin: () => string = () => ''): ExamRow {
  if (input.workspaceId !== callerWorkspaceId) throw new NotFound('Workspace');
  const { starts, ends } = parseWindow(input.startsAt, input.endsAt);
  const code = input.accessCode ? input.accessCode.toUpperCase() : freshCode(deps);
  const id = newId('ex');
  const now = deps.clock.now();
  deps.sqlite.transaction(() => {
    assertCodeFree(deps, code);
    deps.sqlite
      .prepare(
        `INSERT INTO exams (id, workspace_id, title, instructions, access_code, duration_mins, starts_at, ends_at, max_tab_violations, shuffle_questions, shuffle_choices, show_result_after, is_published, paused_at, created_at, updated_at)
         VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,NULL,?,?)`,
      )
      .run(id, callerWorkspaceId, input.title, storedInstructions(input.instructions), code, input.durationMins, starts, ends, input.maxTabViolations ?? 3, input.shuffleQuestions ? 1 : 0, input.shuffleChoices ? 1 : 0, input.showResultAfter === false ? 0 : 1, input.isPublished === false ? 0 : 1, now, now);
    if (input.calculator) deps.sqlite.prepare('UPDATE exams SET calculator = ? WHERE id = ?').run(input.calculator, id);
    const sections = sectionsFromInput(input.sections ?? null);
    if (sections) deps.sqlite.prepare('UPDATE exams SET sections_json = ? WHERE id = ?').run(JSON.stringify(sections), id);
    if (input.requireSafeExamBrowser || input.safeExamBrowser) deps.sqlite.prepare(SEB_UPDATE).run(...sebArgs(sebColumnsAfter(deps, null, input, sebOrigin)), id);
  })();
  return getExamInWorkspace(deps, callerWorkspaceId, id);
}

/** GET /exams?workspaceId= */
export function listExams(deps: HallDeps, callerWorkspaceId: string, workspaceId: string) {
  if (workspaceId !== callerWorkspaceId) throw new NotFound('Workspace');
  const rows = deps.sqlite
    .prepare(
      `SELECT e.*, (SELECT count(*) FROM questions q WHERE q.exam_id = e.id) AS qn, (SELECT count(*) FROM attempts a WHERE a.exam_id = e.id) AS an
       FROM exams e WHERE e.workspace_id = ? ORDER BY e.created_at DESC`,
    )
    .all(workspaceId) as (ExamRow & { qn: number; an: number })[];
  return rows.map((e) => ({
    id: e.id,
    title: e.title,
    accessCode: e.access_code,
    durationMins: e.duration_mins,
    startsAt: iso(e.starts_at),
    endsAt: iso(e.ends_at),
    isPublished: !!e.is_published,
    isPaused: e.paused_at !== null,
    _count: { questions: e.qn, attempts: e.an },
  }));
}

/**
 * PATCH /exams/:id (`sebOrigin` as in createExam). New `sections` must fit the exam's
 * questions and roster subjects (400); `isPublished: true` is refused while a section draws
 * more questions than it has (409 SECTION_DRAW_TOO_LARGE; exams/sections.ts).
 */
export function updateExam(deps: HallDeps, workspaceId: string, examId: string, patch: PatchExamInput, sebOrigin: () => string = () => ''): ExamRow {
  const e = getExamInWorkspace(deps, workspaceId, examId);
  const startsAt = patch.startsAt !== undefined ? patch.startsAt : iso(e.starts_at);
  const endsAt = patch.endsAt !== undefined ? patch.endsAt : iso(e.ends_at);
  const { starts, ends } = parseWindow(startsAt, endsAt);
  const code = patch.accessCode ? patch.accessCode.toUpperCase() : e.access_code;
  const bool = (v: boolean | undefined, cur: number) => (v === undefined ? cur : v ? 1 : 0);
  const sections = patch.sections !== undefined ? sectionsFromInput(patch.sections) : undefined;
  deps.sqlite.transaction(() => {
    assertCodeFree(deps, code, e.id);
    if (sections !== undefined) assertSectionsFit(deps, e.id, sections);
    if (patch.isPublished === true) assertDrawsPossible(deps, e.id, sections !== undefined ? sections : parseSections(e.sections_json));
    deps.sqlite
      .prepare(
        `UPDATE exams SET title=?, instructions=?, access_code=?, duration_mins=?, starts_at=?, ends_at=?, max_tab_violations=?, shuffle_questions=?, shuffle_choices=?, show_result_after=?, is_published=?, updated_at=? WHERE id=?`,
      )
      .run(patch.title ?? e.title, patch.instructions !== undefined ? storedInstructions(patch.instructions) : e.instructions, code, patch.durationMins ?? e.duration_mins, starts, ends, patch.maxTabViolations ?? e.max_tab_violations, bool(patch.shuffleQuestions, e.shuffle_questions), bool(patch.shuffleChoices, e.shuffle_choices), bool(patch.showResultAfter, e.show_result_after), bool(patch.isPublished, e.is_published), deps.clock.now(), e.id);
    if (patch.calculator) deps.sqlite.prepare('UPDATE exams SET calculator = ? WHERE id = ?').run(patch.calculator, e.id);
    if (sections !== undefined) deps.sqlite.prepare('UPDATE exams SET sections_json = ? WHERE id = ?').run(sections ? JSON.stringify(sections) : null, e.id);
    if (patch.requireSafeExamBrowser !== undefined || patch.safeExamBrowser) deps.sqlite.prepare(SEB_UPDATE).run(...sebArgs(sebColumnsAfter(deps, e, patch, sebOrigin)), e.id);
  })();
  deps.sessions.invalidateExam(e.id);
  return getExamInWorkspace(deps, workspaceId, examId);
}

/** DELETE /exams/:id — 409 when candidates have attempts (results must not vanish). */
export function deleteExam(deps: HallDeps, workspaceId: string, examId: string): void {
  const e = getExamInWorkspace(deps, workspaceId, examId);
  const n = (deps.sqlite.prepare('SELECT count(*) AS n FROM attempts WHERE exam_id = ?').get(e.id) as { n: number }).n;
  if (n > 0) throw new Conflict(`The exam has ${n} attempt(s); its results cannot be deleted. Unpublish it instead.`, { code: 'EXAM_HAS_ATTEMPTS' });
  deps.sqlite.transaction(() => {
    deps.sqlite.prepare('DELETE FROM questions WHERE exam_id = ?').run(e.id);
    deps.sqlite.prepare('DELETE FROM roster_entries WHERE exam_id = ?').run(e.id);
    deps.sqlite.prepare('DELETE FROM seat_allowances WHERE exam_id = ?').run(e.id);
    deps.sqlite.prepare('DELETE FROM exams WHERE id = ?').run(e.id);
  })();
  deps.sessions.invalidateExam(e.id);
}

/** POST /exams/:id/duplicate: a copy with a new room code, its questions, unpublished. */
export function duplicateExam(deps: HallDeps, workspaceId: string, examId: string): ExamRow {
  const e = getExamInWorkspace(deps, workspaceId, examId);
  const id = newId('ex');
  const now = deps.clock.now();
  deps.sqlite.transaction(() => {
    deps.sqlite
      .prepare(
        `INSERT INTO exams (id, workspace_id, title, instructions, access_code, duration_mins, starts_at, ends_at, max_tab_violations, shuffle_questions, shuffle_choices, show_result_after, calculator, sections_json, is_published, paused_at, created_at, updated_at)
         VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,NULL,?,?)`,
      )
      .run(id, workspaceId, `${e.title} (copy)`.slice(0, 200), e.instructions, freshCode(deps), e.duration_mins, e.starts_at, e.ends_at, e.max_tab_violations, e.shuffle_questions, e.shuffle_choices, e.show_result_after, e.calculator, e.sections_json, now, now);
    deps.sqlite.prepare(SEB_UPDATE).run(...sebArgs(e), id);
    const qs = deps.sqlite.prepare('SELECT * FROM questions WHERE exam_id = ? ORDER BY position').all(e.id) as QuestionRow[];
    for (const q of qs) {
      // fresh option ids, distinct within the question (they are short: platform/ids.ts)
      const old = JSON.parse(q.options_json) as { id: string }[];
      const ids = new Set<string>();
      while (ids.size < old.length) ids.add(newId('opt'));
      const fresh = [...ids];
      const options = old.map((o, i) => ({ ...o, id: fresh[i]! }));
      insertQuestion(deps.sqlite, { ...q, id: newId('q'), exam_id: id, workspace_id: workspaceId, options_json: JSON.stringify(options), created_at: now, updated_at: now });
    }
  })();
  return getExamInWorkspace(deps, workspaceId, id);
}

/**
 * POST /exams/:id/pause and /resume (audited). On resume the paused span is credited to
 * every attempt in progress, so the pause costs nobody time.
 */
export function setPaused(deps: HallDeps, workspaceId: string, examId: string, paused: boolean, reason: string): ExamRow {
  const e = getExamInWorkspace(deps, workspaceId, examId);
  const now = deps.clock.now();
  deps.sqlite.transaction(() => {
    if (paused && e.paused_at === null) {
      deps.sqlite.prepare('UPDATE exams SET paused_at = ?, updated_at = ? WHERE id = ?').run(now, now, e.id);
    } else if (!paused && e.paused_at !== null) {
      const span = Math.max(0, now - e.paused_at);
      // an attempt started during the pause is credited only the part after its start
      deps.sqlite.prepare("UPDATE attempts SET credited_ms = credited_ms + min(?, max(0, ? - started_at)) WHERE exam_id = ? AND status = 'IN_PROGRESS'").run(span, now, e.id);
      deps.sqlite.prepare('UPDATE exams SET paused_at = NULL, updated_at = ? WHERE id = ?').run(now, e.id);
    }
    writeAudit(deps.sqlite, { workspaceId, action: paused ? 'exam.pause' : 'exam.resume', targetType: 'exam', targetId: e.id, reason, at: now });
  })();
  deps.sessions.invalidateExam(e.id);
  return getExamInWorkspace(deps, workspaceId, examId);
}

/** POST /exams/:id/questions/reorder: `questionIds` must be exactly the exam's questions. */
export function reorderQuestions(deps: HallDeps, workspaceId: string, examId: string, questionIds: string[]): string[] {
  const e = getExamInWorkspace(deps, workspaceId, examId);
  const existing = (deps.sqlite.prepare('SELECT id FROM questions WHERE exam_id = ?').all(e.id) as { id: string }[]).map((r) => r.id);
  const same = existing.length === questionIds.length && new Set(questionIds).size === questionIds.length && questionIds.every((id) => existing.includes(id));
  if (!same) throw new ValidationError('questionIds must list every question of the exam exactly once.', [{ path: 'questionIds', message: 'must be a permutation of the exam’s question ids' }]);
  const upd = deps.sqlite.prepare('UPDATE questions SET position = ? WHERE id = ?');
  deps.sqlite.transaction(() => questionIds.forEach((id, i) => upd.run(i, id)))();
  deps.sessions.invalidateExam(e.id);
  return questionIds;
}
