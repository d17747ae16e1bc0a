/**
 * Sections, draws, subject combinations and the calculator on a hub exam (docs/operations.md
 * §13, "A UTME mock"; docs/decisions.md, "Sections, draws and subject combinations"): the
 * hall's input schemas and core rules applied to the exam's settings (kept in the
 * `hub_exams.settings` jsonb beside the proctoring settings), so a paper the board authors
 * is held to exactly what a hall would refuse, and travels in the sealed paper (v2).
 */
import { createExamSchema, type ExamCalculator } from '../core/exams/schemas.js';
import { drawProblems, questionsOutsideSections, type ExamSection, type SectionedQuestion } from '../core/exams/sections.js';
import type { Paper } from '../core/sync/messages.js';
import { Conflict, ValidationError, type FieldError } from '../platform/errors.js';

/** The hall's `sections` input (names unique case-insensitively, draws ≥ 1, at most 30). */
export const hubSectionsInput = createExamSchema.shape.sections;
/** The hall's `calculator` input: "none", "basic" or "scientific". */
export const hubCalculatorInput = createExamSchema.shape.calculator;

/** The settings jsonb of a hub exam as stored (sections and calculator absent on exams without them). */
export interface HubExamSettings {
  maxTabViolations: number;
  shuffleQuestions: boolean;
  shuffleChoices: boolean;
  showResultAfter: boolean;
  calculator?: ExamCalculator;
  sections?: ExamSection[];
}

/** Validated `sections` input → the list as stored (draw null when absent, compulsory true when absent); undefined for none. */
export function sectionsFromHubInput(input: { name: string; draw?: number; compulsory?: boolean }[] | null | undefined): ExamSection[] | undefined {
  if (!input?.length) return undefined;
  return input.map((s) => ({ name: s.name, draw: s.draw ?? null, compulsory: s.compulsory !== false }));
}

/** The exam's sections (none: []). */
export const sectionsOf = (settings: unknown): ExamSection[] => (settings as HubExamSettings).sections ?? [];

/**
 * With sections, every question must name one of them in `section` (the hall's rule).
 * @param offset the paper position of `questions[0]` (errors carry `index` = position in the request when 0)
 * @throws ValidationError listing each question that names no section of the exam
 */
export function assertQuestionsInSections(sections: readonly ExamSection[], questions: readonly SectionedQuestion[], path = 'section'): void {
  if (!sections.length) return;
  const errors: FieldError[] = questionsOutsideSections(sections, questions).map(({ question, message }) => ({ index: questions.indexOf(question), path, message }));
  if (errors.length) throw new ValidationError(`${errors.length} question(s) name no section of the exam; nothing was stored.`, errors);
}

/**
 * Refuses to publish a paper whose sections draw more questions than they have (the hall's
 * rule at publish, modules/exams/sections.ts).
 * @throws Conflict 409 `SECTION_DRAW_TOO_LARGE` naming each such section
 */
export function assertHubDrawsPossible(sections: readonly ExamSection[], questions: readonly SectionedQuestion[]): void {
  const problems = drawProblems(sections, questions);
  if (problems.length) throw new Conflict(`The exam cannot be published: ${problems.join(' ')} Add questions to the section or lower its draw.`, { code: 'SECTION_DRAW_TOO_LARGE', problems });
}

/** The paper's `settings` (the four v1 settings; `calculator` only when it is not "none"). */
export function paperSettings(settings: unknown): Paper['settings'] {
  const s = settings as HubExamSettings;
  return { maxTabViolations: s.maxTabViolations, shuffleQuestions: s.shuffleQuestions, shuffleChoices: s.shuffleChoices, showResultAfter: s.showResultAfter, ...(s.calculator && s.calculator !== 'none' ? { calculator: s.calculator } : {}) };
}
