/**
 * Routes of the essay review workflow: the queue of an exam, approving a score (stored by
 * essay-review.ts), and one question's calibrated review: recommendations and group
 * approval (calibrated-review.ts; docs/api-overview.md, "Essay review").
 */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, problem, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { approveEssayScore, essayQueue } from './essay-review.js';
import { approveEssayGroup, questionRecommendations } from './calibrated-review.js';
import { createGenerationService } from '../generation/index.js';

/** An examiner's marks for one script: per criterion or a total, comments for the candidate, the engine's recommendation for the record. */
const marksSchema = {
  criteriaScores: z.array(z.object({ criterionId: z.string().min(1).max(64), score: z.number().min(0).max(1000), feedback: z.string().max(5000).optional() })).max(20).optional(),
  score: z.number().min(0).max(1000).optional(),
  feedback: z.string().max(5000).optional(),
  recommended: z.unknown().optional(),
};
const approveSchema = z.object({ ...marksSchema, reason: z.string().max(500).optional() }).openapi('EssayScoreApproval');

/** Scripts in one group approval: a question's high-confidence recommendations, read by the examiner. */
const MAX_GROUP = 500;
const groupSchema = z
  .object({
    approvals: z.array(z.object({ attemptId: z.string().min(1).max(64), ...marksSchema })).min(1).max(MAX_GROUP),
    reason: z.string().max(500).optional(),
  })
  .openapi('EssayGroupApproval');

const questionParams = z.object({ id: z.string().min(1).max(64), questionId: z.string().min(1).max(64) });
const recommendationsSchema = z
  .object({
    success: z.literal(true),
    engine: z.string().nullable().openapi({ description: '"hallcbt-calibrated-1", or "hallcbt-calibrated-1+<model>" when the configured LLM marked every script (docs/llm.md); null when no script answered the question' }),
    examId: z.string(),
    questionId: z.string(),
    maxMarks: z.number(),
    markFirst: z.array(z.string()).openapi({ description: 'Attempt ids of the unapproved scripts to mark next, most informative first' }),
    scripts: z.array(z.object({ attemptId: z.string(), studentId: z.string(), candidateName: z.string(), wordCount: z.number(), awardedMarks: z.number().nullable().openapi({ description: 'the approved mark; null until approved' }) })),
    recommendations: z.array(
      z.object({
        attemptId: z.string(),
        totalScore: z.number(),
        criteriaScores: z.array(z.object({ criterionId: z.string(), score: z.number(), maxMarks: z.number(), feedback: z.string() })),
        confidence: z.enum(['high', 'medium', 'low']),
        calibrated: z.boolean(),
      }),
    ),
  })
  .openapi('EssayQuestionRecommendations');

/** Essay review router. */
export function essayReviewRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  const generation = createGenerationService({ config: deps.config, logger: deps.logger, jobs: deps.jobs });
  r.use('/exams/*', auth);
  r.use('/attempts/:id/essay-scores/*', auth);

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}/essay-reviews', tags: ['Essay review'], security: keySecurity, summary: 'Essay answers awaiting (or after) examiner review', request: { params: z.object({ id: z.string().min(1).max(64) }), query: z.object({ status: z.enum(['pending', 'reviewed', 'all']).default('pending'), questionId: z.string().min(1).max(64).optional().openapi({ description: "only this question's answers" }) }) }, responses: { 200: jsonResponse(z.array(z.record(z.string(), z.unknown())), 'Queue'), ...errorResponses } }),
    (c) => {
      const query = c.req.valid('query');
      return c.json(essayQueue(deps, c.var.workspace.id, c.req.valid('param').id, query.status, query.questionId), 200);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/essay-scores/{questionId}', tags: ['Essay review'], security: keySecurity, summary: 'Approve or adjust an essay score; re-grades the attempt (audited, webhook exam.attempt.regraded)', request: { params: z.object({ id: z.string().min(1).max(64), questionId: z.string().min(1).max(64) }), body: jsonBody(approveSchema) }, responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), 'Re-graded'), 409: problem('The attempt is not submitted yet, or the candidate left this question unanswered'), ...errorResponses } }),
    (c) => {
      const p = c.req.valid('param');
      return c.json(approveEssayScore(deps, c.var.workspace.id, p.id, p.questionId, c.req.valid('json')), 200);
    },
  );
  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/essay-review/{questionId}/recommendations',
      tags: ['Essay review'],
      security: keySecurity,
      summary: "One essay question's scripts with calibrated recommendations and the scripts to mark first",
      description:
        'Every submitted script of the question goes to the calibrated engine (as POST /api/cbt/ai/grade-essays, in a job process) with the marks already approved as the examiner\'s; ' +
        'returns `markFirst` and one recommendation per unapproved script (`confidence`, `calibrated`). Refitted on every request: ask again after each approval.',
      request: { params: questionParams },
      responses: { 200: jsonResponse(recommendationsSchema, 'Scripts, markFirst and recommendations'), ...errorResponses },
    }),
    async (c) => {
      const p = c.req.valid('param');
      return c.json(await questionRecommendations(deps, generation, c.var.workspace.id, p.id, p.questionId), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/exams/{id}/essay-review/{questionId}/approve',
      tags: ['Essay review'],
      security: keySecurity,
      summary: 'Approve several scripts of one essay question at once; each re-grades its attempt (one transaction, one audit row and one exam.attempt.regraded per script)',
      description: `1–${MAX_GROUP} approvals, each as the single approval takes it. Every approval is checked first: one bad approval (400 listing each by \`approvals.i.…\`, 404, 409) stores none.`,
      request: { params: questionParams, body: jsonBody(groupSchema) },
      responses: { 200: jsonResponse(z.object({ approved: z.number(), results: z.array(z.record(z.string(), z.unknown())) }), 'Re-graded'), 409: problem('An attempt is not submitted yet, or left this question unanswered'), ...errorResponses },
    }),
    (c) => {
      const p = c.req.valid('param');
      return c.json(approveEssayGroup(deps, c.var.workspace.id, p.id, p.questionId, c.req.valid('json')), 200);
    },
  );
  return r;
}
