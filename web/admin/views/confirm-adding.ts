/**
 * Asking before questions are added to an exam that candidates have already submitted
 * (every way of adding: the question editor, bulk paste and imports, generated questions).
 */
import { h } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Exam } from '../types.js';
import { openDialog } from '../ui.js';

/**
 * Before adding questions: when the exam has submitted attempts, says what happens to their
 * scores and asks. Resolves true to go on (also when nothing was submitted yet).
 */
export async function confirmAdding(ctx: Ctx, exam: Exam): Promise<boolean> {
  const attempts = await ctx.api.get<Array<{ status: string }>>(`/exams/${encodeURIComponent(exam.id)}/attempts`);
  const n = attempts.filter((a) => a.status !== 'IN_PROGRESS').length;
  if (!n) return true;
  const answer = await openDialog({
    title: 'Add questions to an exam already taken?',
    intro: h('p', null, `${n} submitted attempt${n === 1 ? '' : 's'} will keep the score and maximum they were given: they are not re-scored, and their candidates never saw the new questions. `,
      'Candidates who start from now on get the new questions. If you later approve an essay score of a submitted attempt, that attempt is re-scored against the whole paper and the new questions count as unanswered.'),
    submitLabel: 'Add the questions',
  });
  return answer !== null;
}
