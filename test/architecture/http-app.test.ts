/**
 * One HTTP shell serves both programs (issue 35 §2; src/platform/http-app.ts): the hall
 * and the hub, each on a real HTTP server on loopback, answer an unknown route, a wrong
 * method and malformed JSON with the same problem details (RFC 7807), carry a request id
 * in the header and the body, and serve /docs the same way. The shell alone is then
 * checked for what neither program can be made to do on demand (an unexpected error,
 * a malformed multipart form, a body over its limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAPIHono } from '@hono/zod-openapi';
import { validator } from 'hono/validator';
import { startTestServer, type TestServer } from '../harness.js';
import { createHubApp } from '../../src/hub/app.js';
import type { HubDeps } from '../../src/hub/deps.js';
import { silentLogger, type Logger } from '../../src/platform/logger.js';
import { createHttpApp } from '../../src/platform/http-app.js';
import type { AppEnv } from '../../src/platform/deps.js';

/** Serves `fetch` on 127.0.0.1:<ephemeral>; returns its base URL and a closer. */
async function listen(fetch: (req: Request, env: unknown) => Response | Promise<Response>): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }),
  };
}

async function problemOf(res: Response): Promise<Record<string, unknown>> {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.headers.get('x-request-id')).toBe(body.requestId);
  expect(body.requestId).toMatch(/^[\w.-]{1,64}$/);
  return body;
}

let hall: TestServer;
let hub: { baseUrl: string; close(): Promise<void> };
beforeAll(async () => {
  hall = await startTestServer();
  // the requests below never reach a handler (no route, wrong method, a body the validator
  // refuses before the handler), so the hub is built without its database and job pool
  hub = await listen(createHubApp({ logger: silentLogger, config: {} } as unknown as HubDeps).fetch);
});
afterAll(async () => {
  await hall?.close();
  await hub?.close();
});

