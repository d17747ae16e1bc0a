/** HTTP routes of exam rosters (PIN issue and distribution links). */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { rosterCandidateSchema } from '../../core/roster/schemas.js';
import { addToRoster, listRoster, regeneratePin, removeFromRoster } from './service.js';

const rosterEntrySchema = z
  .object({ id: z.string(), studentId: z.string(), candidateName: z.string(), phone: z.string().nullable(), subjects: z.array(z.string()).openapi({ description: 'The candidate’s subjects (sections of the exam besides the compulsory ones); [] when none are listed: every section' }), pin: z.string(), extraTimePercent: z.number().int(), extraTimeMins: z.number().int(), smsLink: z.string(), whatsappLink: z.string(), createdAt: z.string() })
  .openapi('RosterEntry');

export { rosterCandidateSchema };

const params = z.object({ id: z.string().min(1).max(64) });
const entryParams = z.object({ id: z.string().min(1).max(64), candidateId: z.string().min(1).max(64) });

/** Roster router (paths /exams/:id/roster...). */
export function rosterRoutes(deps: HallDeps) {
  const r = createRouter();
  r.use('/exams/*', requireApiKey(deps));

  r.openapi(
    createRoute({ method: 'post', path: '/exams/{id}/roster', tags: ['Roster'], security: keySecurity, summary: 'Add candidates; the server issues each a PIN', request: { params, body: jsonBody(z.object({ candidates: z.array(rosterCandidateSchema).min(1).max(5000) })) }, responses: { 201: jsonResponse(z.object({ created: z.number().int(), candidates: z.array(rosterEntrySchema) }), 'Added'), ...errorResponses } }),
    (c) => {
      const candidates = addToRoster(deps, c.var.workspace.id, c.req.valid('param').id, c.req.valid('json').candidates);
      return c.json({ created: candidates.length, candidates }, 201);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/exams/{id}/roster', tags: ['Roster'], security: keySecurity, summary: 'Roster with PINs and messaging links', request: { params }, responses: { 200: jsonResponse(z.array(rosterEntrySchema), 'Roster'), ...errorResponses } }),
    (c) => c.json(listRoster(deps, c.var.workspace.id, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/exams/{id}/roster/{candidateId}', tags: ['Roster'], security: keySecurity, summary: 'Remove a candidate who has not started', request: { params: entryParams }, responses: { 204: { description: 'Removed' }, ...errorResponses } }),
    (c) => {
      const p = c.req.valid('param');
      removeFromRoster(deps, c.var.workspace.id, p.id, p.candidateId);
      return c.body(null, 204);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/exams/{id}/roster/{candidateId}/pin', tags: ['Roster'], security: keySecurity, summary: 'Issue a new PIN', request: { params: entryParams }, responses: { 200: jsonResponse(rosterEntrySchema, 'Entry'), ...errorResponses } }),
    (c) => {
      const p = c.req.valid('param');
      return c.json(regeneratePin(deps, c.var.workspace.id, p.id, p.candidateId), 200);
    },
  );
  return r;
}
