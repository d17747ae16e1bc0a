/** HTTP routes of workspaces: registration, sign-in, institution provisioning, settings. */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonBody, jsonResponse, keySecurity, problem, publicErrorResponses, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { clientAddress } from '../../platform/http.js';
import { consume } from '../../platform/rate-limit.js';
import { safeEqual } from '../../platform/crypto.js';
import { ServiceUnavailable, Unauthorized } from '../../platform/errors.js';
import * as s from './schemas.js';
import * as svc from './service.js';

/** Workspace router (paths /workspaces/...). */
export function workspaceRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  const perAddress = async (c: Parameters<typeof clientAddress>[0]) => consume(deps.limits.general, `addr:${clientAddress(c, deps.config.CBT_TRUSTED_PROXIES)}`);

  r.openapi(
    createRoute({ method: 'post', path: '/workspaces/standalone', tags: ['Workspaces'], summary: 'Register a standalone workspace (30 free credits; webhookUrl optional: events wait in the outbox until one is set)', request: { body: jsonBody(s.registerStandaloneSchema) }, responses: { 201: jsonResponse(s.registerStandaloneResponse, 'Registered'), 409: problem('A workspace with this e-mail address already exists (EMAIL_TAKEN)'), ...publicErrorResponses } }),
    async (c) => {
      await perAddress(c);
      return c.json(await svc.registerStandalone(deps, c.req.valid('json')), 201);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/workspaces/login', tags: ['Workspaces'], summary: 'Examiner sign-in (creates a workspace for a new e-mail)', request: { body: jsonBody(s.loginSchema) }, responses: { 200: jsonResponse(s.loginResponse, 'Signed in'), 401: problem('Wrong password, no password set yet, or a new workspace’s password too short (LOGIN_FAILED, NO_PASSWORD, PASSWORD_TOO_SHORT)'), 404: problem('createIfMissing was false and no workspace uses this e-mail (NO_SUCH_HALL); nothing was created'), ...publicErrorResponses } }),
    async (c) => {
      await perAddress(c);
      return c.json(await svc.login(deps, c.req.valid('json'), clientAddress(c, deps.config.CBT_TRUSTED_PROXIES)), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/workspaces/institution',
      tags: ['Workspaces'],
      summary: 'School information-system provisioning (header x-provisioning-token)',
      request: { body: jsonBody(s.institutionSchema), headers: z.object({ 'x-provisioning-token': z.string().optional() }) },
      responses: { 200: jsonResponse(s.institutionResponse, 'Existing workspace'), 201: jsonResponse(s.institutionResponse, 'Created'), 401: problem('The x-provisioning-token header is missing or wrong'), 503: problem('Provisioning is not configured on this installation (CBT_PROVISIONING_TOKEN unset)'), ...publicErrorResponses },
    }),
    async (c) => {
      await perAddress(c);
      const expected = deps.config.CBT_PROVISIONING_TOKEN;
      if (!expected) throw new ServiceUnavailable('Institution provisioning is not configured on this installation (set CBT_PROVISIONING_TOKEN).');
      const token = c.req.header('x-provisioning-token');
      if (!token || !safeEqual(token, expected)) throw new Unauthorized('A valid x-provisioning-token header is required.');
      const { created, body } = svc.provisionInstitution(deps, c.req.valid('json'));
      return c.json(body, created ? 201 : 200);
    },
  );

  r.use('/workspaces/me', auth);
  r.use('/workspaces/me/*', auth);

  r.openapi(
    createRoute({ method: 'get', path: '/workspaces/me', tags: ['Workspaces'], security: keySecurity, summary: 'The key’s workspace', responses: { 200: jsonResponse(s.workspaceMeResponse, 'Workspace'), ...errorResponses } }),
    (c) => c.json(svc.describeWorkspace(deps, c.var.workspace.id), 200),
  );

  r.openapi(
    createRoute({ method: 'patch', path: '/workspaces/me', tags: ['Workspaces'], security: keySecurity, summary: 'Rename or change the webhook URL', request: { body: jsonBody(s.patchWorkspaceSchema) }, responses: { 200: jsonResponse(s.workspaceMeResponse, 'Workspace'), ...errorResponses } }),
    async (c) => c.json(await svc.updateWorkspace(deps, c.var.workspace.id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({ method: 'put', path: '/workspaces/me/password', tags: ['Workspaces'], security: keySecurity, summary: 'Set the examiner password', request: { body: jsonBody(s.setPasswordSchema) }, responses: { 200: jsonResponse(z.object({ success: z.boolean() }), 'Password set'), ...errorResponses } }),
    async (c) => {
      await svc.setPassword(deps, c.var.workspace.id, c.req.valid('json').password);
      return c.json({ success: true }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/workspaces/me/webhook-secret', tags: ['Workspaces'], security: keySecurity, summary: 'Rotate the webhook signing secret (shown once)', responses: { 200: jsonResponse(z.object({ webhookSecret: z.string() }), 'New secret'), ...errorResponses } }),
    (c) => c.json({ webhookSecret: svc.rotateWebhookSecret(deps, c.var.workspace.id) }, 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/workspaces/me/audit', tags: ['Workspaces'], security: keySecurity, summary: 'Audit log, newest first', request: { query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }) }, responses: { 200: jsonResponse(z.array(s.auditEntrySchema), 'Audit entries'), ...errorResponses } }),
    (c) => c.json(svc.listAudit(deps, c.var.workspace.id, c.req.valid('query').limit), 200),
  );

  return r;
}
