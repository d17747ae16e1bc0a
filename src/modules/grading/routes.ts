/** Routes of the essay review workflow: the queue of an exam, approving a score (stored by essay-review.ts). */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, problem, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { approveEssayScore, essayQueue } from './essay-review.js';

const approveSchema = z
  .object({
    criteriaScores: z.array(z.object({ criterionId: z.string().min(1).max(64), score: z.number().min(0).max(1000), feedback: z.string().max(5000).optional() })).max(20).optional(),
    score: z.number().min(0).max(1000).optional(),
    feedback: z.string().max(5000).optional(),
    reason: z.string().max(500).optional(),
    recommended: z.unknown().optional(),
  })
  .openapi('EssayScoreApproval');

/** Essay review router. */
export function essayReviewRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  r.use('/exams/*', auth);
  r.use('/attempts/:id/essay-scores/*', auth);

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}/essay-reviews', tags: ['Essay review'], security: keySecurity, summary: 'Essay answers awaiting (or after) examiner review', request: { params: z.object({ id: z.string().min(1).max(64) }), query: z.object({ status: z.enum(['pending', 'reviewed', 'all']).default('pending') }) }, responses: { 200: jsonResponse(z.array(z.record(z.string(), z.unknown())), 'Queue'), ...errorResponses } }),
    (c) => c.json(essayQueue(deps, c.var.workspace.id, c.req.valid('param').id, c.req.valid('query').status), 200),
  );

  r.openapi(
    createRoute({ method: 'post', path: '/attempts/{id}/essay-scores/{questionId}', tags: ['Essay review'], security: keySecurity, summary: 'Approve or adjust an essay score; re-grades the attempt (audited, webhook exam.attempt.regraded)', request: { params: z.object({ id: z.string().min(1).max(64), questionId: z.string().min(1).max(64) }), body: jsonBody(approveSchema) }, responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), 'Re-graded'), 409: problem('The attempt is not submitted yet, or the candidate left this question unanswered'), ...errorResponses } }),
    (c) => {
      const p = c.req.valid('param');
      return c.json(approveEssayScore(deps, c.var.workspace.id, p.id, p.questionId, c.req.valid('json')), 200);
    },
  );
  return r;
}
