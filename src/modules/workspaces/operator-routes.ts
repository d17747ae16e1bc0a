/**
 * The hall operator's routes over workspaces (paths /system/workspaces…): list every
 * workspace with its credits, and add credits to one. Credits are the hall's to give, so
 * only the operator's credential reaches them (platform/operator.ts): a workspace API key
 * gets 403, nothing 401. docs/decisions.md, "Credits a centre tops up offline".
 */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, jsonBody, jsonResponse, operatorSecurity, problem, z } from '../../platform/openapi.js';
import { requireOperator } from '../../hall/operator.js';
import { addCredits, listWorkspaceCredits } from './credits.js';

const operatorRefusals = {
  401: problem('Operator credential missing or invalid (a workspace API key is not one)'),
  403: problem('A workspace API key was presented instead of the operator credential (OPERATOR_REQUIRED)'),
  429: problem('Too many wrong operator credentials from this address'),
} as const;

/** `{ add, note }` of a top-up: a whole number of credits 1–100000 and a note of at most 200 characters. */
export const creditTopUpSchema = z
  .object({
    add: z.number().int().min(1).max(100_000).openapi({ description: 'Credits to add (1–100000)', example: 50 }),
    note: z.string().trim().max(200).default('').openapi({ description: 'Why (receipt number, term); kept in the workspace’s audit log', example: 'Paid cash, receipt 0042' }),
  })
  .openapi('CreditTopUp');

const creditBalanceSchema = z.object({ id: z.string(), credits: z.number().int() }).openapi('CreditBalance');

const workspaceCreditsSchema = z
  .object({
    workspaces: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), ownerEmail: z.string(), credits: z.number().int(), createdAt: z.string() })),
  })
  .openapi('WorkspaceCreditsList');

/** Operator router over workspaces. */
export function operatorWorkspaceRoutes(deps: HallDeps) {
  const r = createRouter();
  r.use('/system/workspaces', requireOperator(deps));
  r.use('/system/workspaces/*', requireOperator(deps));

  r.openapi(
    createRoute({
      method: 'get',
      path: '/system/workspaces',
      tags: ['System'],
      security: operatorSecurity,
      summary: 'Every workspace on this hall with its credits (hall operator)',
      responses: { 200: jsonResponse(workspaceCreditsSchema, 'Workspaces by name'), ...operatorRefusals },
    }),
    (c) => c.json({ workspaces: listWorkspaceCredits(deps) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/system/workspaces/{id}/credits',
      tags: ['System'],
      security: operatorSecurity,
      summary: 'Add candidate credits to a workspace (hall operator; audited with the note)',
      request: { params: z.object({ id: z.string().min(1).max(64) }), body: jsonBody(creditTopUpSchema) },
      responses: {
        200: jsonResponse(creditBalanceSchema, 'Credits added: the workspace’s new balance'),
        400: problem('add is not a whole number 1–100000, or the note is longer than 200 characters'),
        404: problem('No workspace has this id'),
        ...operatorRefusals,
      },
    }),
    (c) => {
      const { add, note } = c.req.valid('json');
      return c.json(addCredits(deps, { workspaceId: c.req.valid('param').id, add, note, grantor: { by: 'operator' } }), 200);
    },
  );
  return r;
}
