/**
 * Hot JSON routes (the live answer save): the route is registered in the OpenAPI document
 * exactly as `router.openapi()` registers it, but mounted as one handler that validates
 * path and body with the same zod schemas synchronously, instead of @hono/zod-openapi's
 * chain of four async middlewares (param validator, media-type gate, JSON validator,
 * handler) with `safeParseAsync`. Behaviour is the chain's, check for check and in its
 * order: path → 400; content type not JSON → 415; malformed JSON → 400; body → 400.
 * Also: `plainJson()`, a JSON response whose headers stay a plain object.
 */
import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { OpenAPIHono, RouteConfig, z } from '@hono/zod-openapi';
import type { AppEnv } from './deps.js';
import { invalidInput, jsonBody } from './openapi.js';

// the media-type gate's test (@hono/zod-openapi `matchesMediaType` for application/json)
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
// hono's JSON validator reads the body only when the media type is JSON; else it validates {}
const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

// as @hono/node-server decodes a body for `text()`/`json()` (a leading BOM is dropped)
const utf8 = new TextDecoder();

/**
 * The body of a request with a declared Content-Length once all of it sits in the Node
 * stream's buffer (the parser never delivers more than the declared length), taken with
 * one synchronous read() instead of @hono/node-server's listeners and promise; the stream
 * is then resumed, so it ends as a consumed body does. Null otherwise (no Node request,
 * chunked, still arriving, already read): the caller falls back to `c.req.json()`.
 * Only for a declared length, which the app middleware checked against the route's limit;
 * a chunked body is counted by hono's bodyLimit on `c.req.raw`.
 */
export function arrivedBody(c: Context<AppEnv>): Buffer | null {
  const incoming = c.env?.incoming;
  if (!incoming || incoming.readableDidRead || incoming.readableFlowing || incoming.readableEncoding !== null) return null;
  const len = incoming.headers['content-length'];
  if (len === undefined || incoming.headers['transfer-encoding'] !== undefined) return null;
  const n = Number(len);
  if (incoming.readableLength !== n) return null;
  // paused, no encoding: read() hands over everything buffered as one Buffer
  const buf = n === 0 ? Buffer.alloc(0) : (incoming.read() as Buffer);
  incoming.resume();
  return buf;
}

/**
 * The request body as the zod-openapi chain would hand it to the schema.
 * @returns the parsed JSON, or `{}` when the request has no content type and no body
 * @throws HTTPException 415 (content type not JSON, or a body without one), 400 (malformed JSON)
 */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const ct = c.req.header('content-type');
  if (!ct) {
    if ((await c.req.arrayBuffer()).byteLength > 0) throw new HTTPException(415, { message: 'Unsupported Media Type' });
    return {};
  }
  if (ct !== 'application/json') {
    if (!JSON_REQUEST.test(ct)) throw new HTTPException(415, { message: 'Unsupported Media Type' });
    if (!JSON_MEDIA.test(ct.split(';')[0]!.trim())) return {};
  }
  // Handlers run inside Node's 'request' event, before the parser has pushed the body bytes
  // of the same packet; a microtask later they are buffered and arrivedBody() can take them.
  await undefined;
  const buf = arrivedBody(c);
  try {
    return buf ? JSON.parse(utf8.decode(buf)) : await c.req.json();
  } catch {
    throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  }
}

interface JsonRouteDef<P extends z.ZodType, B extends z.ZodType> {
  method: 'post' | 'put' | 'patch';
  /** OpenAPI form: `/attempts/{id}` */
  path: string;
  params: P;
  body: B;
  /** the rest of the route's OpenAPI description (tags, summary, responses) */
  doc: Omit<RouteConfig, 'method' | 'path' | 'request'>;
}

/**
 * Registers a JSON route in `r`'s OpenAPI document and mounts `handler` behind a single
 * synchronous validation step (see the module header).
 * `handler(c, params, body)` receives the schemas' outputs; what it throws goes to onError.
 */
export function jsonRoute<P extends z.ZodType, B extends z.ZodType>(
  r: OpenAPIHono<AppEnv>,
  def: JsonRouteDef<P, B>,
  handler: (c: Context<AppEnv>, params: z.output<P>, body: z.output<B>) => Response | Promise<Response>,
): void {
  r.openAPIRegistry.registerPath({ ...def.doc, method: def.method, path: def.path, request: { params: def.params as never, body: jsonBody(def.body) } });
  const { params, body } = def;
  r.on(def.method.toUpperCase(), def.path.replace(/\/{(.+?)}/g, '/:$1'), async (c: Context<AppEnv>) => {
    const p = params.safeParse(c.req.param());
    if (!p.success) throw invalidInput('param', p.error);
    const b = body.safeParse(await readJsonBody(c));
    if (!b.success) throw invalidInput('json', b.error);
    // awaiting (rather than returning) the handler's promise saves two microtask turns
    return await handler(c, p.data, b.data);
  });
}

/**
 * A JSON response (`content-type: application/json`, like `c.json`) with plain-object
 * headers; give `headers` names in lower case. `c.json()` after `c.header()` builds WHATWG
 * Headers, which @hono/node-server must convert back; a plain object goes to `writeHead`.
 */
export function plainJson(data: unknown, status: number, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json', ...headers } });
}
