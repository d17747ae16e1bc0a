/** Discoverability and appliance routes: /health, /version, /system/info (LAN URLs for the connect screen). */
import { createRoute } from '@hono/zod-openapi';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { reachableUrls } from './urls.js';

const laneFigure = z.object({ running: z.number().int(), waiting: z.number().int() });

export const API_VERSION = '1.2.0';
export const QUESTION_SCHEMA_VERSION = 'v1.3.0';


/** System router. `port()` gives the port the server actually listens on. */
export function systemRoutes(deps: HallDeps, port: () => number) {
  const r = createRouter();
  // event-loop delay since the previous /health read (benchmarks read it per scenario)
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/health',
      tags: ['System'],
      summary: 'Liveness and backlog figures',
      responses: {
        200: jsonResponse(
          z
            .object({
              status: z.string(),
              version: z.string(),
              db: z.string(),
              bufferedAnswers: z.number().int(),
              outboxPending: z.number().int(),
              uptimeSeconds: z.number().int(),
              flush: z.object({ rows: z.number(), batches: z.number(), maxBatchMs: z.number(), totalMs: z.number() }),
              eventLoopDelayMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }),
              memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }),
              uploads: z
                .object({ main: laneFigure, small: laneFigure })
                .openapi({ description: 'Uploads and jobs being read (0 or 1) and waiting, in each lane of the job processes (docs/decisions.md, "Upload lanes, a quota per workspace, abandoned uploads leave at once")' }),
            })
            .openapi('Health'),
          'Healthy',
        ),
      },
    }),
    (c) => {
      let db = 'ok';
      let outboxPending = 0;
      try {
        outboxPending = (deps.sqlite.prepare("SELECT count(*) AS n FROM outbox_events WHERE status = 'PENDING'").get() as { n: number }).n;
      } catch {
        db = 'error';
      }
      // the histogram holds the time between 10 ms samples; the delay is what exceeds 10 ms
      const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - 10) * 100) / 100);
      const eventLoopDelayMs = { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) };
      loopDelay.reset();
      const mem = process.memoryUsage();
      return c.json(
        {
          status: db === 'ok' ? 'ok' : 'degraded',
          version: API_VERSION,
          db,
          bufferedAnswers: deps.buffer.dirtyCount,
          outboxPending,
          uptimeSeconds: Math.floor((deps.clock.now() - deps.startedAt) / 1000),
          flush: deps.buffer.lastFlush,
          eventLoopDelayMs,
          memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed },
          uploads: deps.jobs.laneFigures(),
        },
        200,
      );
    },
  );

  r.openapi(
    createRoute({ method: 'get', path: '/version', tags: ['System'], summary: 'API and question-schema versions', responses: { 200: jsonResponse(z.object({ version: z.string(), questionSchema: z.string() }), 'Versions') } }),
    (c) => c.json({ version: API_VERSION, questionSchema: QUESTION_SCHEMA_VERSION }, 200),
  );

  if (deps.config.CBT_BENCH_BASELINE === '1') {
    // the benchmark's baseline: as bare as a route can be behind the same middleware
    r.get('/bench/baseline', (c) => c.json({ ok: true }));
  }

  r.use('/system/info', requireApiKey(deps));
  r.openapi(
    createRoute({
      method: 'get',
      path: '/system/info',
      tags: ['System'],
      security: keySecurity,
      summary: 'Addresses candidates and invigilators should open, and the server clock',
      responses: { 200: jsonResponse(z.object({ version: z.string(), serverTime: z.string().openapi({ format: 'date-time', description: 'The server clock (ISO 8601, UTC) that exam timing runs on; the admin page warns when it differs from the browser’s by more than 2 minutes or is earlier than the release.', example: '2026-11-22T09:00:00.000Z' }), lanUrls: z.array(z.string()).openapi({ description: 'Addresses that reach this server (only those the listening socket accepts)' }), thisMachineOnly: z.boolean().openapi({ description: 'True when the server listens on a loopback address (HOST=127.0.0.1): no other PC can open these' }), candidateUrl: z.string().nullable(), adminUrl: z.string().nullable() }), 'Info'), ...errorResponses },
    }),
    (c) => {
      const { urls, thisMachineOnly } = reachableUrls(deps.config.HOST, port(), Boolean(deps.config.CBT_TLS_CERT));
      const first = urls[0] ?? null;
      return c.json({ version: API_VERSION, serverTime: new Date(deps.clock.now()).toISOString(), lanUrls: urls, thisMachineOnly, candidateUrl: first, adminUrl: first ? `${first}admin` : null }, 200);
    },
  );
  return r;
}
