/**
 * An exam's sections as the exam service writes them (issue 37 items 1–3; docs/decisions.md,
 * "Sections, draws and subject combinations"): stored as JSON on the exams row, checked
 * against the exam's questions and its roster's subjects when they change, and each
 * section's draw against its questions when the exam is published. The rules themselves
 * are the core's (core/exams/sections.ts).
 */
import type { HallDeps } from '../../hall/deps.js';
import type { ExamRow, QuestionRow } from '../../db/rows.js';
import { Conflict, ValidationError, type FieldError } from '../../platform/errors.js';
import type { ExamSectionsInput } from '../../core/exams/schemas.js';
import { drawProblems, parseSections, questionsOutsideSections, unknownSubjects, type ExamSection } from '../../core/exams/sections.js';

/** Validated input → the list as stored (draw null when absent, compulsory true when absent); null for none. */
export function sectionsFromInput(input: NonNullable<ExamSectionsInput> | null): ExamSection[] | null {
  if (!input || input.length === 0) return null;
  return input.map((s) => ({ name: s.name, draw: s.draw ?? null, compulsory: s.compulsory !== false }));
}

/** The exam JSON's `sections`: [] when the exam has none. */
export function sectionsRead(e: Pick<ExamRow, 'sections_json'>): ExamSection[] {
  return parseSections(e.sections_json) ?? [];
}

/**
 * Refuses new sections that the exam's questions or roster do not fit: with sections,
 * every question must name one of them, and every roster candidate's subjects must be
 * among them. Nothing to check when the sections are removed.
 * @throws ValidationError 400 naming each question (number and id) or candidate that does not fit
 */
export function assertSectionsFit(deps: HallDeps, examId: string, sections: ExamSection[] | null): void {
  if (!sections) return;
  const rows = deps.sqlite.prepare('SELECT id, position, section FROM questions WHERE exam_id = ? ORDER BY position').all(examId) as Pick<QuestionRow, 'id' | 'position' | 'section'>[];
  const errors: FieldError[] = questionsOutsideSections(sections, rows).map(({ question, message }) => ({
    path: 'sections',
    questionId: question.id,
    message: `Question ${rows.indexOf(question) + 1} (${question.id}): ${message}`,
  }));
  const roster = deps.sqlite.prepare('SELECT student_id, subjects_json FROM roster_entries WHERE exam_id = ? AND subjects_json IS NOT NULL ORDER BY student_id').all(examId) as { student_id: string; subjects_json: string }[];
  for (const r of roster) {
    const unknown = unknownSubjects(sections, JSON.parse(r.subjects_json) as string[]);
    if (unknown.length) errors.push({ path: 'sections', studentId: r.student_id, message: `Roster candidate ${r.student_id} takes ${unknown.map((n) => `"${n}"`).join(', ')}, which would no longer be a section of the exam.` });
  }
  if (errors.length) {
    throw new ValidationError(
      `${errors.length} question(s) or roster candidate(s) do not fit these sections; nothing was changed. With sections, every question names one of them in "section", and every roster subject is one of them.`,
      errors,
    );
  }
}

/**
 * Refuses to publish an exam whose sections draw more questions than they have (issue 37
 * item 2: at publish or start, never at grading).
 * @throws Conflict 409 `SECTION_DRAW_TOO_LARGE` naming each such section
 */
export function assertDrawsPossible(deps: HallDeps, examId: string, sections: ExamSection[] | null): void {
  if (!sections) return;
  const rows = deps.sqlite.prepare('SELECT id, section FROM questions WHERE exam_id = ?').all(examId) as Pick<QuestionRow, 'id' | 'section'>[];
  const problems = drawProblems(sections, rows);
  if (problems.length) throw new Conflict(`The exam cannot be published: ${problems.join(' ')} Add questions to the section or lower its draw.`, { code: 'SECTION_DRAW_TOO_LARGE', problems });
}
