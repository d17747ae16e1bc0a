/**
 * createApp(deps): the whole HTTP application from injected dependencies; reads no
 * environment (docs/design.md §13). Cross-cutting concerns live here: request ids and one log line
 * per request, the `x-cbt-api-version` header, content-type and body-size limits, the
 * single RFC 7807 error mapper, 404/405 problems, static pages, OpenAPI and /docs.
 */
import { closeAfterEarlyAnswer } from './platform/early-answer.js';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { etag } from 'hono/etag';
import { serveStatic } from '@hono/node-server/serve-static';
import { fileURLToPath } from 'node:url';
import { ZodError } from 'zod';
import type { AppEnv } from './platform/deps.js';
import type { HallDeps } from './hall/deps.js';
import { ApiError, PayloadTooLarge, UnsupportedMediaType, ValidationError, toProblem } from './platform/errors.js';
import { zodFieldErrors } from './platform/openapi.js';
import { randomBase62 } from './platform/ids.js';
import { candidateLiveRoutes } from './modules/candidate/index.js';
import { HotRouteRouter } from './platform/hot-router.js';
import { API_VERSION } from './modules/system/routes.js';
import { hallRouters } from './hall/composition.js';
import { questionInputSchema } from './core/questions/schemas.js';
import { pageSecurityHeaders } from './platform/security-headers.js';

/** A built asset named with its content hash (`app.3f2a9c01be.js`, scripts/build-web.mjs). */
const HASHED_ASSET = /\.[0-9a-f]{10}\.(?:js|css|woff2|svg)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface AppOptions {
  /** asks the outbox dispatcher to run now (after a redeliver) */
  kickOutbox?: () => void;
  /** the port the server listens on (for /system/info) */
  port?: () => number;
}

const ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url));
const PUBLIC = `${ROOT}public`;
const SWAGGER = `${ROOT}node_modules/swagger-ui-dist`;

const MB = 1024 * 1024;
/**
 * Body limits (docs/design.md §9): 1 MB JSON, 5 MB bulk, 10 MB imports, 40 MB generation uploads,
 * 6 MB for a hub package file (a 20,000-candidate package is 2.5 MB: docs/reliability.md,
 * "Round two, finding 9a").
 */
function limitFor(path: string): number {
  if (path === '/questions/bulk') return 5 * MB;
  if (path === '/hub-link/packages') return 6 * MB;
  if (path.startsWith('/api/cbt/ai/generate-questions')) return 40 * MB + 64 * 1024;
  if (path.startsWith('/questions/import') || path.includes('/roster/import')) return 10 * MB;
  return 1 * MB;
}

function problemResponse(c: Context, err: ApiError): Response {
  const body = toProblem(err, c.req.path, c.get('requestId') ?? '');
  const res = c.json(body, err.status as 400);
  res.headers.set('content-type', 'application/problem+json');
  for (const [k, v] of Object.entries(err.headers)) res.headers.set(k, v);
  return res;
}

