/**
 * A stored question back into the shape an import takes (the hall's exports and copies,
 * the hub's authoring): pure, used by both programs.
 */
import type { StoredQuestion } from '../questions/schemas.js';
import type { ImportedQuestion } from './types.js';

/** Stored question (examiner view) → QuestionInput, dropping ids and empty fields. */
export function toQuestionInput(q: StoredQuestion): ImportedQuestion {
  const objective = q.type === 'MCQ' || q.type === 'TRUE_FALSE';
  return {
    type: q.type,
    prompt: q.prompt,
    marks: q.marks,
    ...(objective ? { options: q.options.map((o) => ({ keyLabel: o.keyLabel, text: o.text, isCorrect: o.isCorrect })) } : {}),
    ...(q.explanation ? { explanation: q.explanation } : {}),
    ...(q.section ? { section: q.section } : {}),
    ...(q.minWords !== null ? { minWords: q.minWords } : {}),
    ...(q.maxWords !== null ? { maxWords: q.maxWords } : {}),
    ...(q.modelAnswer ? { modelAnswer: q.modelAnswer } : {}),
    ...(q.rubric
      ? {
          rubric: {
            name: q.rubric.name,
            totalMarks: q.rubric.totalMarks,
            criteria: q.rubric.criteria.map((c) => ({ id: c.id, title: c.title, maxMarks: c.maxMarks, ...(c.description ? { description: c.description } : {}) })),
          },
        }
      : {}),
  };
}
