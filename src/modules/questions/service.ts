/**
 * Question rules (docs/design.md §6): all-or-nothing bulk ingestion with per-item errors,
 * keyLabels defaulting to A, B, C…, essay word defaults, option ids `opt_…`, and the
 * examiner view (answer keys included). The candidate view is built in sessions/paper.ts.
 */
import type { HallDeps } from '../../hall/deps.js';
import type { QuestionRow } from '../../db/rows.js';
import { newId } from '../../platform/ids.js';
import { NotFound, ValidationError, type FieldError } from '../../platform/errors.js';
import { iso } from '../../platform/clock.js';
import { getExamInWorkspace } from '../exams/index.js';
import { normaliseQuestion } from '../../core/questions/normalise.js';
import { questionInputSchema, type QuestionInput, type StoredQuestion } from '../../core/questions/schemas.js';
import { checkPaperAfterEdit, checkPaperRoom } from './paper-size.js';
import { insertQuestion } from '../exams/index.js';
import { parseSections, questionsOutsideSections, type ExamSection } from '../../core/exams/sections.js';

/**
 * With sections on the exam, each question must name one of them (issue 37 item 1).
 * @returns why the item does not, or null (always null when the exam has no sections)
 */
function sectionError(sections: ExamSection[] | null, item: { section?: string | null }): string | null {
  return sections ? (questionsOutsideSections(sections, [{ id: '', section: item.section ?? null }])[0]?.message ?? null) : null;
}

/** Row → examiner view. */
export function serializeQuestion(q: QuestionRow): StoredQuestion {
  return {
    id: q.id,
    examId: q.exam_id,
    position: q.position,
    prompt: q.prompt,
    type: q.type,
    marks: q.marks,
    options: JSON.parse(q.options_json),
    explanation: q.explanation,
    section: q.section,
    minWords: q.min_words,
    maxWords: q.max_words,
    modelAnswer: q.model_answer,
    rubric: q.rubric_json ? JSON.parse(q.rubric_json) : null,
    difficulty: q.difficulty,
    citation: q.citation,
    createdAt: iso(q.created_at)!,
  };
}

/** Normalises a validated input into column values (labels, ids, defaults: core/questions/normalise.ts). */
function toColumns(q: QuestionInput, keepOptionIds: ReadonlySet<string> = new Set()) {
  const n = normaliseQuestion(q, () => newId('opt'), keepOptionIds);
  return { ...n, optionsJson: JSON.stringify(n.options), rubricJson: n.rubric ? JSON.stringify(n.rubric) : null };
}

/**
 * Validates every item and inserts them all in one transaction, after the exam's
 * existing questions. Nothing is stored when any item is invalid or the exam's paper would
 * cross a size limit (paper-size.ts).
 * @throws NotFound when the exam is outside the workspace
 * @throws ValidationError with `errors: [{index, path, message}]` (`path: '(paper)'` for a paper limit)
 */
export function insertQuestions(deps: HallDeps, workspaceId: string, examId: string, inputs: unknown[]): StoredQuestion[] {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const errors: FieldError[] = [];
  const valid: QuestionInput[] = [];
  const sections = parseSections(exam.sections_json);
  inputs.forEach((raw, index) => {
    const r = questionInputSchema.safeParse(raw);
    if (r.success) {
      valid.push(r.data);
      const outside = sectionError(sections, r.data);
      if (outside) errors.push({ index, path: 'section', message: outside });
    } else for (const i of r.error.issues) errors.push({ index, path: i.path.map(String).join('.') || '(item)', message: i.message });
  });
  if (errors.length) {
    const n = new Set(errors.map((e) => e.index)).size;
    throw new ValidationError(`${n} of ${inputs.length} question(s) are invalid; nothing was stored.`, errors);
  }
  const now = deps.clock.now();
  const ids: string[] = [];
  deps.sqlite.transaction(() => {
    // the exam's paper limits (docs/decisions.md, "Paper size limits"), in the transaction that writes
    checkPaperRoom(deps, exam.id, valid);
    let pos = (deps.sqlite.prepare('SELECT coalesce(max(position), -1) + 1 AS p FROM questions WHERE exam_id = ?').get(exam.id) as { p: number }).p;
    for (const q of valid) {
      const c = toColumns(q);
      const id = newId('q');
      ids.push(id);
      insertQuestion(deps.sqlite, {
        id, exam_id: exam.id, workspace_id: workspaceId, position: pos++, type: c.type, prompt: c.prompt, marks: c.marks, options_json: c.optionsJson, explanation: c.explanation, section: c.section,
        min_words: c.minWords, max_words: c.maxWords, model_answer: c.modelAnswer, rubric_json: c.rubricJson, difficulty: c.difficulty, citation: c.citation, created_at: now, updated_at: now,
      });
    }
  })();
  deps.sessions.invalidateExam(exam.id);
  const get = deps.sqlite.prepare('SELECT * FROM questions WHERE id = ?');
  return ids.map((id) => serializeQuestion(get.get(id) as QuestionRow));
}

