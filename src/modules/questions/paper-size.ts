/**
 * The exam-wide paper limits (src/core/questions/limits.ts; docs/decisions.md, "Paper size
 * limits") applied where questions enter a hall exam: POST /questions/bulk and every import
 * (through insertQuestions), PATCH /questions/:id, and a released hub package. Call inside
 * the transaction that writes, so two requests cannot both fit the last room.
 */
import type { HallDeps } from '../../hall/deps.js';
import type { QuestionRow } from '../../db/rows.js';
import { ValidationError } from '../../platform/errors.js';
import { NO_SIZE, addSizes, firstOverPaperLimit, paperLimitProblem, questionLimitProblem, questionSize, type QuestionSize, type SizedQuestion } from '../../core/questions/limits.js';

/** The columns a size is measured from (the SELECTs below). */
type SizeRow = Pick<QuestionRow, 'id' | 'prompt' | 'options_json' | 'explanation' | 'model_answer' | 'rubric_json'>;

/** The size of a stored question row. */
function rowSize(r: SizeRow): QuestionSize {
  return questionSize({ prompt: r.prompt, options: JSON.parse(r.options_json) as { text: string }[], explanation: r.explanation, modelAnswer: r.model_answer, rubric: r.rubric_json ? JSON.parse(r.rubric_json) : null });
}

/** The exam's stored questions, except `exceptId`: their number and summed size. */
function storedTotal(deps: HallDeps, examId: string, exceptId?: string): { count: number; total: QuestionSize } {
  const rows = deps.sqlite.prepare('SELECT id, prompt, options_json, explanation, model_answer, rubric_json FROM questions WHERE exam_id = ?').all(examId) as SizeRow[];
  let total = NO_SIZE;
  let count = 0;
  for (const r of rows) {
    if (r.id === exceptId) continue;
    total = addSizes(total, rowSize(r));
    count++;
  }
  return { count, total };
}

/**
 * Refuses adding `incoming` to the exam when the paper would cross a limit.
 * @throws ValidationError naming the first question (`index` in `incoming`) that crosses it
 */
export function checkPaperRoom(deps: HallDeps, examId: string, incoming: SizedQuestion[]): void {
  const { count, total } = storedTotal(deps, examId);
  const over = firstOverPaperLimit(count, total, incoming.map(questionSize));
  if (over) {
    throw new ValidationError(`Question ${over.index + 1} of ${incoming.length} would take the exam over a paper size limit; nothing was stored.`, [
      { index: over.index, path: '(paper)', message: `${over.message} (docs/decisions.md, "Paper size limits")` },
    ]);
  }
}

/**
 * Refuses replacing question `questionId` with `next` when the paper would cross a limit. A
 * change that makes no measure larger is always allowed, so an exam stored before the limits
 * (and over them) can still be edited down.
 * @throws ValidationError naming the question
 */
export function checkPaperAfterEdit(deps: HallDeps, examId: string, questionId: string, next: SizedQuestion): void {
  const others = storedTotal(deps, examId, questionId);
  const row = deps.sqlite.prepare('SELECT id, prompt, options_json, explanation, model_answer, rubric_json FROM questions WHERE id = ?').get(questionId) as SizeRow | undefined;
  const before = row ? rowSize(row) : NO_SIZE;
  const after = questionSize(next);
  const grows = (Object.keys(after) as (keyof QuestionSize)[]).some((k) => after[k] > before[k]);
  const problem = grows ? paperLimitProblem(others.count + 1, addSizes(others.total, after)) : null;
  if (problem) throw new ValidationError(`Question ${questionId} would take the exam over a paper size limit after the change; nothing was stored.`, [{ path: 'prompt', questionId, message: `${problem} (docs/decisions.md, "Paper size limits")` }]);
}

/**
 * Refuses a whole paper (a hub package being released into a new exam) when one of its
 * questions or the paper crosses a limit: the hub applies the same limits when examiners
 * author, so only a paper from an older or hostile hub is refused.
 * @throws ValidationError naming the question (`index`, `path`)
 */
export function checkWholePaper(questions: SizedQuestion[]): void {
  for (const [index, q] of questions.entries()) {
    const p = questionLimitProblem(q);
    if (p) throw new ValidationError(`Question ${index + 1} of the paper is over a size limit; the paper was not released.`, [{ index, path: p.path, message: `${p.message} (docs/decisions.md, "Paper size limits")` }]);
  }
  const over = firstOverPaperLimit(0, NO_SIZE, questions.map(questionSize));
  if (over) throw new ValidationError(`The paper is over a size limit from question ${over.index + 1}; it was not released.`, [{ index: over.index, path: '(paper)', message: `${over.message} (docs/decisions.md, "Paper size limits")` }]);
}
