/**
 * HTTP routes of the hall's hub link (issue #24 §6: the hall side adds only what it needs):
 * enrol, status, sync now, packages (list, load a USB file), release with a typed code,
 * remove. Workspace API key, like every examiner route: the link belongs to the workspace
 * whose exams the hub's papers become. Enrolling and removing also need the hall
 * operator's credential (x-operator-key): they decide where the hall connects to, which
 * anyone who signs up a workspace must not (issue #34, finding 1; docs/decisions.md,
 * "Hub addresses and the operator credential").
 */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, problem, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { requireOperator } from '../../hall/operator.js';
import { enrolWithHub, hubLinkOf, removeHubLink, requireHubLink } from './link.js';
import { syncBackoff } from './link-state.js';
import { listPackages, packageInWorkspace, releasePackage, serializePackage, storePackage } from './packages.js';
import { deliverHubResults, hubOutboxCounts } from './results.js';
import { syncWithHub } from './sync.js';
import { PACKAGE_STATES } from '../../core/sync/messages.js';

const tags = ['Hub link'];
const packageSchema = z.object({ packageId: z.string(), hubExamId: z.string(), version: z.number(), title: z.string(), startsAt: z.string(), endsAt: z.string().nullable(), durationMins: z.number(), state: z.enum(PACKAGE_STATES), source: z.string(), receivedAt: z.string(), releasedAt: z.string().nullable(), releasedBy: z.string().nullable(), examId: z.string().nullable() }).openapi('HubPackage');
const linkSchema = z.object({ enrolled: z.boolean(), hubUrl: z.string().nullable(), hallId: z.string().nullable(), enrolledAt: z.string().nullable(), lastSyncAt: z.string().nullable(), lastError: z.string().nullable(), failures: z.number().int().openapi({ description: 'Syncs in a row that failed (0 after a good one)' }), nextSyncAt: z.string().nullable().openapi({ description: 'While failing: when the scheduled sync tries again (the wait doubles per failure, 30 s to 15 min)' }), results: z.object({ pending: z.number(), delivered: z.number(), failed: z.number() }) }).openapi('HubLink');
/** Workspace key and operator credential, both (OpenAPI: every scheme of one entry applies). */
const keyAndOperator: Record<string, string[]>[] = [{ apiKeyHeader: [], operatorKeyHeader: [] }, { bearerAuth: [], operatorKeyHeader: [] }];
/** A USB package of the hub's largest roster (20,000 candidates) measured 2.5 MB; a package can hold at most 4,000,000 base64 characters of sealed paper (core/sync/messages.ts). app.ts gives this route 6 MB. */
export const MAX_PACKAGE_FILE_CHARS = 4_500_000;
const operatorProblems = { 401: problem('API key or operator credential missing or invalid'), 403: problem('A workspace API key without the hall operator’s credential (OPERATOR_REQUIRED)') };
const hubProblems = { ...errorResponses, 409: { ...errorResponses[400], description: 'Already enrolled / already released' }, 422: { ...errorResponses[400], description: 'Package refused (signature, other hall) or release code wrong (audited)' }, 502: { ...errorResponses[400], description: 'The hub could not be reached or refused' } };

function linkView(deps: HallDeps, workspaceId: string) {
  const l = hubLinkOf(deps, workspaceId);
  const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
  const backoff = l ? syncBackoff(deps, workspaceId) : { failures: 0, nextSyncAt: null };
  return { enrolled: !!l, hubUrl: l?.hub_url ?? null, hallId: l?.hall_id ?? null, enrolledAt: iso(l?.enrolled_at), lastSyncAt: iso(l?.last_sync_at), lastError: l?.last_error ?? null, failures: backoff.failures, nextSyncAt: iso(backoff.nextSyncAt), results: hubOutboxCounts(deps, workspaceId) };
}