/** Builds the app. */
export function createApp(deps: HallDeps, opts: AppOptions = {}): OpenAPIHono<AppEnv> {
  // the candidate's live requests skip the trie search (platform/hot-router.ts)
  const app = new OpenAPIHono<AppEnv>({ router: new HotRouteRouter(candidateLiveRoutes) });

  // request ids: a per-process random prefix and a counter (no randomness per request)
  const bootId = randomBase62(6);
  let requestCounter = 0;
  app.use('*', async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : `${bootId}-${(++requestCounter).toString(36)}`;
    c.set('requestId', requestId);
    // on the Node response (merged at writeHead): `c.res.headers.set` would turn plain
    // headers into WHATWG Headers that @hono/node-server copies back, on every request
    const out = c.env?.outgoing;
    if (out) {
      out.setHeader('x-request-id', requestId);
      out.setHeader('x-cbt-api-version', API_VERSION);
      out.setHeader('x-content-type-options', 'nosniff');
    }
    await next();
    if (!out) {
      c.res.headers.set('x-request-id', requestId);
      c.res.headers.set('x-cbt-api-version', API_VERSION);
      c.res.headers.set('x-content-type-options', 'nosniff');
    }
    deps.logger.info('request', { requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 100) / 100 });
  });

  // content type: JSON everywhere, multipart only where files are uploaded (415 otherwise);
  // body size per route family (413)
  const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
  const limiter = (max: number) => {
    let l = limiters.get(max);
    if (!l) {
      l = bodyLimit({ maxSize: max, onError: () => { throw new PayloadTooLarge(max); } });
      limiters.set(max, l);
    }
    return l;
  };
  // not async: a thrown problem reaches onError all the same, without a promise per request
  app.use('*', (c, next) => {
    const m = c.req.method;
    if (m !== 'POST' && m !== 'PUT' && m !== 'PATCH') return next();
    const ct = (c.req.header('content-type') ?? '').toLowerCase();
    // Node's parsed headers give the same values (a repeated Content-Length is a parse error)
    const node = c.env?.incoming?.headers;
    const len = node ? node['content-length'] : c.req.header('content-length');
    const chunked = (node ? node['transfer-encoding'] : c.req.header('transfer-encoding')) !== undefined;
    const hasBody = (len !== undefined && len !== '0') || chunked;
    if (hasBody && !ct.startsWith('application/json') && !ct.startsWith('multipart/form-data') && !ct.startsWith('application/x-www-form-urlencoded')) {
      throw new UnsupportedMediaType(`Send the body as application/json${ct ? ` (got ${ct.split(';')[0]})` : ''}.`);
    }
    const max = limitFor(c.req.path);
    // A declared length is checked from the header alone: touching `c.req.raw.body` (as
    // hono's bodyLimit does) makes @hono/node-server build a WHATWG Request and stream,
    // which costs more than the whole answer-save handler. Chunked bodies are counted.
    if (len !== undefined && !chunked) {
      if (!/^\d{1,15}$/.test(len)) throw new ValidationError('The Content-Length header is not a number.', [{ path: '(headers).content-length', message: 'must be a whole number of bytes' }]);
      if (Number(len) > max) {
        closeAfterEarlyAnswer(c.env?.incoming, c.env?.outgoing);
        throw new PayloadTooLarge(max);
      }
      return next();
    }
    return limiter(max)(c, next);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) return problemResponse(c, err);
    if (err instanceof ZodError) return problemResponse(c, new ValidationError('The request is invalid.', zodFieldErrors(err)));
    if (err instanceof HTTPException) {
      if (err.status === 400) {
        const multipart = (c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/');
        return problemResponse(c, new ValidationError(multipart ? `The multipart form could not be read: ${err.message}` : 'The request body is not valid JSON.', [{ path: '(body)', message: multipart ? 'malformed multipart form' : 'malformed JSON' }]));
      }
      if (err.status === 413) return problemResponse(c, new PayloadTooLarge(limitFor(c.req.path)));
      return problemResponse(c, new ApiError(err.status, 'http-error', err.message || 'Request failed', err.message || 'Request failed'));
    }
    if (err instanceof SyntaxError) return problemResponse(c, new ValidationError('The request body is not valid JSON.', [{ path: '(body)', message: 'malformed JSON' }]));
    deps.logger.error('unhandled error', { requestId: c.get('requestId'), path: c.req.path, error: String(err), stack: (err as Error).stack });
    return problemResponse(c, new ApiError(500, 'internal-error', 'Internal server error', 'Something went wrong on the server; the error was logged with this request id.'));
  });

  // every router of the hall is listed in hall/composition.ts
  for (const router of hallRouters(deps, { port: opts.port ?? (() => deps.config.PORT), kickOutbox: opts.kickOutbox ?? (() => {}) })) {
    app.route('/', router);
  }

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyHeader', { type: 'apiKey', in: 'header', name: 'x-api-key' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'operatorKeyHeader', { type: 'apiKey', in: 'header', name: 'x-operator-key', description: 'The hall operator’s credential (cbtop_…), printed at install; a workspace API key gets 403' });
  // bulk items are validated one by one (per-item errors), so name their schema here
  app.openAPIRegistry.register('QuestionInput', questionInputSchema);
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'HallCBT API', version: API_VERSION, description: 'Computer-based test service for exam halls. Question schema v1.3.0. Errors are RFC 7807 problem details.' },
  });

  // API reference with local assets only (the appliance is offline); no inline script (CSP)
  app.get('/docs', pageSecurityHeaders, (c) =>
    c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HallCBT API reference</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`),
  );
  app.get('/docs/init.js', pageSecurityHeaders, (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8');
    return c.body("window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' });\n");
  });
  app.use('/docs/assets/*', pageSecurityHeaders, serveStatic({ root: SWAGGER, rewriteRequestPath: (p) => p.replace(/^\/docs\/assets/, '') }));

  // pages
  // Pages are revalidated on every load (no-cache + ETag → 304): a hall of PCs reloading
  // mid-exam re-downloads nothing, and an upgrade reaches every PC at once. The scripts,
  // stylesheets and fonts the pages link carry a hash of their bytes in their names
  // (scripts/build-web.mjs): immutable for a year, so a reload and the next candidate on
  // the same PC ask for none of them again (issue 26). The unhashed names stay no-cache
  // (KaTeX's: a day).
  const revalidate = etag();
  const noCache = (_p: string, c: Context) => {
    c.header('cache-control', HASHED_ASSET.test(c.req.path) ? IMMUTABLE : 'no-cache');
  };
  // The hashed assets are scripts, stylesheets and fonts, never documents: the headers that
  // govern a document (CSP, frame and opener policies, referrer policy…, ~750 bytes) do nothing
  // on them, and a first load fetches eight of them over the hall's Wi-Fi. They carry nosniff
  // (every response does) and Cross-Origin-Resource-Policy; pages, the service worker and
  // the unhashed names keep the full set (docs/decisions.md, issue 26).
  const assetHeaders: MiddlewareHandler = async (c, next) => {
    if (!HASHED_ASSET.test(c.req.path)) return pageSecurityHeaders(c, (() => revalidate(c, next)) as Next);
    // immutable: never revalidated, so no ETag and no Last-Modified either
    await next();
    c.header('cross-origin-resource-policy', 'same-origin');
    c.res.headers.delete('last-modified');
  };
  const page = (dir: string) => serveStatic({ root: PUBLIC, path: `${dir}/index.html`, precompressed: true, onFound: noCache });
  // pages and assets carry the Content-Security-Policy and friends (platform/security-headers.ts)
  app.get('/', pageSecurityHeaders, revalidate, page('candidate'));
  app.get('/admin', pageSecurityHeaders, revalidate, page('admin'));
  app.get('/admin/', pageSecurityHeaders, revalidate, page('admin'));
  app.use('/candidate/*', assetHeaders, serveStatic({ root: PUBLIC, precompressed: true, onFound: noCache }));
  app.use('/admin/*', assetHeaders, serveStatic({ root: PUBLIC, precompressed: true, onFound: noCache }));
  // the candidate page's service worker: at the root so its scope is the page (web/candidate/sw.ts)
  app.get('/sw.js', pageSecurityHeaders, revalidate, serveStatic({ root: PUBLIC, path: 'candidate/sw.js', precompressed: true, onFound: noCache }));
  // browsers and tools that ask for /favicon.ico get the pages' icon (an SVG)
  app.get('/favicon.ico', pageSecurityHeaders, revalidate, serveStatic({ root: PUBLIC, path: 'candidate/favicon.svg', precompressed: true, onFound: noCache }));
  app.use('/vendor/*', assetHeaders, serveStatic({ root: PUBLIC, precompressed: true, onFound: (_p, c) => c.header('cache-control', HASHED_ASSET.test(c.req.path) ? IMMUTABLE : 'public, max-age=86400') }));

  // 404 / 405 as problem details
  let patterns: { method: string; re: RegExp }[] | null = null;
  app.notFound((c) => {
    patterns ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ method: r.method, re: new RegExp('^' + r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+').replace(/\*/g, '.*') + '$') }));
    const allowed = [...new Set(patterns.filter((p) => p.re.test(c.req.path)).map((p) => p.method))];
    if (allowed.length) {
      const err = new ApiError(405, 'method-not-allowed', 'Method not allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(', ')}.`, {}, { Allow: allowed.join(', ') });
      return problemResponse(c, err);
    }
    return problemResponse(c, new ApiError(404, 'not-found', 'Not found', `No route for ${c.req.method} ${c.req.path}.`));
  });

  return app;
}
