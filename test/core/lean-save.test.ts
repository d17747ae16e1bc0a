/**
 * The lean dispatch of the live answer save (src/modules/candidate/lean-save.ts) answers
 * exactly as the route through hono does: one runtime served twice — by the test server
 * (lean dispatch in front, as src/main.ts serves it) and by a plain @hono/node-server
 * server of the same app — and the same requests sent to both: same status, same header
 * names and values (less the per-request ones), same body (less the request id).
 */
import { serve } from '@hono/node-server';
import { request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** One PUT with a declared length through node:http. */
function put(base: string, p: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Reply> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: p, method: 'PUT', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What must be equal between the two servers' replies. */
function comparable(r: Reply) {
  const headers: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.headers)) {
    if (k === 'date') continue;
    // the request id (and so the body's length) differs per request; its presence does not
    headers[k] = k === 'x-request-id' || k === 'content-length' ? typeof v : k === 'ratelimit' ? String(v).replace(/r=\d+/, 'r=N') : v;
  }
  const { requestId, seq, durableSeq, applied, ...body } = r.body;
  return { status: r.status, headers, body, requestId: typeof requestId, seq: typeof seq, durableSeq: typeof durableSeq, applied: typeof applied };
}

let s: TestServer;
let limited: TestServer;
const plain: Server[] = [];
/** A server of `t`'s app without the lean dispatch (hono answers everything). */
async function honoOnly(t: TestServer): Promise<string> {
  const srv = await new Promise<Server>((resolve) => {
    const x = serve({ fetch: t.runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(x as unknown as Server)) as unknown as Server;
  });
  plain.push(srv);
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
}

async function seated(t: TestServer, studentIds: string[]) {
  const ws = await registerWorkspace(t.baseUrl);
  const e = await createExam(t.baseUrl, ws.apiKey, ws.id);
  await addQuestions(t.baseUrl, ws.apiKey, ws.id, e.id, sampleMcqs(3));
  const out = [];
  for (const id of studentIds) out.push(await startAttempt(t.baseUrl, e.accessCode, id));
  return out;
}

beforeAll(async () => {
  s = await startTestServer();
  limited = await startTestServer({ config: { CBT_ANSWER_RATE_LIMIT_PER_MIN: 2 } });
});
afterAll(async () => {
  for (const p of plain) await new Promise<void>((r) => { p.close(() => r()); (p as unknown as { closeAllConnections(): void }).closeAllConnections(); });
  await s.close();
  await limited.close();
});

describe('the lean answer save answers as hono does', () => {
  it('a good save, every refusal the save gives itself, and what it leaves to hono', async () => {
    const hono = await honoOnly(s);
    const [a, b, done] = await seated(s, ['LEAN-1', 'LEAN-2', 'LEAN-3']);
    const q = a!.questions[0]!;
    await api(s.baseUrl).post(`/attempts/${done!.attemptId}/submit`, {});
    const cases: [string, string, Record<string, string>?][] = [
      [`/attempts/${a!.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: q.options[1]!.id })],
      [`/attempts/${a!.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: q.options[2]!.id, seq: 7 })],
      [`/attempts/${a!.attemptId}/answers/${q.id}`, '{"optionId":'],
      [`/attempts/${a!.attemptId}/answers/${q.id}`, ''],
      [`/attempts/${a!.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: 5, seq: 0 })],
      [`/attempts/${a!.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: 'opt_not_here' })],
      [`/attempts/${a!.attemptId}/answers/${q.id}`, JSON.stringify({ text: 'an essay' })],
      [`/attempts/${a!.attemptId}/answers/q_not_on_paper`, JSON.stringify({ optionId: null })],
      [`/attempts/${a!.attemptId}/answers/${'q'.repeat(65)}`, JSON.stringify({ optionId: 5 })],
      [`/attempts/att_nobody/answers/${q.id}`, JSON.stringify({ optionId: null })],
      [`/attempts/${done!.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: null })],
      [`/attempts/${b!.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: q.options[0]!.id }), { 'content-type': 'application/json', 'x-request-id': 'client.req-1' }],
      // left to hono: other content types, a query, an encoded segment
      [`/attempts/${b!.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: q.options[0]!.id }), { 'content-type': 'application/json; charset=utf-8' }],
      [`/attempts/${b!.attemptId}/answers/${q.id}`, 'optionId=x', { 'content-type': 'text/plain' }],
      [`/attempts/${b!.attemptId}/answers/${q.id}?x=1`, JSON.stringify({ optionId: null })],
      [`/attempts/${b!.attemptId}/answers/${encodeURIComponent(q.id)}%20`, JSON.stringify({ optionId: null })],
    ];
    for (const [p, body, headers] of cases) {
      const viaLean = await put(s.baseUrl, p, body, headers);
      const viaHono = await put(hono, p, body, headers);
      expect(comparable(viaLean), `${p} ${body}`).toEqual(comparable(viaHono));
      if (headers?.['x-request-id']) expect(viaLean.headers['x-request-id']).toBe('client.req-1');
      // the problem's instance is the path as sent (hono decodes a `%`-escaped one: those are hono's)
      if (viaLean.body.instance !== undefined && !p.includes('%')) expect(viaLean.body.instance).toBe(p);
    }
  });

  it('the rate limit: the same 429, Retry-After and headers', async () => {
    const hono = await honoOnly(limited);
    const [a, b] = await seated(limited, ['LIMIT-1', 'LIMIT-2']);
    /** saves of `at` to `base` until one is refused 429 (at most 4) */
    const until429 = async (base: string, at: { attemptId: string; questions: { id: string; options: { id: string }[] }[] }) => {
      const q = at.questions[0]!;
      for (let i = 0; i < 4; i++) {
        const r = await put(base, `/attempts/${at.attemptId}/answers/${q.id}`, JSON.stringify({ optionId: q.options[i % 2]!.id }));
        if (r.status === 429) return r;
      }
      throw new Error('no 429 in 4 saves at 2 a minute');
    };
    const lean = await until429(limited.baseUrl, a!);
    const viaHono = await until429(hono, b!);
    // two attempts: all but the instance (each its own path) must be equal
    const same = (r: Reply) => ({ ...comparable(r), body: { ...comparable(r).body, instance: typeof r.body.instance } });
    expect(same(lean)).toEqual(same(viaHono));
    expect(lean.body.instance).toBe(`/attempts/${a!.attemptId}/answers/${a!.questions[0]!.id}`);
    expect(lean.headers['retry-after']).toBeDefined();
  });

  it('answers saves sent together on one connection, and on many, each in order and whole (the answers of one turn leave together)', async () => {
    const [a, b] = await seated(s, ['PIPE-1', 'PIPE-2']);
    const { hostname, port } = new URL(s.baseUrl);
    const saveText = (at: typeof a, i: number, seq: number) => {
      const q = at!.questions[i % 3]!;
      const body = JSON.stringify({ optionId: q.options[i % 2]!.id, seq });
      return `PUT /attempts/${at!.attemptId}/answers/${q.id} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    /** writes `requests` in one packet on one connection; resolves the raw bytes of `expected` responses */
    const pipelined = (requests: string[], expected: number) =>
      new Promise<string>((resolve, reject) => {
        const sock = connect(Number(port), hostname, () => sock.write(requests.join('')));
        let got = '';
        sock.on('data', (d: Buffer) => {
          got += d.toString('utf8');
          if ((got.match(/HTTP\/1\.1 /g) ?? []).length === expected && /\r\n\r\n\{[^]*\}$/.test(got)) {
            // the last response's body is complete when its length is met
            const last = got.slice(got.lastIndexOf('HTTP/1.1 '));
            const len = Number(/content-length: (\d+)/i.exec(last)?.[1]);
            if (Buffer.byteLength(last.slice(last.indexOf('\r\n\r\n') + 4)) >= len) {
              sock.end();
              resolve(got);
            }
          }
        });
        sock.on('error', reject);
        setTimeout(() => reject(new Error(`timed out: ${JSON.stringify(got.slice(0, 400))}`)), 5000).unref();
      });
    // one connection, five saves of two candidates in one write: five 200s, each saying its own seq, in order
    const raw = await pipelined([saveText(a, 0, 1), saveText(a, 1, 2), saveText(b, 0, 1), saveText(a, 2, 3), saveText(b, 1, 2)], 5);
    const parts = raw.split(/(?=HTTP\/1\.1 )/);
    expect(parts.map((r) => r.slice(9, 12))).toEqual(['200', '200', '200', '200', '200']);
    expect(parts.map((r) => JSON.parse(r.slice(r.indexOf('\r\n\r\n') + 4)).seq)).toEqual([1, 2, 1, 3, 2]);
    // many connections at once: every one answered, and the answers are the server's (read back)
    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => put(s.baseUrl, `/attempts/${a!.attemptId}/answers/${a!.questions[i % 3]!.id}`, JSON.stringify({ optionId: a!.questions[i % 3]!.options[0]!.id }))));
    expect(many.map((r) => r.status)).toEqual(Array(20).fill(200));
    const seqs = many.map((r) => r.body.seq as number).sort((x, y) => x - y);
    expect(new Set(seqs).size).toBe(20);
  });
});