/** Question of the caller's workspace. @throws NotFound */
export function getQuestionInWorkspace(deps: HallDeps, workspaceId: string, id: string): QuestionRow {
  const q = deps.sqlite.prepare('SELECT * FROM questions WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as QuestionRow | undefined;
  if (!q) throw new NotFound('Question');
  return q;
}

/** All questions of an exam in position order (examiner view). */
export function listExamQuestions(deps: HallDeps, examId: string): StoredQuestion[] {
  return (deps.sqlite.prepare('SELECT * FROM questions WHERE exam_id = ? ORDER BY position').all(examId) as QuestionRow[]).map(serializeQuestion);
}

/**
 * PATCH /questions/:id: merges the patch into the stored question and re-validates the
 * whole item. Option ids given in the patch are kept so candidates' saved answers stay valid.
 * @throws NotFound, ValidationError (the item rules, or a paper size limit: paper-size.ts)
 */
export function patchQuestion(deps: HallDeps, workspaceId: string, id: string, patch: Record<string, unknown>): StoredQuestion {
  const cur = serializeQuestion(getQuestionInWorkspace(deps, workspaceId, id));
  const merged = { ...cur, ...patch };
  const r = questionInputSchema.safeParse(merged);
  if (!r.success) throw new ValidationError('The question is invalid after the change; nothing was stored.', r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
  const examSections = parseSections((deps.sqlite.prepare('SELECT sections_json FROM exams WHERE id = ?').get(cur.examId) as { sections_json: string | null }).sections_json);
  const outside = sectionError(examSections, r.data);
  if (outside) throw new ValidationError(`Question ${id}: ${outside} Nothing was stored.`, [{ path: 'section', questionId: id, message: outside }]);
  const c = toColumns(r.data, new Set(cur.options.map((o) => o.id)));
  deps.sqlite.transaction(() => {
    checkPaperAfterEdit(deps, cur.examId, id, r.data);
    deps.sqlite
      .prepare(`UPDATE questions SET type=?, prompt=?, marks=?, options_json=?, explanation=?, section=?, min_words=?, max_words=?, model_answer=?, rubric_json=?, difficulty=?, citation=?, updated_at=? WHERE id=?`)
      .run(c.type, c.prompt, c.marks, c.optionsJson, c.explanation, c.section, c.minWords, c.maxWords, c.modelAnswer, c.rubricJson, c.difficulty, c.citation, deps.clock.now(), id);
  })();
  deps.sessions.invalidateExam(cur.examId);
  return serializeQuestion(getQuestionInWorkspace(deps, workspaceId, id));
}

/** DELETE /questions/:id */
export function deleteQuestion(deps: HallDeps, workspaceId: string, id: string): void {
  const q = getQuestionInWorkspace(deps, workspaceId, id);
  deps.sqlite.prepare('DELETE FROM questions WHERE id = ?').run(q.id);
  deps.sessions.invalidateExam(q.exam_id);
}
