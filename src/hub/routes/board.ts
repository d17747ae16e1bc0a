/**
 * The board's accounts on the hub API (docs/hub.md, "The board's page"): sign-in with e-mail
 * and password (a session token back, sent as `Authorization: Bearer` as an API key is),
 * sign-out, the signed-in account and its own password, accounts and their roles (publishers, or the hub's API
 * key: that is how the first account is made), and the list of exams the page opens.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { clientAddress } from '../../platform/http.js';
import { Unauthorized } from '../../platform/errors.js';
import { errorResponses, jsonBody, jsonResponse, problem, z } from '../../platform/openapi.js';
import { accountInputSchema, accountPatchSchema, changeOwnPassword, createAccount, ownPasswordSchema, getAccount, listAccounts, patchAccount, signIn, signInSchema, signInThrottles, signOut } from '../board-accounts.js';
import { BOARD_ROLES } from '../board-roles.js';
import type { HubDeps } from '../deps.js';
import { requireExaminer } from '../auth.js';
import { listHubExams } from '../exam-list.js';
import { createHubRouter, examinerSecurity } from '../router.js';

const tags = ['Hub: board accounts'];
const accountSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), roles: z.array(z.enum(BOARD_ROLES)), disabled: z.boolean(), createdAt: z.string() }).openapi('BoardAccount');
const forbidden = { 403: problem('The account’s roles do not allow this (ROLE_REQUIRED, with the role needed)') };
const idParams = z.object({ id: z.string().min(1).max(64) });

/** The client's address: the TCP peer, or behind a trusted proxy the last X-Forwarded-For entry (as enrolment counts it). */
function signInAddress(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('x-forwarded-for')?.split(',').pop()?.trim() : undefined;
  return forwarded || clientAddress(c);
}

/** Who did it, for audit rows: `account:<id>` signed in by a session, `examiner:<id>` by an API key. */
const actorOf = (sessionToken: string | undefined, examinerId: string) => (sessionToken ? `account:${examinerId}` : `examiner:${examinerId}`);

/** Board routes under /hub/v1/board, and GET /hub/v1/exams. */
export function boardRoutes(deps: HubDeps) {
  const r = createHubRouter();
  const throttles = signInThrottles(deps);
  for (const path of ['/hub/v1/board/me', '/hub/v1/board/me/*', '/hub/v1/board/sign-out', '/hub/v1/board/accounts', '/hub/v1/board/accounts/*', '/hub/v1/exams']) r.use(path, requireExaminer(deps));

  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/board/sign-in',
      tags,
      summary: 'Sign in to the board’s page with e-mail and password: a session token for 12 hours (send it as Authorization: Bearer)',
      description: 'Failed sign-ins are held back per e-mail + address (10 in 15 minutes) and per address (50), then with growing waits (429, Retry-After). Every try is audited.',
      request: { body: jsonBody(signInSchema) },
      responses: { 200: jsonResponse(z.object({ token: z.string(), expiresAt: z.string(), account: accountSchema }), 'Signed in'), 400: errorResponses[400], 401: problem('The e-mail or password is wrong, or the account is disabled (SIGN_IN_FAILED)'), 429: problem('Too many failed sign-ins from this address (Retry-After)') },
    }),
    async (c) => c.json(await signIn(deps, throttles, c.req.valid('json'), signInAddress(c, deps.config.HUB_TRUST_PROXY)), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/board/sign-out', tags, security: examinerSecurity, summary: 'End this session (its token no longer opens anything)', responses: { 204: { description: 'Signed out' }, 401: errorResponses[401] } }),
    async (c) => {
      const token = c.get('sessionToken');
      if (token) await signOut(deps, token, c.var.examiner.id);
      return c.body(null, 204);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/board/me', tags, security: examinerSecurity, summary: 'Who is signed in, and their roles (an API key: all roles, no account)', responses: { 200: jsonResponse(z.object({ id: z.string(), name: z.string(), roles: z.array(z.enum(BOARD_ROLES)), account: accountSchema.nullable() }), 'The signed-in examiner'), 401: errorResponses[401] } }),
    async (c) => c.json({ id: c.var.examiner.id, name: c.var.examiner.name, roles: c.var.roles, account: c.get('sessionToken') ? await getAccount(deps, c.var.examiner.id) : null }, 200),
  );
  r.openapi(
    createRoute({ method: 'put', path: '/hub/v1/board/me/password', tags, security: examinerSecurity, summary: 'Change your own password (the current one first); your other sessions end', request: { body: jsonBody(ownPasswordSchema) }, responses: { 204: { description: 'Changed' }, 400: errorResponses[400], 401: problem('Not signed in by a board account'), 403: problem('The current password is wrong (PASSWORD_WRONG); nothing changed'), 429: problem('Too many wrong passwords from this address (Retry-After)') } }),
    async (c) => {
      const token = c.get('sessionToken');
      if (!token) throw new Unauthorized('Sign in with a board account to change its password (an API key has none).');
      await changeOwnPassword(deps, throttles, c.var.examiner.id, token, c.req.valid('json'), signInAddress(c, deps.config.HUB_TRUST_PROXY));
      return c.body(null, 204);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/board/accounts', tags, security: examinerSecurity, summary: 'Every board account (publishers)', responses: { 200: jsonResponse(z.array(accountSchema), 'Accounts'), 401: errorResponses[401], ...forbidden } }),
    async (c) => c.json(await listAccounts(deps), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/board/accounts', tags, security: examinerSecurity, summary: 'Create a board account (publishers; the first one with the hub’s API key)', request: { body: jsonBody(accountInputSchema) }, responses: { 201: jsonResponse(accountSchema, 'Created'), ...errorResponses, ...forbidden, 409: problem('An account already uses this e-mail (EMAIL_TAKEN)') } }),
    async (c) => c.json(await createAccount(deps, actorOf(c.get('sessionToken'), c.var.examiner.id), c.req.valid('json')), 201),
  );
  r.openapi(
    createRoute({ method: 'patch', path: '/hub/v1/board/accounts/{id}', tags, security: examinerSecurity, summary: 'Change an account’s name, roles, password or disabled state (a new password or disabling ends its sessions)', request: { params: idParams, body: jsonBody(accountPatchSchema) }, responses: { 200: jsonResponse(accountSchema, 'Changed'), ...errorResponses, ...forbidden } }),
    async (c) => c.json(await patchAccount(deps, actorOf(c.get('sessionToken'), c.var.examiner.id), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  r.openapi(
    createRoute({
      method: 'get',
      path: '/hub/v1/exams',
      tags: ['Hub: examiners'],
      security: examinerSecurity,
      summary: 'Every exam on the hub, newest first: title, start, version, counts of questions and candidates, the halls it was published to',
      responses: { 200: jsonResponse(z.array(z.object({ id: z.string(), title: z.string(), startsAt: z.string(), durationMins: z.number().int(), version: z.number().int(), questions: z.number().int(), candidates: z.number().int(), publishedVersion: z.number().int().nullable(), hallIds: z.array(z.string()), createdAt: z.string() })), 'Exams'), 401: errorResponses[401], ...forbidden },
    }),
    async (c) => c.json(await listHubExams(deps), 200),
  );
  return r;
}
