/**
 * createHttpApp(opts): the HTTP shell both programs are built in (issue 35 §2): the hall
 * (src/app.ts) and the hub (src/hub/app.ts) each mount their own routes on it. The shell
 * installs, in this order:
 * - request ids (a per-process random prefix and a counter, or a safe incoming
 *   `x-request-id` where the program accepts one), written with the program's own headers
 *   on every response, and one log line per request;
 * - the body gate on POST/PUT/PATCH: an optional list of accepted content types (415
 *   otherwise) and a size limit per path (413; docs/design.md §9);
 * - the single RFC 7807 error mapper (RFC 9457: problem details; src/platform/errors.ts);
 * - 404 and 405 (with `Allow`) as problem details;
 * - the OpenAPI 3.1 document at /openapi.json and its reference at /docs, with local
 *   assets only (the appliance is offline) and no inline script (CSP).
 * The hot path costs no more than before the shell: a function per stage, no
 * allocation per request beyond the log line, headers written on the Node response.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import type { HonoOptions } from 'hono/hono-base';
import type { HttpBindings } from '@hono/node-server';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { serveStatic } from '@hono/node-server/serve-static';
import { fileURLToPath } from 'node:url';
import { ZodError } from 'zod';
import { closeAfterEarlyAnswer } from './early-answer.js';
import { ApiError, PayloadTooLarge, UnsupportedMediaType, ValidationError, toProblem } from './errors.js';
import { zodFieldErrors } from './openapi.js';
import { randomBase62 } from './ids.js';
import type { Logger } from './logger.js';
import { pageSecurityHeaders } from './security-headers.js';

const ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url));
const SWAGGER = `${ROOT}node_modules/swagger-ui-dist`;
/** An incoming request id the hall keeps (anything else is replaced by its own). */
const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/;
// a per-process random prefix and a counter (no randomness per request), shared by every
// app of the process and by the hall's lean save dispatch (modules/candidate/lean-save.ts)
const bootId = randomBase62(6);
let requestCounter = 0;

/**
 * The id of a new request: `incoming` (a client's `x-request-id`) when it is 1–64 of
 * `[A-Za-z0-9_.-]`, else `<boot prefix>-<counter in base 36>`, unique within the process.
 */
export function requestIdFor(incoming: string | undefined): string {
  return incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : `${bootId}-${(++requestCounter).toString(36)}`;
}

/** A security scheme of the OpenAPI document (OpenAPI 3.1, "Security Scheme Object"). */
export type SecurityScheme = {
  type: 'http' | 'apiKey';
  scheme?: string;
  in?: 'header';
  name?: string;
  description?: string;
};

/** What differs between the programs' HTTP apps. */
export interface HttpAppOptions<E extends Env> {
  logger: Logger;
  /** a router other than hono's default (the hall's HotRouteRouter, src/platform/hot-router.ts) */
  router?: HonoOptions<E>['router'];
  /** keep a client's `x-request-id` when it is 1–64 of `[A-Za-z0-9_.-]` (the hall does) */
  acceptRequestId?: boolean;
  /** headers on every response besides `x-request-id`, in this order */
  headers?: Readonly<Record<string, string>>;
  /** the largest body accepted on `path`, bytes (413 above) */
  bodyLimit: (path: string) => number;
  /** when given, a POST/PUT/PATCH body of another content type is refused (415); prefixes, lower case */
  bodyTypes?: readonly string[];
  /** the `detail` of the 500 problem for an unexpected error (logged with its request id) */
  internalErrorDetail: string;
  /** the OpenAPI document's `info` and security schemes; /docs is titled "<title> reference" */
  api: { title: string; version: string; description: string; securitySchemes: Readonly<Record<string, SecurityScheme>> };
}

/** The part of a program's hono environment the shell uses. */
interface ShellEnv {
  Bindings: Partial<HttpBindings> | undefined;
  Variables: { requestId: string };
}

/** The problem-details response of `err`: RFC 7807 body, `application/problem+json`, the error's own headers. */
export function problemResponse(c: Context, err: ApiError): Response {
  const body = toProblem(err, c.req.path, c.get('requestId') ?? '');
  const res = c.json(body, err.status as 400);
  res.headers.set('content-type', 'application/problem+json');
  for (const [k, v] of Object.entries(err.headers)) res.headers.set(k, v);
  return res;
}

/**
 * A new app with the shell installed (see the module docstring); mount the program's
 * routes on it afterwards. Its env `E` must carry `Variables.requestId` (and, under
 * @hono/node-server, the Node request and response as bindings).
 */
export function createHttpApp<E extends Env & { Variables: { requestId: string } }>(opts: HttpAppOptions<E>): OpenAPIHono<E> {
  const app = new OpenAPIHono<E>(opts.router ? { router: opts.router } : {});
  const shell = app as unknown as OpenAPIHono<ShellEnv>;
  installRequestIds(shell, opts);
  installBodyGate(shell, opts);
  installErrors(shell, opts);
  installApiReference(shell, opts.api);
  return app;
}

