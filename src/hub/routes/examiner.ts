/** The hub's examiner API (API key): halls and their status, exams, publication, release codes, results. */
import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, z } from '../../platform/openapi.js';
import type { HubDeps } from '../deps.js';
import { requireExaminer } from '../auth.js';
import { createHall, hallStatus, hallStatusPage, revokeHall } from '../halls.js';
import { createHubExam, getHubExam, hubExamInputSchema, packageEnvelope, publishExam, releaseCodes } from '../exams.js';
import { examAnalysisAcrossHalls, examExport, examResults } from '../results.js';
import { createHubRouter, examinerSecurity } from '../router.js';
import { registerAuthoringRoutes } from './authoring.js';
import { registerCentreRoutes } from './centres.js';

const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['Hub: examiners'];
/** The halls view's page (issue #38 §7): all optional; none of them, the whole list as before. */
const hallPageQuery = z.object({ offset: z.coerce.number().int().min(0).max(10_000_000).optional(), limit: z.coerce.number().int().min(1).max(1000).optional(), q: z.string().trim().max(200).optional() });
const anyJson = (description: string) => jsonResponse(z.record(z.string(), z.unknown()), description);

/** Examiner routes under /hub/v1. */
export function examinerRoutes(deps: HubDeps) {
  const r = createHubRouter();
  r.use('/hub/v1/halls', requireExaminer(deps));
  r.use('/hub/v1/halls/*', requireExaminer(deps));
  r.use('/hub/v1/exams', requireExaminer(deps));
  r.use('/hub/v1/exams/*', requireExaminer(deps));
  r.use('/hub/v1/package-files/*', requireExaminer(deps));
  r.use('/hub/v1/questions/*', requireExaminer(deps));

  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/halls', tags, security: examinerSecurity, summary: 'Create a hall and its one-time enrolment code (shown once, valid 24 h)', request: { body: jsonBody(z.object({ name: z.string().trim().min(1).max(200) })) }, responses: { 201: anyJson('The hall and its enrolment code'), ...errorResponses } }),
    async (c) => c.json(await createHall(deps, c.var.examiner.id, c.req.valid('json').name), 201),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/halls', tags, security: examinerSecurity, summary: 'Every hall: last contact, clock offset (flagged past one minute), packages, releases, attempts in progress, results received vs expected. With `offset`, `limit` or `q` (a substring of the name or id): one page, oldest first, as `{ total, offset, limit, halls }`', request: { query: hallPageQuery }, responses: { 200: jsonResponse(z.union([z.array(z.record(z.string(), z.unknown())), z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int(), halls: z.array(z.record(z.string(), z.unknown())) })]), 'Halls'), 400: errorResponses[400], 401: errorResponses[401] } }),
    async (c) => {
      const q = c.req.valid('query');
      if (q.offset === undefined && q.limit === undefined && q.q === undefined) return c.json(await hallStatus(deps), 200);
      return c.json(await hallStatusPage(deps, { offset: q.offset ?? 0, limit: q.limit ?? 100, q: q.q || undefined }), 200);
    },
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/halls/{id}/revoke', tags, security: examinerSecurity, summary: 'Revoke a hall’s key (a stolen machine) and issue a new enrolment code for its replacement', request: { params: idParams }, responses: { 200: anyJson('A new enrolment code'), ...errorResponses } }),
    async (c) => c.json(await revokeHall(deps, c.var.examiner.id, c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/exams', tags, security: examinerSecurity, summary: 'Create an exam with its questions (the hall question schema and item rules) and roster', request: { body: jsonBody(hubExamInputSchema) }, responses: { 201: anyJson('The exam (questions with keys, roster with PINs)'), ...errorResponses } }),
    async (c) => c.json(await createHubExam(deps, c.var.examiner.id, c.req.valid('json')), 201),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}', tags, security: examinerSecurity, summary: 'An exam as examiners see it', request: { params: idParams }, responses: { 200: anyJson('The exam'), ...errorResponses } }),
    async (c) => c.json(await getHubExam(deps, c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/exams/{id}/publish', tags, security: examinerSecurity, summary: 'Seal the exam’s current version into one package per hall, each with that hall’s candidates and the credits they need; returns each hall’s release code (one per hall and exam, kept across versions). Without hallIds: republish to every hall it was published to', request: { params: idParams, body: jsonBody(z.object({ hallIds: z.array(z.string().min(1).max(64)).min(1).max(5000).optional() })) }, responses: { 200: jsonResponse(z.object({ packages: z.array(z.object({ hallId: z.string(), packageId: z.string(), version: z.number().int(), releaseCode: z.string(), candidates: z.number().int().openapi({ description: 'Candidates in this hall’s package: those assigned to it and those assigned to no hall' }), credits: z.number().int().openapi({ description: 'Candidate credits the package grants the hall when it releases the paper' }) })) }), 'Published'), ...errorResponses, 409: errorResponses[400] } }),
    async (c) => c.json({ packages: await publishExam(deps, c.var.examiner.id, c.req.valid('param').id, c.req.valid('json').hallIds) }, 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/release-codes', tags, security: examinerSecurity, summary: 'Each hall’s release code for this exam (read out or sent by SMS at the start time)', request: { params: idParams }, responses: { 200: jsonResponse(z.array(z.record(z.string(), z.unknown())), 'Release codes'), ...errorResponses } }),
    async (c) => c.json(await releaseCodes(deps, c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/package-files/{id}', tags, security: examinerSecurity, summary: 'A package as a file for a USB stick (the hall loads it on its admin page)', request: { params: idParams }, responses: { 200: { description: 'The signed, sealed package (JSON: payload, signature)' }, ...errorResponses } }),
    async (c) => {
      const p = await packageEnvelope(deps, c.req.valid('param').id);
      return c.body(p.envelope, 200, { 'content-type': 'application/json', 'content-disposition': `attachment; filename="${c.req.valid('param').id}.hallcbt-package.json"` });
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/results', tags, security: examinerSecurity, summary: 'Results across halls, per hall and per candidate (`received` counts them all; `offset`/`limit` page the candidates, by hall name then student id)', request: { params: idParams, query: z.object({ hallId: z.string().max(64).optional(), offset: z.coerce.number().int().min(0).max(10_000_000).optional(), limit: z.coerce.number().int().min(1).max(20_000).optional() }) }, responses: { 200: anyJson('Results'), ...errorResponses } }),
    async (c) => {
      const q = c.req.valid('query');
      const page = q.offset === undefined && q.limit === undefined ? undefined : { offset: q.offset ?? 0, limit: q.limit };
      return c.json(await examResults(deps, c.req.valid('param').id, q.hallId, page), 200);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/analysis', tags, security: examinerSecurity, summary: 'Item analysis over all halls (facility, discrimination, point-biserial, KR-20)', request: { params: idParams }, responses: { 200: anyJson('Item analysis'), ...errorResponses } }),
    async (c) => c.json(await examAnalysisAcrossHalls(deps, c.req.valid('param').id), 200),
  );
  for (const format of ['csv', 'xlsx'] as const) {
    r.openapi(
      createRoute({ method: 'get', path: `/hub/v1/exams/{id}/results.${format}`, tags, security: examinerSecurity, summary: `Results across halls as ${format}`, request: { params: idParams }, responses: { 200: { description: `results.${format}` }, ...errorResponses } }),
      async (c) => {
        const out = await examExport(deps, c.req.valid('param').id, format);
        const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
        return c.body(out.body as never, 200, { 'content-type': type, 'content-disposition': `attachment; filename="${out.filename}"` });
      },
    );
  }
  registerAuthoringRoutes(r, deps);
  registerCentreRoutes(r, deps);
  return r;
}
