/** Outbox routes for the admin page: list events by status, redeliver one. */
import { createRoute } from '@hono/zod-openapi';
import type { HallDeps } from '../../hall/deps.js';
import type { OutboxEventRow } from '../../db/rows.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { NotFound } from '../../platform/errors.js';
import { iso } from '../../platform/clock.js';

const eventSchema = z
  .object({ id: z.string(), type: z.string(), status: z.string(), tries: z.number().int(), nextAttemptAt: z.string().nullable(), lastError: z.string().nullable(), lastStatusCode: z.number().int().nullable(), createdAt: z.string(), deliveredAt: z.string().nullable(), payload: z.unknown() })
  .openapi('OutboxEvent');

const serialize = (r: OutboxEventRow) => ({
  id: r.id,
  type: r.type,
  status: r.status,
  tries: r.tries,
  nextAttemptAt: r.status === 'PENDING' ? iso(r.next_attempt_at) : null,
  lastError: r.last_error,
  lastStatusCode: r.last_status_code,
  createdAt: iso(r.created_at)!,
  deliveredAt: iso(r.delivered_at),
  payload: JSON.parse(r.body),
});

/** Webhook outbox router. */
export function webhookRoutes(deps: HallDeps, kick: () => void) {
  const r = createRouter();
  r.use('/webhooks/*', requireApiKey(deps));

  r.openapi(
    createRoute({ method: 'get', path: '/webhooks/events', tags: ['Webhooks'], security: keySecurity, summary: 'Outbox events (pending, delivered, failed)', request: { query: z.object({ status: z.enum(['pending', 'delivered', 'failed']).optional(), limit: z.coerce.number().int().min(1).max(1000).default(200) }) }, responses: { 200: jsonResponse(z.array(eventSchema), 'Events'), ...errorResponses } }),
    (c) => {
      const q = c.req.valid('query');
      const rows = (q.status
        ? deps.sqlite.prepare('SELECT * FROM outbox_events WHERE workspace_id = ? AND status = ? ORDER BY created_at DESC LIMIT ?').all(c.var.workspace.id, q.status.toUpperCase(), q.limit)
        : deps.sqlite.prepare('SELECT * FROM outbox_events WHERE workspace_id = ? ORDER BY created_at DESC LIMIT ?').all(c.var.workspace.id, q.limit)) as OutboxEventRow[];
      return c.json(rows.map(serialize), 200);
    },
  );

  r.openapi(
    createRoute({ method: 'post', path: '/webhooks/events/{id}/redeliver', tags: ['Webhooks'], security: keySecurity, summary: 'Queue an event for delivery now (same id and body)', request: { params: z.object({ id: z.string().min(1).max(64) }) }, responses: { 200: jsonResponse(eventSchema, 'Queued'), ...errorResponses } }),
    (c) => {
      const id = c.req.valid('param').id;
      const res = deps.sqlite.prepare("UPDATE outbox_events SET status = 'PENDING', next_attempt_at = ? WHERE id = ? AND workspace_id = ?").run(deps.clock.now(), id, c.var.workspace.id);
      if (res.changes === 0) throw new NotFound('Event');
      kick();
      return c.json(serialize(deps.sqlite.prepare('SELECT * FROM outbox_events WHERE id = ?').get(id) as OutboxEventRow), 200);
    },
  );
  return r;
}
