/**
 * The hub's hall API (docs/hub-protocol.md): enrolment with a one-time code, then only
 * signed requests (auth.ts): packages, online release, results, heartbeat. Bodies a hall
 * acts on come back as hub-signed envelopes.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { enrolRequestSchema, heartbeatSchema, resultBatchOutcomeSchema, resultBatchSchema, resultEventSchema } from '../../core/sync/messages.js';
import { errorResponses, jsonBody, jsonResponse, z } from '../../platform/openapi.js';
import type { HubDeps } from '../deps.js';
import { requireHallSignature } from '../auth.js';
import { enrolHall } from '../halls.js';
import { hallPackage, hallPackages, ingestResult, ingestResultBatch, recordHeartbeat, releaseOnline } from '../sync.js';
import { createHubRouter, hallSecurity } from '../router.js';
import { clientAddress } from '../../platform/http.js';

/** The enrolling client's address: the TCP peer, or behind a trusted proxy the last X-Forwarded-For entry. */
function enrolAddress(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('x-forwarded-for')?.split(',').pop()?.trim() : undefined;
  return forwarded || clientAddress(c);
}

const envelopeSchema = z.object({ payload: z.string(), signature: z.string() }).openapi('HubEnvelope');
const packageParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['Hub: halls'];
const hallErrors = { 400: errorResponses[400], 401: { ...errorResponses[401], description: 'Not signed by an enrolled hall: unknown hall, bad signature, clock more than 5 minutes off, or a replayed nonce (audited)' }, 404: errorResponses[404] };

/** Hall routes under /hub/v1. */
export function hallRoutes(deps: HubDeps) {
  const r = createHubRouter();
  const signed = requireHallSignature(deps);
  r.use('/hub/v1/packages', signed);
  r.use('/hub/v1/packages/*', signed);
  r.use('/hub/v1/releases/*', signed);
  r.use('/hub/v1/results', signed);
  r.use('/hub/v1/results/batch', signed);
  r.use('/hub/v1/heartbeat', signed);

  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/enrol',
      tags,
      summary: 'Enrol a hall with a one-time code and its Ed25519 public key',
      description: 'Wrong codes are limited to 10 per client address per 10 minutes and 60 tries per minute across the hub; over a limit → 429 with Retry-After and the code is not checked (docs/hub.md, "Trust model").',
      request: { body: jsonBody(enrolRequestSchema) },
      responses: { 200: jsonResponse(envelopeSchema, 'Signed enrolment: hall id and the hub’s public key'), 400: errorResponses[400], 401: { ...errorResponses[401], description: 'Enrolment code unknown, used or expired' }, 429: { ...errorResponses[400], description: 'Too many wrong enrolment codes from this address, or tries on this hub (Retry-After)' } },
    }),
    async (c) => {
      const held = await deps.enrolThrottle.take(deps.db, enrolAddress(c, deps.config.HUB_TRUST_PROXY), new Date(deps.clock.now()));
      const envelope = await enrolHall(deps, c.req.valid('json'));
      await held.giveBack(); // a right code is not a guess
      return c.json(envelope, 200);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/packages', tags, security: hallSecurity, summary: 'This hall’s packages', responses: { 200: jsonResponse(z.array(z.record(z.string(), z.unknown())), 'Packages'), ...hallErrors } }),
    async (c) => c.json(await hallPackages(deps, c.var.hall.id), 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/packages/{id}', tags, security: hallSecurity, summary: 'One sealed package of this hall', request: { params: packageParams }, responses: { 200: jsonResponse(envelopeSchema, 'Signed package'), ...hallErrors } }),
    async (c) => c.json(await hallPackage(deps, c.var.hall.id, c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/releases/{id}', tags, security: hallSecurity, summary: 'The package’s release code, from 5 minutes before the start', request: { params: packageParams }, responses: { 200: jsonResponse(envelopeSchema, 'Signed release'), ...hallErrors, 409: { ...errorResponses[400], description: 'Too early: still sealed (releasableAt)' } } }),
    async (c) => c.json(await releaseOnline(deps, c.var.hall.id, c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/results', tags, security: hallSecurity, summary: 'One result event (idempotent by eventId)', description: 'The hub recomputes the score from the answers and its own copy of the package and stores its own figures (a differing claim is kept and audited). docs/hub-protocol.md, "Results up".', request: { body: jsonBody(resultEventSchema) }, responses: { 200: jsonResponse(z.object({ duplicate: z.boolean() }), 'Stored (or already stored with the same content)'), ...hallErrors, 409: { ...errorResponses[400], description: 'A second result of the attempt, a result of a candidate the hub already holds one of from another hall (SECOND_SITTING: a candidate sits a paper once), or the event id held with other content (audited)' }, 422: { ...errorResponses[400], description: 'Candidate not on the package’s roster, or a time outside the paper’s window or in the future (audited)' } } }),
    async (c) => c.json(await ingestResult(deps, c.var.hall.id, c.req.valid('json')), 200),
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/results/batch',
      tags,
      security: hallSecurity,
      summary: 'Up to 500 result events in one signed request, stored in one transaction (idempotent by eventId)',
      description: 'A body that is not a valid batch (any event failing the schema, no events, more than 500) is refused whole with 400 and nothing is stored. Otherwise every event gets an outcome, in the batch’s order: `stored`, `duplicate` (already stored, or repeated earlier in this batch; nothing changed) or `refused` (its package is not this hall’s, the candidate is not on its roster, a time is outside the paper’s window, or it is a second result of the attempt or of the candidate at another hall; audited). Scores are the hub’s own computation. docs/hub-protocol.md, "Results up".',
      request: { body: jsonBody(resultBatchSchema) },
      responses: { 200: jsonResponse(z.object({ results: z.array(resultBatchOutcomeSchema) }).openapi('ResultBatchOutcomes'), 'One outcome per event, in order'), ...hallErrors, 413: { ...errorResponses[400], description: 'The body is larger than 10 MB' } },
    }),
    async (c) => c.json({ results: await ingestResultBatch(deps, c.var.hall.id, c.req.valid('json').events) }, 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/heartbeat', tags, security: hallSecurity, summary: 'The hall’s state: attempts in progress and its packages', description: 'A RELEASED package counts as released on the hub (and stops edits of the paper) only with its `releaseProof`. docs/hub-protocol.md, "Status".', request: { body: jsonBody(heartbeatSchema) }, responses: { 204: { description: 'Recorded' }, ...hallErrors } }),
    async (c) => {
      await recordHeartbeat(deps, c.var.hall.id, c.req.valid('json'));
      return c.body(null, 204);
    },
  );
  return r;
}
