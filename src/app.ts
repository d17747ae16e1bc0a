/**
 * createApp(deps): the whole HTTP application from injected dependencies; reads no
 * environment (docs/design.md §13). Built in the shell both programs share
 * (src/platform/http-app.ts: request ids and one log line per request, body-size limits,
 * the single RFC 7807 error mapper, 404/405 problems, OpenAPI and /docs); the hall's own
 * parts are here: its routers, the `x-cbt-api-version` and nosniff headers, JSON and forms
 * only (415 otherwise), its body limits per route family, and the static pages.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import { etag } from 'hono/etag';
import { serveStatic } from '@hono/node-server/serve-static';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './platform/deps.js';
import type { HallDeps } from './hall/deps.js';
import { createHttpApp } from './platform/http-app.js';
import { attachLeanSave, candidateLiveRoutes } from './modules/candidate/index.js';
import type { Server } from 'node:http';
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

const MB = 1024 * 1024;
/**
 * Body limits (docs/design.md §9): 1 MB JSON, 5 MB bulk, 10 MB imports, 40 MB generation uploads, 8 MB for a batch of essays to grade,
 * 6 MB for a hub package file (a 20,000-candidate package is 2.5 MB: docs/reliability.md,
 * "Round two, finding 9a").
 */
function limitFor(path: string): number {
  if (path === '/questions/bulk') return 5 * MB;
  if (path === '/hub-link/packages') return 6 * MB;
  if (path.startsWith('/api/cbt/ai/generate-questions')) return 40 * MB + 64 * 1024;
  // 500 scripts of a long essay each (~16 KB): docs/decisions.md, "Calibrated essay marking learns from the examiner"
  if (path === '/api/cbt/ai/grade-essays') return 8 * MB;
  if (path.startsWith('/questions/import') || path.includes('/roster/import')) return 10 * MB;
  return 1 * MB;
}

/** The first 8 bytes of the SHA-256 of `body`: a page's entity tag (16 hex digits). */
function shortDigest(body: Uint8Array): ArrayBuffer {
  const d = createHash('sha256').update(body).digest();
  return d.buffer.slice(d.byteOffset, d.byteOffset + 8) as ArrayBuffer;
}

/** The headers on every response of the hall besides `x-request-id`, in this order. */
const HALL_HEADERS = { 'x-cbt-api-version': API_VERSION, 'x-content-type-options': 'nosniff' } as const;
const INTERNAL_ERROR_DETAIL = 'Something went wrong on the server; the error was logged with this request id.';

/**
 * Serves the live answer save before hono on `server` (already serving the app of
 * createApp), with this app's headers and 500 detail (modules/candidate/lean-save.ts;
 * docs/decisions.md, "The answer save is dispatched before hono").
 */
export function attachHallFastPaths(server: Server, deps: HallDeps): void {
  attachLeanSave(server, deps, { headers: HALL_HEADERS, internalErrorDetail: INTERNAL_ERROR_DETAIL });
}

/** Builds the app. */
export function createApp(deps: HallDeps, opts: AppOptions = {}): OpenAPIHono<AppEnv> {
  const app = createHttpApp<AppEnv>({
    logger: deps.logger,
    // the candidate's live requests skip the trie search (platform/hot-router.ts)
    router: new HotRouteRouter(candidateLiveRoutes),
    acceptRequestId: true,
    headers: HALL_HEADERS,
    bodyLimit: limitFor,
    // JSON everywhere, multipart (and forms) only where files are uploaded
    bodyTypes: ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'],
    internalErrorDetail: INTERNAL_ERROR_DETAIL,
    api: {
      title: 'HallCBT API',
      version: API_VERSION,
      description: 'Computer-based test service for exam halls. Question schema v1.3.0. Errors are RFC 7807 problem details.',
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        operatorKeyHeader: { type: 'apiKey', in: 'header', name: 'x-operator-key', description: 'The hall operator’s credential (cbtop_…), printed at install; a workspace API key gets 403' },
      },
    },
  });

  // every router of the hall is listed in hall/composition.ts
  for (const router of hallRouters(deps, { port: opts.port ?? (() => deps.config.PORT), kickOutbox: opts.kickOutbox ?? (() => {}) })) {
    app.route('/', router);
  }
  // bulk items are validated one by one (per-item errors), so name their schema here
  app.openAPIRegistry.register('QuestionInput', questionInputSchema);

  // pages
  // Pages are revalidated on every load (no-cache + ETag → 304): a hall of PCs reloading
  // mid-exam re-downloads nothing, and an upgrade reaches every PC at once. The scripts,
  // stylesheets and fonts the pages link carry a hash of their bytes in their names
  // (scripts/build-web.mjs): immutable for a year, so a reload and the next candidate on
  // the same PC ask for none of them again (issue 26). The unhashed names stay no-cache
  // (KaTeX's: a day).
  // revalidated by ETag alone: the Last-Modified that serveStatic adds says the same thing in
  // another 45 bytes on every page load, and 64 bits of SHA-256 tell one build's page from
  // another as well as SHA-1's 160 do (docs/decisions.md, "Fewer header bytes")
  const entityTag = etag({ generateDigest: (body) => shortDigest(body) });
  const revalidate: MiddlewareHandler = async (c, next) => {
    await entityTag(c, next);
    c.res.headers.delete('last-modified');
  };
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
    // immutable: never revalidated, so no ETag and no Last-Modified either; and no request id
    // header: the same bytes for every candidate, never a problem to trace from a browser (the
    // log line keeps the id; docs/decisions.md, "Fewer header bytes")
    c.env?.outgoing?.removeHeader('x-request-id');
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

  return app;
}
