/**
 * Builds the item-analysis response matrix of an exam from its stored questions,
 * attempts and answers. Only COMPLETED attempts are analysed (an attempt in progress
 * is not finished, a disqualified one was stopped). Objective items score their marks
 * when the chosen option is the key; essays score the examiner-approved marks (0 until
 * approved, as in grading). Options keep the examiner's key labels, whatever order a
 * candidate saw them in. A question a candidate was not given (sections' draws and
 * subjects, issue 37) is `null` in their row: it counts for nobody who did not see it.
 */
import type { StoredQuestion } from '../questions/schemas.js';
import type { AnswerRecord, AttemptRecord } from './records.js';
import type { ResponseMatrix } from './item-analysis.js';

/** Marks an answer earns on a question (0 when unanswered or an essay not yet approved). */
export function answerScore(q: StoredQuestion, a: AnswerRecord | undefined): number {
  if (!a) return 0;
  if (q.type === 'MCQ' || q.type === 'TRUE_FALSE') return q.options.find((o) => o.id === a.optionId)?.isCorrect ? q.marks : 0;
  return a.approvedMarks !== null ? Math.min(q.marks, Math.max(0, a.approvedMarks)) : 0;
}

/**
 * One row per completed attempt, one column per question (exam order); `answers` by attempt
 * id, then question id; an attempt's `questionIds` (when set) are the questions it was given.
 */
export function buildMatrix(questions: StoredQuestion[], attempts: AttemptRecord[], answers: Map<string, Map<string, AnswerRecord>>): ResponseMatrix {
  const items = questions.map((q) => ({
    questionId: q.id,
    type: q.type,
    marks: q.marks,
    prompt: q.prompt,
    options: q.options.map((o) => ({ optionId: o.id, keyLabel: o.keyLabel, text: o.text, isCorrect: o.isCorrect })),
  }));
  const candidates = attempts
    .filter((t) => t.status === 'COMPLETED')
    .map((t) => {
      const mine = answers.get(t.id);
      const given = t.questionIds ? new Set(t.questionIds) : null;
      const sat = (q: StoredQuestion) => !given || given.has(q.id);
      return {
        attemptId: t.id,
        scores: questions.map((q) => (sat(q) ? answerScore(q, mine?.get(q.id)) : null)),
        choices: questions.map((q) => (sat(q) && q.options.length ? (mine?.get(q.id)?.optionId ?? null) : null)),
      };
    });
  return { items, candidates };
}
