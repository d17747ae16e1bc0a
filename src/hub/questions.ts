/**
 * Questions of a hub exam, kept in the exam's `questions` JSON in paper order. Each is the
 * hall's normalised question (core/questions/normalise.ts: the same labels, ids, essay
 * defaults) with the hub's own question id and its times, so the examiner sees the hall's
 * stored-question shape and a paper carries exactly the hall's paper-question fields.
 */
import { normaliseQuestion, type NormalisedQuestion } from '../core/questions/normalise.js';
import type { QuestionInput, StoredQuestion } from '../core/questions/schemas.js';
import type { SealedQuestion } from '../core/sync/messages.js';
import { newOptionId, newQuestionId } from './ids.js';

/** One question as the hub stores it. `createdAt` is absent on questions stored before authoring existed. */
export interface HubQuestion extends NormalisedQuestion {
  id: string;
  createdAt?: string;
  updatedAt?: string;
}

/** A new stored question (new id) from a validated input. `now` is ISO. */
export function newHubQuestion(q: QuestionInput, now: string): HubQuestion {
  return { id: newQuestionId(), ...normaliseQuestion(q, newOptionId), createdAt: now, updatedAt: now };
}

/** The stored question `cur` replaced by a validated input; option ids named in the input are kept. */
export function replacedHubQuestion(cur: HubQuestion, q: QuestionInput, now: string): HubQuestion {
  return { id: cur.id, ...normaliseQuestion(q, newOptionId, new Set(cur.options.map((o) => o.id))), createdAt: cur.createdAt, updatedAt: now };
}

/** The examiner's view: the hall's stored-question shape (docs/api-overview.md, "Question"). */
export function examinerQuestion(examId: string, q: HubQuestion, position: number, examCreatedAt: string): StoredQuestion {
  return {
    id: q.id,
    examId,
    position,
    prompt: q.prompt,
    type: q.type,
    marks: q.marks,
    options: q.options,
    explanation: q.explanation ?? null,
    section: q.section ?? null,
    minWords: q.minWords ?? null,
    maxWords: q.maxWords ?? null,
    modelAnswer: q.modelAnswer ?? null,
    rubric: q.rubric ?? null,
    difficulty: q.difficulty ?? null,
    citation: q.citation ?? null,
    createdAt: q.createdAt ?? examCreatedAt,
  };
}

/** What a sealed paper carries of a question (core/sync/messages.ts `SealedQuestion`). */
export function sealedQuestion(q: HubQuestion | StoredQuestion): SealedQuestion {
  return { id: q.id, prompt: q.prompt, type: q.type, marks: q.marks, options: q.options, explanation: q.explanation ?? null, section: q.section ?? null, minWords: q.minWords ?? null, maxWords: q.maxWords ?? null, modelAnswer: q.modelAnswer ?? null, rubric: q.rubric ?? null };
}
