/**
 * How a result event is kept in `hub_results.body` (docs/decisions.md, "The hub at ten
 * thousand halls"): the event as the hall sent it, except that each answer leaves out the
 * fields that hold their usual value — `optionId`, `text` and `awardedMarks` when null,
 * `reviewed` when false — so a 60-answer objective paper stores `{questionId, optionId}` per
 * answer instead of five keys; the hub's marks are kept as one number (or null) per answer in
 * the same order (`marks`), not keyed by question id again. Lossless: {@link eventOfBody}
 * gives back the event as sent (the same JSON values), which is what a repeated event id is
 * compared with; rows stored before (every field present, marks keyed) read the same way.
 * Pure: no I/O.
 */
import type { ResultEvent } from '../core/sync/messages.js';

type Answer = ResultEvent['attempt']['answers'][number];
/** An answer as stored: the question, and only the fields that differ from null / false. */
export type StoredAnswer = Pick<Answer, 'questionId'> & Partial<Omit<Answer, 'questionId'>>;

/** The event as `hub_results.body` keeps it: answers without their null / false fields. */
export function packEvent(e: ResultEvent): ResultEvent {
  const answers = e.attempt.answers.map((a) => {
    const s: StoredAnswer = { questionId: a.questionId };
    if (a.optionId !== null) s.optionId = a.optionId;
    if (a.text !== null) s.text = a.text;
    if (a.awardedMarks !== null) s.awardedMarks = a.awardedMarks;
    if (a.reviewed) s.reviewed = true;
    return s;
  });
  return { ...e, attempt: { ...e.attempt, answers: answers as Answer[] } };
}

/** The event as the hall sent it, from a stored body (either layout). */
export function eventOfBody(body: ResultEvent): ResultEvent {
  const answers = (body.attempt.answers as StoredAnswer[]).map((a): Answer => ({ questionId: a.questionId, optionId: a.optionId ?? null, text: a.text ?? null, awardedMarks: a.awardedMarks ?? null, reviewed: a.reviewed ?? false }));
  return { ...body, attempt: { ...body.attempt, answers } };
}

/** The hub's marks (questionId → marks) as stored: one entry per answer of `e`, in its order, null where the hub awards none. */
export function packMarks(e: ResultEvent, marks: Record<string, number>): (number | null)[] {
  return e.attempt.answers.map((a) => (Object.hasOwn(marks, a.questionId) ? marks[a.questionId]! : null));
}

/**
 * The hub's marks on each answer of `answers` from a row's `marks`: an array in the answers'
 * order, or (older rows) an object by question id; null where the hub awards none.
 */
export function marksOnAnswers(marks: (number | null)[] | Record<string, number>, answers: readonly Answer[]): (number | null)[] {
  return Array.isArray(marks) ? answers.map((_, i) => marks[i] ?? null) : answers.map((a) => marks[a.questionId] ?? null);
}