describe('the hall and the hub share one HTTP shell', () => {
  it('the same 404 problem for an unknown route', async () => {
    for (const base of [hall.baseUrl, hub.baseUrl]) {
      const res = await fetch(`${base}/no/such/route`);
      expect(res.status).toBe(404);
      const body = await problemOf(res);
      expect(body).toEqual({ type: '/problems/not-found', title: 'Not found', status: 404, detail: 'No route for GET /no/such/route.', instance: '/no/such/route', requestId: body.requestId });
    }
  });

  it('the same 405 problem with Allow for a wrong method', async () => {
    for (const base of [hall.baseUrl, hub.baseUrl]) {
      const res = await fetch(`${base}/openapi.json`, { method: 'DELETE' });
      expect(res.status, base).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      const body = await problemOf(res);
      expect(body).toEqual({ type: '/problems/method-not-allowed', title: 'Method not allowed', status: 405, detail: 'DELETE is not allowed on /openapi.json; use GET.', instance: '/openapi.json', requestId: body.requestId });
    }
  });

  it('the same 400 problem for malformed JSON', async () => {
    const bodies = [];
    for (const url of [`${hall.baseUrl}/workspaces/login`, `${hub.baseUrl}/hub/v1/enrol`]) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code":' });
      expect(res.status).toBe(400);
      const { instance, requestId, ...body } = await problemOf(res);
      expect(instance).toBe(new URL(url).pathname);
      bodies.push(body);
    }
    expect(bodies[0]).toEqual({ type: '/problems/validation-error', title: bodies[0]!.title, code: 'VALIDATION', status: 400, detail: 'The request body is not valid JSON.', errors: [{ path: '(body)', message: 'malformed JSON' }] });
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('the same /docs: local assets, no inline script, the pages’ security headers', async () => {
    for (const [base, title] of [[hall.baseUrl, 'HallCBT API reference'], [hub.baseUrl, 'HallCBT hub API reference']] as const) {
      const res = await fetch(`${base}/docs`);
      const html = await res.text();
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).not.toMatch(/https?:\/\/|<script>/);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect((await fetch(`${base}/docs/init.js`)).status).toBe(200);
      expect((await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    }
  });

  it('request ids: the hall keeps a safe incoming x-request-id, the hub always makes its own', async () => {
    const mine = { 'x-request-id': 'board-trace.42' };
    expect((await fetch(`${hall.baseUrl}/no/such/route`, { headers: mine })).headers.get('x-request-id')).toBe('board-trace.42');
    expect((await fetch(`${hall.baseUrl}/no/such/route`, { headers: { 'x-request-id': 'no spaces/here' } })).headers.get('x-request-id')).not.toBe('no spaces/here');
    expect((await fetch(`${hub.baseUrl}/no/such/route`, { headers: mine })).headers.get('x-request-id')).not.toBe('board-trace.42');
  });
});

describe('the shell itself', () => {
  const logged: { msg: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (msg, fields) => void logged.push({ msg, fields }) };
  let shell: { baseUrl: string; close(): Promise<void> };
  beforeAll(async () => {
    const app = createHttpApp<AppEnv>({
      logger,
      bodyLimit: (path) => (path === '/small' ? 10 : 1000),
      internalErrorDetail: 'It broke; logged.',
      headers: { 'x-extra': 'yes' },
      api: { title: 'Shell test API', version: '0.0.1', description: 'A test', securitySchemes: {} },
    });
    const routes = new OpenAPIHono<AppEnv>();
    routes.get('/boom', () => { throw new Error('kaput'); });
    routes.post('/form', validator('form', (v) => v), (c) => c.json({ ok: true }));
    routes.post('/small', (c) => c.json({ ok: true }));
    // a handler that finds nothing and passes on, as a static file's does when the file is missing
    routes.get('/gone.js', async (_c, next) => { await next(); });
    app.route('/', routes);
    shell = await listen(app.fetch);
  });
  afterAll(() => shell?.close());

  it('an unexpected error: 500 problem with the program’s detail, logged with its request id', async () => {
    const res = await fetch(`${shell.baseUrl}/boom`);
    expect(res.status).toBe(500);
    expect(res.headers.get('x-extra')).toBe('yes');
    const body = await problemOf(res);
    expect(body).toMatchObject({ type: '/problems/internal-error', title: 'Internal server error', status: 500, detail: 'It broke; logged.' });
    expect(logged).toContainEqual({ msg: 'unhandled error', fields: expect.objectContaining({ requestId: body.requestId, path: '/boom', error: 'Error: kaput' }) });
  });

  it('a route of the right method that finds nothing: 404, not 405 "use GET" (the candidate page once logged that for /sw.js)', async () => {
    const res = await fetch(`${shell.baseUrl}/gone.js`);
    expect(res.status).toBe(404);
    expect((await problemOf(res)).type).toBe('/problems/not-found');
    // another method on it is still 405, with Allow
    const put = await fetch(`${shell.baseUrl}/gone.js`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET');
  });

  it('a body over the path’s limit: 413 problem, by Content-Length and chunked', async () => {
    const declared = await fetch(`${shell.baseUrl}/small`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"0123456789"}' });
    expect(declared.status).toBe(413);
    expect((await problemOf(declared)).type).toBe('/problems/payload-too-large');
    const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('{"a":"0123456789"}')); c.close(); } });
    const chunked = await fetch(`${shell.baseUrl}/small`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('a malformed multipart form: 400 problem naming the form, not JSON', async () => {
    const res = await fetch(`${shell.baseUrl}/form`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=xyz' }, body: '--xyz\r\nnot a part' });
    expect(res.status).toBe(400);
    const body = await problemOf(res);
    expect(body.detail).toMatch(/^The multipart form could not be read: /);
    expect(body.errors).toEqual([{ path: '(body)', message: 'malformed multipart form' }]);
  });

  it('no content-type list: any body type passes the gate', async () => {
    const res = await fetch(`${shell.baseUrl}/small`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(res.status).toBe(200);
  });
});
