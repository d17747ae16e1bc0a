/** Discoverability and appliance routes: /health, /version, /system/info (LAN URLs for the connect screen). */
import { createRoute } from '@hono/zod-openapi';
import { networkInterfaces } from 'node:os';
import type { AppDeps } from '../../platform/deps.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../platform/auth.js';

export const API_VERSION = '1.2.0';
export const QUESTION_SCHEMA_VERSION = 'v1.3.0';

/** http(s)://<address>:<port>/ for every non-internal IPv4 address of this machine. */
export function lanUrls(port: number, tls: boolean): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const ni of list ?? []) if (ni.family === 'IPv4' && !ni.internal) out.push(`${tls ? 'https' : 'http'}://${ni.address}:${port}/`);
  }
  return out;
}

/** System router. `port()` gives the port the server actually listens on. */
export function systemRoutes(deps: AppDeps, port: () => number) {
  const r = createRouter();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/health',
      tags: ['System'],
      summary: 'Liveness and backlog figures',
      responses: { 200: jsonResponse(z.object({ status: z.string(), version: z.string(), db: z.string(), bufferedAnswers: z.number().int(), outboxPending: z.number().int(), uptimeSeconds: z.number().int() }).openapi('Health'), 'Healthy') },
    }),
    (c) => {
      let db = 'ok';
      let outboxPending = 0;
      try {
        outboxPending = (deps.sqlite.prepare("SELECT count(*) AS n FROM outbox_events WHERE status = 'PENDING'").get() as { n: number }).n;
      } catch {
        db = 'error';
      }
      return c.json({ status: db === 'ok' ? 'ok' : 'degraded', version: API_VERSION, db, bufferedAnswers: deps.buffer.dirtyCount, outboxPending, uptimeSeconds: Math.floor((deps.clock.now() - deps.startedAt) / 1000) }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/version', tags: ['System'], summary: 'API and question-schema versions', responses: { 200: jsonResponse(z.object({ version: z.string(), questionSchema: z.string() }), 'Versions') } }),
    (c) => c.json({ version: API_VERSION, questionSchema: QUESTION_SCHEMA_VERSION }, 200),
  );

  r.use('/system/info', requireApiKey(deps));
  r.openapi(
    createRoute({
      method: 'get',
      path: '/system/info',
      tags: ['System'],
      security: keySecurity,
      summary: 'Addresses candidates and invigilators should open, and the server clock',
      responses: { 200: jsonResponse(z.object({ version: z.string(), serverTime: z.string(), lanUrls: z.array(z.string()), candidateUrl: z.string().nullable(), adminUrl: z.string().nullable() }), 'Info'), ...errorResponses },
    }),
    (c) => {
      const urls = lanUrls(port(), Boolean(deps.config.CBT_TLS_CERT));
      const first = urls[0] ?? null;
      return c.json({ version: API_VERSION, serverTime: new Date(deps.clock.now()).toISOString(), lanUrls: urls, candidateUrl: first, adminUrl: first ? `${first}admin` : null }, 200);
    },
  );
  return r;
}
