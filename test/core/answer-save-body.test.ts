/**
 * The live answer save's own body reader and validation step (src/platform/json-route.ts)
 * through the real server: the same statuses and problem details as the @hono/zod-openapi
 * chain it replaced, for bodies taken from Node's buffer and for those that are not
 * (chunked, arriving in pieces), and the same OpenAPI description of the route.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

let s: TestServer;
let attemptId: string;
let q: { id: string; options: { id: string }[] };
let path: string;
beforeAll(async () => {
  s = await startTestServer();
  const ws = await registerWorkspace(s.baseUrl);
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
  await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(2));
  const a = await startAttempt(s.baseUrl, e.accessCode, 'BODY-1');
  attemptId = a.attemptId;
  q = a.questions[0]!;
  path = `/attempts/${attemptId}/answers/${q.id}`;
});
afterAll(() => s.close());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** A PUT through node:http; `chunks` are written one by one, chunked unless a length is set. */
function put(p: string, chunks: string[], headers: Record<string, string> = {}): Promise<Reply> {
  const { hostname, port } = new URL(s.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: p, method: 'PUT', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/** The request written to a raw socket in two parts, 30 ms apart (the body arrives after the handler started). */
function putInTwoParts(p: string, body: string): Promise<string> {
  const { hostname, port } = new URL(s.baseUrl);
  return new Promise((resolve, reject) => {
    const sock = connect({ host: hostname, port: Number(port) }, () => {
      sock.write(`PUT ${p} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 4)}`);
      setTimeout(() => sock.end(body.slice(4)), 30);
    });
    let out = '';
    sock.on('data', (d: Buffer) => (out += d));
    sock.on('close', () => resolve(out));
    sock.on('error', reject);
  });
}

const json = { 'content-type': 'application/json' };
const answers = async () => (await api(s.baseUrl).get(`/attempts/${attemptId}?questions=0`)).body.answers as { questionId: string; optionId: string | null; seq: number }[];

describe('PUT /attempts/{id}/answers/{questionId}: body and validation', () => {
  it('saves a body with a declared length, with request-id and version headers and no rate-limit headers (issue 26: bytes on the Wi-Fi)', async () => {
    const body = JSON.stringify({ optionId: q.options[1]!.id, seq: 1 });
    const r = await put(path, [body], { ...json, 'content-length': String(body.length), 'x-request-id': 'client-req.1' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ saved: true, applied: 1, seq: 1, remainingSeconds: expect.any(Number), durableSeq: expect.any(Number) });
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['ratelimit-policy']).toBeUndefined();
    expect(r.headers['ratelimit']).toBeUndefined();
    expect(r.headers['x-request-id']).toBe('client-req.1');
    expect(r.headers['x-cbt-api-version']).toBe('1.2.0');
    expect(await answers()).toContainEqual(expect.objectContaining({ questionId: q.id, optionId: q.options[1]!.id, seq: 1 }));
  });

  it('saves a chunked body and one that arrives in two parts', async () => {
    const chunked = await put(path, ['{"optionId":', `"${q.options[2]!.id}","seq":2}`], json);
    expect(chunked.status).toBe(200);
    expect(chunked.body).toMatchObject({ saved: true, applied: 1, seq: 2 });
    const split = await putInTwoParts(path, JSON.stringify({ optionId: q.options[3]!.id, seq: 3 }));
    expect(split).toMatch(/^HTTP\/1\.1 200 /);
    expect(split).toContain('"seq":3');
    expect(await answers()).toContainEqual(expect.objectContaining({ questionId: q.id, optionId: q.options[3]!.id, seq: 3 }));
  });

  it('takes application/json with parameters, and a body led by a BOM', async () => {
    const body = `\uFEFF${JSON.stringify({ optionId: q.options[0]!.id, seq: 4 })}`;
    const r = await put(path, [body], { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ applied: 1, seq: 4 });
  });

  it('400 problem for malformed JSON, an empty JSON body, chunked or not; nothing saved', async () => {
    const before = await answers();
    for (const r of [await put(path, ['{"optionId":'], { ...json, 'content-length': '12' }), await put(path, [''], { ...json, 'content-length': '0' }), await put(path, ['{"optionId"', ':'], json)]) {
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.body).toMatchObject({ type: '/problems/validation-error', status: 400, instance: path, errors: [{ path: '(body)', message: 'malformed JSON' }] });
      expect(r.body.requestId).toBeTruthy();
    }
    expect(await answers()).toEqual(before);
  });

  it('400 with field errors for a body or a path the schemas refuse, path first', async () => {
    const bad = await api(s.baseUrl).put(path, { optionId: 5, seq: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^The request body is invalid: /);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['optionId', 'seq']);
    const longId = await api(s.baseUrl).put(`/attempts/${attemptId}/answers/${'q'.repeat(65)}`, { optionId: 5 });
    expect(longId.status).toBe(400);
    expect(longId.body).toMatchObject({ detail: expect.stringMatching(/^The path is invalid: questionId: /), errors: [{ path: 'questionId' }] });
  });

  it('a save refused by the service still carries the rate-limit headers', async () => {
    const r = await api(s.baseUrl).put(path, { optionId: 'opt_not_here', seq: 9 });
    expect(r.status).toBe(400);
    expect(r.headers.get('ratelimit-policy')).toMatch(/^"live";/);
    expect(r.headers.get('ratelimit')).toMatch(/^"live";r=\d+;t=\d+$/);
  });

  it('415 for a body that is not JSON (declared or chunked), and for a non-JSON type without a body', async () => {
    const body = `optionId=${q.options[0]!.id}`;
    for (const r of [await put(path, [body], { 'content-type': 'text/plain', 'content-length': String(body.length) }), await put(path, ['a', 'b'], { 'content-type': 'text/plain' })]) {
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({ type: '/problems/unsupported-media-type', status: 415 });
    }
    const formNoBody = await put(path, [], { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' });
    expect(formNoBody.status).toBe(415);
    expect(formNoBody.headers['content-type']).toBe('application/problem+json');
  });

  it('413 above 1 MB, declared or chunked', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
    for (const r of [await put(path, [big], { ...json, 'content-length': String(big.length) }), await put(path, [big.slice(0, 1000), big.slice(1000)], json)]) {
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ type: '/problems/payload-too-large', status: 413 });
    }
  });

  it('no content type and no body: validated as an empty answer, as before', async () => {
    const r = await put(path, [], { 'content-length': '0' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ saved: true, applied: 1 });
  });

  it('the OpenAPI document still describes the route with its schemas', async () => {
    const doc = (await api(s.baseUrl).get('/openapi.json')).body;
    const op = doc.paths['/attempts/{id}/answers/{questionId}'].put;
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual(['path:id', 'path:questionId']);
    expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AnswerSave' });
    expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AnswerSaved' });
    // the refusals this keyless route really gives (issue 20: no 401 API key, no 402)
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '403', '404', '409', '429']);
  });
});