/** Request ids, the program's headers and the request log line. */
function installRequestIds(app: OpenAPIHono<ShellEnv>, opts: HttpAppOptions<Env>): void {
  const { logger } = opts;
  const accept = opts.acceptRequestId === true;
  const names = Object.keys(opts.headers ?? {});
  const values = names.map((n) => opts.headers![n]!);
  app.use('*', async (c, next) => {
    const started = performance.now();
    const incoming = accept ? c.req.header('x-request-id') : undefined;
    const requestId = requestIdFor(incoming);
    c.set('requestId', requestId);
    // on the Node response (merged at writeHead): `c.res.headers.set` would turn plain
    // headers into WHATWG Headers that @hono/node-server copies back, on every request
    const out = c.env?.outgoing;
    if (out) {
      out.setHeader('x-request-id', requestId);
      for (let i = 0; i < names.length; i++) out.setHeader(names[i]!, values[i]!);
    }
    await next();
    if (!out) {
      c.res.headers.set('x-request-id', requestId);
      for (let i = 0; i < names.length; i++) c.res.headers.set(names[i]!, values[i]!);
    }
    logger.info('request', { requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 100) / 100 });
  });
}

/** Content type (415, when the program lists its types) and body size per path (413). */
function installBodyGate(app: OpenAPIHono<ShellEnv>, opts: HttpAppOptions<Env>): void {
  const { bodyLimit: limitFor, bodyTypes } = opts;
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
    // Node's parsed headers give the same values (a repeated Content-Length is a parse error)
    const node = c.env?.incoming?.headers;
    const len = node ? node['content-length'] : c.req.header('content-length');
    const chunked = (node ? node['transfer-encoding'] : c.req.header('transfer-encoding')) !== undefined;
    if (bodyTypes) {
      const ct = (c.req.header('content-type') ?? '').toLowerCase();
      const hasBody = (len !== undefined && len !== '0') || chunked;
      if (hasBody && !accepted(ct, bodyTypes)) {
        throw new UnsupportedMediaType(`Send the body as application/json${ct ? ` (got ${ct.split(';')[0]})` : ''}.`);
      }
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
}

function accepted(contentType: string, types: readonly string[]): boolean {
  for (let i = 0; i < types.length; i++) if (contentType.startsWith(types[i]!)) return true;
  return false;
}

/** The error mapper (every error leaves as a problem) and 404/405. */
function installErrors(app: OpenAPIHono<ShellEnv>, opts: HttpAppOptions<Env>): void {
  const { logger } = opts;
  app.onError((err, c) => {
    if (err instanceof ApiError) return problemResponse(c, err);
    if (err instanceof ZodError) return problemResponse(c, new ValidationError('The request is invalid.', zodFieldErrors(err)));
    if (err instanceof HTTPException) {
      if (err.status === 400) {
        const multipart = (c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/');
        return problemResponse(c, new ValidationError(multipart ? `The multipart form could not be read: ${err.message}` : 'The request body is not valid JSON.', [{ path: '(body)', message: multipart ? 'malformed multipart form' : 'malformed JSON' }]));
      }
      if (err.status === 413) return problemResponse(c, new PayloadTooLarge(opts.bodyLimit(c.req.path)));
      return problemResponse(c, new ApiError(err.status, 'http-error', err.message || 'Request failed', err.message || 'Request failed'));
    }
    if (err instanceof SyntaxError) return problemResponse(c, new ValidationError('The request body is not valid JSON.', [{ path: '(body)', message: 'malformed JSON' }]));
    logger.error('unhandled error', { requestId: c.get('requestId'), path: c.req.path, error: String(err), stack: (err as Error).stack });
    return problemResponse(c, new ApiError(500, 'internal-error', 'Internal server error', opts.internalErrorDetail));
  });

  // the routes' patterns, learnt on the first miss (every route is mounted by then)
  let patterns: { method: string; re: RegExp }[] | null = null;
  app.notFound((c) => {
    patterns ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ method: r.method, re: new RegExp('^' + r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+').replace(/\*/g, '.*') + '$') }));
    const allowed = [...new Set(patterns.filter((p) => p.re.test(c.req.path)).map((p) => p.method))];
    // (a route of this very method that found nothing, as a static file's handler does when the file is missing, is a 404:
    // "GET is not allowed; use GET" would be false; RFC 9110 §15.5.6 — a 405 names a method the resource does not support)
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    if (allowed.length && !allowed.includes(method)) {
      const err = new ApiError(405, 'method-not-allowed', 'Method not allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(', ')}.`, {}, { Allow: allowed.join(', ') });
      return problemResponse(c, err);
    }
    return problemResponse(c, new ApiError(404, 'not-found', 'Not found', `No route for ${c.req.method} ${c.req.path}.`));
  });
}

/**
 * The OpenAPI 3.1 document (generated when asked for, so routes mounted later are in it)
 * and Swagger UI at /docs from node_modules/swagger-ui-dist, under the pages' security
 * headers (src/platform/security-headers.ts).
 */
function installApiReference(app: OpenAPIHono<ShellEnv>, api: HttpAppOptions<Env>['api']): void {
  for (const [name, scheme] of Object.entries(api.securitySchemes)) app.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
  app.doc31('/openapi.json', { openapi: '3.1.0', info: { title: api.title, version: api.version, description: api.description } });
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${api.title} reference</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;
  app.get('/docs', pageSecurityHeaders, (c) => c.html(page));
  app.get('/docs/init.js', pageSecurityHeaders, (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8');
    return c.body("window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui' });\n");
  });
  app.use('/docs/assets/*', pageSecurityHeaders, serveStatic({ root: SWAGGER, rewriteRequestPath: (p) => p.replace(/^\/docs\/assets/, '') }));
}
