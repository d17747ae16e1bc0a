/**
 * createHubApp(deps): the hub's HTTP application (issue #24 §6): JSON over HTTP, zod
 * schemas, RFC 7807 problem details for every error, its own OpenAPI document at
 * /openapi.json and reference at /docs (local assets), /health.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { serveStatic } from '@hono/node-server/serve-static';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { ZodError } from 'zod';
import { ApiError, PayloadTooLarge, ValidationError, toProblem } from '../platform/errors.js';
import { zodFieldErrors } from '../platform/openapi.js';
import { randomBase62 } from '../platform/ids.js';
import type { HubDeps, HubEnv } from './deps.js';
import { examinerRoutes } from './routes/examiner.js';
import { hallRoutes } from './routes/hall.js';

export const HUB_API_VERSION = '1.0.0';
const ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url));
const SWAGGER = `${ROOT}node_modules/swagger-ui-dist`;
/** Results and exam bodies can be large: 10 MB. */
const BODY_LIMIT = 10 * 1024 * 1024;

function problem(c: Context<HubEnv>, err: ApiError): Response {
  const res = c.json(toProblem(err, c.req.path, c.get('requestId') ?? ''), err.status as 400);
  res.headers.set('content-type', 'application/problem+json');
  for (const [k, v] of Object.entries(err.headers)) res.headers.set(k, v);
  return res;
}

/** Builds the hub app from its deps. */
export function createHubApp(deps: HubDeps): OpenAPIHono<HubEnv> {
  const app = new OpenAPIHono<HubEnv>();
  const bootId = randomBase62(6);
  let counter = 0;
  app.use('*', async (c, next) => {
    const started = performance.now();
    c.set('requestId', `${bootId}-${(++counter).toString(36)}`);
    await next();
    c.res.headers.set('x-request-id', c.get('requestId'));
    deps.logger.info('request', { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 100) / 100 });
  });
  app.use('*', bodyLimit({ maxSize: BODY_LIMIT, onError: () => { throw new PayloadTooLarge(BODY_LIMIT); } }));
  app.onError((err, c) => {
    if (err instanceof ApiError) return problem(c, err);
    if (err instanceof ZodError) return problem(c, new ValidationError('The request is invalid.', zodFieldErrors(err)));
    if (err instanceof HTTPException && err.status === 400) return problem(c, new ValidationError('The request body is not valid JSON.', [{ path: '(body)', message: 'malformed JSON' }]));
    if (err instanceof HTTPException) return problem(c, new ApiError(err.status, 'http-error', err.message || 'Request failed', err.message || 'Request failed'));
    if (err instanceof SyntaxError) return problem(c, new ValidationError('The request body is not valid JSON.', [{ path: '(body)', message: 'malformed JSON' }]));
    deps.logger.error('unhandled error', { requestId: c.get('requestId'), path: c.req.path, error: String(err), stack: (err as Error).stack });
    return problem(c, new ApiError(500, 'internal-error', 'Internal server error', 'Something went wrong on the hub; the error was logged with this request id.'));
  });

  app.route('/', examinerRoutes(deps));
  app.route('/', hallRoutes(deps));

  app.get('/health', async (c) => {
    await deps.db.execute(sql`select 1`);
    return c.json({ status: 'ok', version: HUB_API_VERSION, db: 'ok' });
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <hub examiner API key>' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyHeader', { type: 'apiKey', in: 'header', name: 'x-api-key' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'hallSignature', { type: 'apiKey', in: 'header', name: 'x-hall-signature', description: 'Ed25519 signature of the request by an enrolled hall, with x-hall-id, x-hall-timestamp and x-hall-nonce (docs/hub-protocol.md)' });
  app.doc31('/openapi.json', { openapi: '3.1.0', info: { title: 'HallCBT hub API', version: HUB_API_VERSION, description: 'The exam board’s hub: halls, sealed papers, release codes and results across halls. Errors are RFC 7807 problem details.' } });
  app.get('/docs', (c) =>
    c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HallCBT hub API reference</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' });</script></body></html>`),
  );
  app.use('/docs/assets/*', serveStatic({ root: SWAGGER, rewriteRequestPath: (p) => p.replace(/^\/docs\/assets/, '') }));
  app.notFound((c) => problem(c, new ApiError(404, 'not-found', 'Not found', `No route for ${c.req.method} ${c.req.path}.`)));
  return app;
}
