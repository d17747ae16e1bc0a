/**
 * The hub's roster and centre routes (docs/hub.md, "Candidates and centres"), registered
 * on the examiner router (API key): the roster with each candidate's hall, one candidate's
 * hall (PATCH), many at once, and a roster file with a `centre` column. A change to a
 * published exam answers the packages it re-issued.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { uploadErrors } from '../../uploads/http.js';
import { readUpload } from '../../uploads/upload-file.js';
import { errorResponses, jsonBody, jsonResponse, z } from '../../platform/openapi.js';
import { assignCandidates, assignmentSchema, hubRoster, importHubRoster } from '../centres.js';
import type { HubDeps, HubEnv } from '../deps.js';
import { examinerSecurity } from '../router.js';

const tags = ['Hub: candidates and centres'];
const examParams = z.object({ id: z.string().min(1).max(64) });
const candidateParams = z.object({ id: z.string().min(1).max(64), studentId: z.string().min(1).max(64) });
const conflict = { 409: { ...errorResponses[400], description: 'The paper has been released at a hall (PAPER_RELEASED) or may be released now (RELEASE_WINDOW_OPEN): the roster can no longer change' } };
const reissued = z
  .array(z.object({ hallId: z.string(), packageId: z.string(), version: z.number().int(), releaseCode: z.string(), candidates: z.number().int(), credits: z.number().int() }))
  .openapi({ description: 'The packages re-issued to the halls the exam was published to (empty before the first publication or when nothing changed); release codes are unchanged' });
const change = z.object({ examVersion: z.number().int(), reissued }).openapi('HubRosterChange');
const rosterView = z
  .object({
    examId: z.string(),
    candidates: z.array(z.object({ studentId: z.string(), candidateName: z.string(), pin: z.string(), hallId: z.string().nullable(), hallName: z.string().nullable(), subjects: z.array(z.string()).openapi({ description: 'Sections sat besides the compulsory ones ([]: none listed: every section)' }), extraTimePercent: z.number().int(), extraTimeMins: z.number().int() })),
    unassigned: z.number().int().openapi({ description: 'Candidates assigned to no hall: they are in every hall’s package (one result each is kept: the first hall to send one)' }),
    halls: z.array(z.object({ hallId: z.string(), hallName: z.string().nullable(), candidates: z.number().int() })),
  })
  .openapi('HubRoster');
const rosterFileForm = z
  .object({ file: z.any().openapi({ type: 'string', format: 'binary', description: 'CSV or .xlsx with columns studentId, candidateName, centre (a hall’s id or name; empty: no hall) and, as on a hall, subjects (section names separated by ;), extraTimePercent and extraTimeMins' }) })
  .openapi('HubRosterImportForm');

/** Adds the roster and centre routes to the examiner router `r`. */
export function registerCentreRoutes(r: OpenAPIHono<HubEnv>, deps: HubDeps): void {
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/roster', tags, security: examinerSecurity, summary: 'The roster with each candidate’s hall (centre) and PIN, and the count per hall', request: { params: examParams }, responses: { 200: jsonResponse(rosterView, 'Roster'), ...errorResponses } }),
    async (c) => c.json(await hubRoster(deps, c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({
      method: 'patch',
      path: '/hub/v1/exams/{id}/roster/{studentId}',
      tags,
      security: examinerSecurity,
      summary: 'Assign or move one candidate to a hall (hallId null: no hall); on a published exam both halls’ packages are re-issued at once',
      request: { params: candidateParams, body: jsonBody(assignmentSchema.pick({ hallId: true }).strict()) },
      responses: { 200: jsonResponse(change, 'Assigned'), ...errorResponses, ...conflict },
    }),
    async (c) => {
      const { id, studentId } = c.req.valid('param');
      return c.json(await assignCandidates(deps, c.var.examiner.id, id, [{ studentId, hallId: c.req.valid('json').hallId }], true), 200);
    },
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/exams/{id}/roster/assignments',
      tags,
      security: examinerSecurity,
      summary: 'Assign or move many candidates at once (all or nothing)',
      request: { params: examParams, body: jsonBody(z.object({ assignments: z.array(assignmentSchema).min(1).max(20_000) })) },
      responses: { 200: jsonResponse(change, 'Assigned'), ...errorResponses, ...conflict },
    }),
    async (c) => c.json(await assignCandidates(deps, c.var.examiner.id, c.req.valid('param').id, c.req.valid('json').assignments), 200),
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/exams/{id}/roster/import',
      tags,
      security: examinerSecurity,
      summary: 'Add or update candidates from a CSV or .xlsx with a centre column (all or nothing; errors by row and column)',
      request: { params: examParams, body: { required: true, content: { 'multipart/form-data': { schema: rosterFileForm } } } },
      responses: { 200: jsonResponse(change.extend({ created: z.number().int(), updated: z.number().int() }), 'Imported'), ...uploadErrors, ...conflict },
    }),
    async (c) => {
      const upload = await readUpload(c.req.valid('form').file);
      return c.json(await importHubRoster(deps, c.var.examiner.id, c.req.valid('param').id, upload), 200);
    },
  );
}
