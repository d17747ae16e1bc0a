/**
 * Whether the questions a hall says a candidate was given are a sitting the paper allows
 * that candidate (docs/hub-protocol.md, "Results up"; docs/decisions.md, "Sections, draws
 * and subject combinations"): the hub cannot redraw (the seed is the hall's, per attempt),
 * but it can check that the given questions are exactly the candidate's sections — the
 * compulsory ones and the subjects the package's roster lists — each with its draw's count
 * of its own questions. Pure: no I/O.
 */
import { sittingSections, type ExamSection } from '../core/exams/sections.js';

/**
 * @param questions the paper's questions (id and section)
 * @param subjects the candidate's subjects on the package's roster (null: none listed)
 * @param given the event's `givenQuestionIds` (undefined: not sent)
 * @returns null when the sitting is allowed, else why not, in words
 */
export function sittingProblem(sections: readonly ExamSection[], questions: readonly { id: string; section: string | null }[], subjects: readonly string[] | null, given: readonly string[] | undefined): string | null {
  const sat = sittingSections(sections, subjects);
  if (given === undefined) return sat.some((s) => s.draw !== null) ? 'The event does not name the questions the candidate was given (givenQuestionIds), which a paper with draws needs.' : null;
  const sectionOf = new Map(questions.map((q) => [q.id, q.section]));
  if (new Set(given).size !== given.length) return 'givenQuestionIds names a question twice.';
  const unknown = given.filter((id) => !sectionOf.has(id));
  if (unknown.length) return `givenQuestionIds names questions that are not on the paper: ${unknown.slice(0, 5).join(', ')}.`;
  const satNames = new Set(sat.map((s) => s.name));
  const outside = given.filter((id) => !satNames.has(sectionOf.get(id) ?? ''));
  if (outside.length) return `The candidate was given questions of sections they do not sit: ${outside.slice(0, 5).join(', ')}.`;
  for (const s of sat) {
    const has = questions.filter((q) => q.section === s.name).length;
    const want = s.draw === null ? has : Math.min(s.draw, has);
    const got = given.filter((id) => sectionOf.get(id) === s.name).length;
    if (got !== want) return `Section "${s.name}" gives each candidate ${want} question${want === 1 ? '' : 's'}; the candidate was given ${got}.`;
  }
  return null;
}
