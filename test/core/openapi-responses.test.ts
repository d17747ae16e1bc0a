/**
 * Issue 20 item 4: every response /openapi.json documents says what it really means on
 * that route. No status borrows another's description ("Not found" for 402/403/409/503),
 * no route without an API key lists "401 API key missing", and the candidate routes
 * document exactly the refusals they give, each naming its `code` values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../harness.js';

interface Op {
  security?: Record<string, string[]>[];
  responses: Record<string, { description: string }>;
}
let s: TestServer;
let ops: { method: string; path: string; op: Op }[] = [];
beforeAll(async () => {
  s = await startTestServer();
  const doc = (await api(s.baseUrl).get('/openapi.json')).body as { paths: Record<string, Record<string, Op>> };
  ops = Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
});
afterAll(() => s.close());

const keyless = (op: Op) => !op.security?.some((req) => Object.keys(req).length > 0);
const described = (op: Op) => Object.fromEntries(Object.entries(op.responses).map(([code, r]) => [code, r.description]));

describe('/openapi.json response descriptions', () => {
  it('never describes a status other than 404 as "not found", nor gives two statuses of a route one description', () => {
    const wrong: string[] = [];
    for (const { method, path, op } of ops) {
      const d = described(op);
      for (const [code, text] of Object.entries(d)) {
        if (code !== '404' && /^not found/i.test(text)) wrong.push(`${method} ${path} ${code}: ${text}`);
      }
      const texts = Object.values(d);
      if (new Set(texts).size !== texts.length) wrong.push(`${method} ${path}: two statuses share a description`);
    }
    expect(wrong).toEqual([]);
  });

  it('lists "API key missing or invalid" only on routes that take an API key', () => {
    const wrong = ops.filter(({ op }) => keyless(op) && /api key/i.test(op.responses['401']?.description ?? '')).map(({ method, path }) => `${method} ${path}`);
    expect(wrong).toEqual([]);
    // and the keyed routes still document it
    expect(ops.filter(({ op }) => !keyless(op)).every(({ op }) => /API key/.test(op.responses['401']?.description ?? ''))).toBe(true);
  });

  it('documents exactly the refusals of each candidate route, naming their codes', () => {
    const route = (m: string, p: string) => described(ops.find((o) => o.method === m && o.path === p)!.op);
    const expected: Record<string, Record<string, RegExp>> = {
      'POST /attempts/start': { 400: /Validation/, 401: /PIN_INVALID.*NOT_ON_ROSTER/, 402: /CREDITS_EXHAUSTED/, 403: /EXAM_NOT_PUBLISHED.*EXAM_NOT_OPEN.*EXAM_CLOSED.*DISQUALIFIED/, 404: /ROOM_NOT_FOUND/, 409: /NO_QUESTIONS.*ALREADY_SUBMITTED.*TIME_OVER/, 429: /wrong PINs/ },
      'GET /attempts/{id}': { 400: /Validation/, 403: /DISQUALIFIED/, 404: /No attempt/, 429: /Rate limit/ },
      'PUT /attempts/{id}/answers/{questionId}': { 400: /Validation/, 403: /DISQUALIFIED/, 404: /QUESTION_NOT_FOUND/, 409: /ALREADY_SUBMITTED.*TIME_OVER/, 429: /Rate limit/ },
      'POST /attempts/{id}/answers': { 400: /errors/, 403: /DISQUALIFIED/, 404: /No attempt/, 409: /ALREADY_SUBMITTED.*TIME_OVER/, 429: /Rate limit/ },
      'POST /attempts/{id}/telemetry': { 400: /Validation/, 403: /DISQUALIFIED/, 404: /No attempt/, 409: /ALREADY_SUBMITTED/, 429: /Rate limit/ },
      'POST /attempts/{id}/submit': { 400: /Validation/, 403: /DISQUALIFIED/, 404: /No attempt/, 429: /Rate limit/ },
      'GET /attempts/{id}/channel': { 101: /Switching Protocols/, 400: /Validation/, 403: /DISQUALIFIED.*SEB_USES_HTTP.*ORIGIN_REFUSED/, 404: /No attempt.*SAVE_CHANNEL_OFF/, 409: /ALREADY_SUBMITTED.*TIME_OVER/, 426: /UPGRADE_REQUIRED/, 429: /Rate limit/, 503: /stopping/ },
    };
    for (const [name, statuses] of Object.entries(expected)) {
      const [m, p] = name.split(' ') as [string, string];
      const d = route(m, p);
      expect(Object.keys(d).filter((c) => c !== '200').sort(), name).toEqual(Object.keys(statuses).sort());
      for (const [code, re] of Object.entries(statuses)) expect(d[code], `${name} ${code}`).toMatch(re);
    }
  });

  it('documents what the keyless workspace routes really answer', () => {
    const d = (m: string, p: string) => described(ops.find((o) => o.method === m && o.path === p)!.op);
    expect(d('POST', '/workspaces/standalone')['409']).toMatch(/EMAIL_TAKEN/);
    expect(d('POST', '/workspaces/login')['401']).toMatch(/LOGIN_FAILED/);
    expect(d('POST', '/workspaces/institution')['401']).toMatch(/x-provisioning-token/);
    expect(d('POST', '/workspaces/institution')['503']).toMatch(/CBT_PROVISIONING_TOKEN/);
  });
});
