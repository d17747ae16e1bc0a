/**
 * Essay grading with an LLM (issue 7 §4, "used the same way as in 3"): the model returns
 * a score and feedback per rubric criterion; every criterion must be present once, scores
 * are rounded to half marks within [0, maxMarks] and the total is computed here.
 * Any failure throws LlmFailure.
 */
import { z } from 'zod';
import { toHalfMarks } from '../../../core/grading/essay/grade-essay.js';
import type { Evaluation, GradeEssayRequest } from '../../../core/generation/schemas.js';
import { chatJson, LlmFailure, type LlmSettings } from './client.js';

export const LlmEvaluationSchema = z.object({
  criteriaScores: z.array(z.object({ criterionId: z.string(), score: z.number(), feedback: z.string().max(2000) })),
  overallComment: z.string().max(3000),
  strengths: z.array(z.string().max(500)).max(10),
  areasForImprovement: z.array(z.string().max(500)).max(10),
});

/**
 * Grades with the LLM.
 * @throws LlmFailure when the call fails or the answer does not cover each criterion exactly once.
 */
export async function gradeWithLlm(settings: LlmSettings, req: GradeEssayRequest): Promise<Evaluation> {
  const rubric = req.rubricCriteria.map((c) => `- ${c.id}: ${c.title} (max ${c.maxMarks})${c.description ? ` — ${c.description}` : ''}`).join('\n');
  const limits = req.minWords || req.maxWords ? `\nWord limits: ${req.minWords ?? 0}–${req.maxWords ?? '∞'} words (deduct for answers outside them).` : '';
  const answer = await chatJson(
    settings,
    [
      { role: 'system', content: 'You are an experienced WAEC examiner. Score the response against each rubric criterion in half marks, using the model answer as the standard. Feedback names the ideas found and missing. Reply in JSON only.' },
      { role: 'user', content: `Question: ${req.questionPrompt}\n\nModel answer: ${req.modelAnswer}\n\nRubric (total ${req.maxMarks}):\n${rubric}${limits}\n\nCandidate's response:\n${req.studentResponse}` },
    ],
    'essay_evaluation',
    LlmEvaluationSchema,
  );
  const byId = new Map(answer.criteriaScores.map((c) => [c.criterionId, c]));
  if (byId.size !== answer.criteriaScores.length || req.rubricCriteria.some((c) => !byId.has(c.id)) || byId.size !== req.rubricCriteria.length) {
    throw new LlmFailure('did not score each rubric criterion exactly once');
  }
  const criteriaScores = req.rubricCriteria.map((c) => ({ criterionId: c.id, score: toHalfMarks(byId.get(c.id)!.score, c.maxMarks), maxMarks: c.maxMarks, feedback: byId.get(c.id)!.feedback }));
  return {
    criteriaScores,
    totalScore: toHalfMarks(criteriaScores.reduce((s, c) => s + c.score, 0), req.maxMarks),
    maxScore: req.maxMarks,
    overallComment: answer.overallComment,
    strengths: answer.strengths,
    areasForImprovement: answer.areasForImprovement,
  };
}
