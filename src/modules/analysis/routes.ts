/** HTTP route of item analysis: GET /exams/:id/analysis (API key). */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { examAnalysisSchema } from '../../core/analysis/schemas.js';
import { examAnalysis } from './service.js';

/** Item-analysis router. */
export function analysisRoutes(deps: HallDeps) {
  const r = createRouter();
  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/analysis',
      tags: ['Results'],
      security: keySecurity,
      middleware: [requireApiKey(deps)] as const,
      summary: 'Item analysis: facility, discrimination, point-biserial, option shares, KR-20',
      description:
        'Classical item analysis of the completed attempts of an exam, as examination boards and Moodle’s quiz statistics report it. Upper/lower groups are the top and bottom 27% by total score (ties at the boundary broken by start order). Variances are population variances.',
      request: { params: z.object({ id: z.string().min(1).max(64) }) },
      responses: { 200: jsonResponse(examAnalysisSchema, 'Item analysis'), ...errorResponses },
    }),
    (c) => c.json(examAnalysis(deps, c.var.workspace.id, c.req.valid('param').id), 200),
  );
  return r;
}
