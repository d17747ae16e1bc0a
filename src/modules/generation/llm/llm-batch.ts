/**
 * One question's scripts graded by the LLM for the calibrated batch (issue 39 §3; docs/llm.md,
 * "Essays"): the model's evaluation of each script becomes the raw evidence that the same
 * calibration as the built-in engine's fits to the examiner's marks
 * (core/grading/essay/calibrate.ts). A local model takes seconds per script and the review
 * screen asks again after every approval, so evaluations are kept in memory by (model,
 * question, response): only scripts the model has not seen cost a call.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Evaluation, GradeEssaysRequest } from '../../../core/generation/schemas.js';
import type { LlmSettings } from './client.js';
import { gradeWithLlm } from './llm-grade.js';

/** Scripts sent to the model at once (a laptop's llama.cpp or Ollama serves one or two at a time). */
export const LLM_BATCH_CONCURRENCY = 2;
/** Evaluations kept between requests (about 1 KB each). */
const CACHE_ENTRIES = 5000;

/** A cache of the model's evaluations, one per service. */
export type EvaluationCache = LRUCache<string, Evaluation>;

/** A new, empty evaluation cache. */
export function evaluationCache(): EvaluationCache {
  return new LRUCache<string, Evaluation>({ max: CACHE_ENTRIES });
}

/**
 * The LLM's evaluation of every script of `req` (same order), null for a script with no
 * words (the calibration marks it 0 itself). Cached evaluations are reused.
 * @throws LlmFailure when any script's call fails: the caller grades the whole batch with the
 *   built-in engine instead, so one batch is never calibrated on two engines' scales.
 */
export async function evaluateScriptsWithLlm(settings: LlmSettings, req: GradeEssaysRequest, cache: EvaluationCache): Promise<(Evaluation | null)[]> {
  const { scripts, ...question } = req;
  const questionKey = JSON.stringify([settings.model, question.questionPrompt, question.modelAnswer, question.rubricCriteria, question.maxMarks, question.minWords ?? null, question.maxWords ?? null]);
  const keyOf = (text: string) => createHash('sha256').update(questionKey).update('\0').update(text).digest('hex');
  const out: (Evaluation | null)[] = scripts.map((s) => (s.studentResponse.trim() ? (cache.get(keyOf(s.studentResponse)) ?? null) : null));
  const todo = scripts.flatMap((s, i) => (s.studentResponse.trim() && !out[i] ? [i] : []));
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < todo.length) {
      const i = todo[next++]!;
      const text = scripts[i]!.studentResponse;
      try {
        const evaluation = await gradeWithLlm(settings, { ...question, studentResponse: text });
        cache.set(keyOf(text), evaluation);
        out[i] = evaluation;
      } catch (err) {
        failed = true; // the other worker stops at its next script
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LLM_BATCH_CONCURRENCY, todo.length) }, worker));
  return out;
}