/** Hub-link router (paths /hub-link...). */
export function hubLinkRoutes(deps: HallDeps) {
  const r = createRouter();
  r.use('/hub-link', requireApiKey(deps));
  r.use('/hub-link/*', requireApiKey(deps));

  r.openapi(
    createRoute({ method: 'get', path: '/hub-link', tags, security: keySecurity, summary: 'This workspace’s hub enrolment and results waiting to go up', responses: { 200: jsonResponse(linkSchema, 'Link'), 401: errorResponses[401] } }),
    (c) => c.json(linkView(deps, c.var.workspace.id), 200),
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub-link/enrol',
      tags,
      security: keyAndOperator,
      middleware: [requireOperator(deps)] as const,
      summary: 'Enrol this hall with an exam board’s hub (one-time code from the hub; workspace key and operator credential)',
      description: 'Needs the workspace API key and the hall operator’s credential (x-operator-key): a workspace key alone → 403. hubUrl is the hub’s origin: http(s), no path, query, fragment or user info; loopback and this machine’s addresses only with CBT_HUB_ALLOW_LOCAL=1, link-local, unspecified and multicast never (400 HUB_URL_REFUSED). Any failure to reach the hub or a refusal by it is one 502 HUB_UNAVAILABLE sentence; details are in the hall’s log.',
      request: { body: jsonBody(z.object({ hubUrl: z.string().max(500), enrolmentCode: z.string().trim().min(8).max(64), hallName: z.string().trim().min(1).max(200) })) },
      responses: { 200: jsonResponse(linkSchema, 'Enrolled'), ...hubProblems, ...operatorProblems },
    }),
    async (c) => {
      await enrolWithHub(deps, c.var.workspace.id, c.req.valid('json'));
      return c.json(linkView(deps, c.var.workspace.id), 200);
    },
  );
  r.openapi(
    createRoute({
      method: 'delete',
      path: '/hub-link',
      tags,
      security: keyAndOperator,
      middleware: [requireOperator(deps)] as const,
      summary: 'Remove this workspace’s hub link (workspace key and operator credential; audited)',
      description: 'Stops every request to the hub at once and for good (also after a restart). Sealed papers are dropped (only this link’s keys open them); released papers stay as ordinary exams but send no more results up; results still waiting are marked failed. Enrol again for a new link.',
      responses: { 204: { description: 'Removed' }, ...errorResponses, 404: problem('This workspace has no hub link'), ...operatorProblems },
    }),
    (c) => {
      removeHubLink(deps, c.var.workspace.id, null);
      return c.body(null, 204);
    },
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub-link/sync', tags, security: keySecurity, summary: 'Sync with the hub now: new packages, due releases, heartbeat, results up', responses: { 200: jsonResponse(z.object({ received: z.array(z.string()), released: z.array(z.string()), resultsDelivered: z.number(), error: z.string().nullable() }), 'What this sync did'), ...hubProblems } }),
    async (c) => {
      const report = await syncWithHub(deps, requireHubLink(deps, c.var.workspace.id));
      return c.json({ ...report, resultsDelivered: await deliverHubResults(deps) }, 200);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub-link/packages', tags, security: keySecurity, summary: 'Papers from the hub: sealed (scheduled) or released', responses: { 200: jsonResponse(z.array(packageSchema), 'Packages'), 401: errorResponses[401] } }),
    (c) => c.json(listPackages(deps, c.var.workspace.id).map(serializePackage), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub-link/packages', tags, security: keySecurity, summary: 'Load a package file exported by the hub (USB)', description: 'Body limit 6 MB (this route only): a 20,000-candidate package is about 2.5 MB.', request: { body: jsonBody(z.object({ payload: z.string().max(MAX_PACKAGE_FILE_CHARS), signature: z.string().max(200) })) }, responses: { 201: jsonResponse(packageSchema, 'Stored sealed'), 200: jsonResponse(packageSchema, 'Already here'), ...hubProblems } }),
    (c) => {
      const { row, isNew } = storePackage(deps, requireHubLink(deps, c.var.workspace.id), c.req.valid('json'), 'file');
      return c.json(serializePackage(row), isNew ? 201 : 200);
    },
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub-link/packages/{id}/release', tags, security: keySecurity, summary: 'Open a sealed paper with the release code read out by the exam body', request: { params: z.object({ id: z.string().min(1).max(64) }), body: jsonBody(z.object({ releaseCode: z.string().max(100) })) }, responses: { 200: jsonResponse(packageSchema, 'Released: the exam is ready'), ...hubProblems } }),
    (c) => {
      const link = requireHubLink(deps, c.var.workspace.id);
      packageInWorkspace(deps, link.workspace_id, c.req.valid('param').id);
      return c.json(serializePackage(releasePackage(deps, link, c.req.valid('param').id, c.req.valid('json').releaseCode, 'code')), 200);
    },
  );
  return r;
}
