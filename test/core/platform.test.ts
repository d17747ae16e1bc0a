import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { loadConfig } from '../../src/platform/config.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('discoverability', () => {
  it('GET /health and /version, and the version header on every response', async () => {
    const h = await api(s.baseUrl).get('/health');
    expect(h.status).toBe(200);
    expect(h.body).toMatchObject({ status: 'ok', version: '1.2.0', db: 'ok', bufferedAnswers: 0, outboxPending: 0 });
    expect(h.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    const v = await api(s.baseUrl).get('/version');
    expect(v.body).toEqual({ version: '1.2.0', questionSchema: 'v1.3.0' });
    for (const r of [h, v, await api(s.baseUrl).get('/nope')]) {
      expect(r.headers.get('x-cbt-api-version')).toBe('1.2.0');
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('serves an OpenAPI 3.1 document generated from the schemas, and /docs with local assets', async () => {
    const doc = await api(s.baseUrl).get('/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    for (const p of ['/workspaces/standalone', '/workspaces/login', '/exams', '/questions/bulk', '/attempts/start', '/attempts/{id}/telemetry', '/attempts/{id}/submit', '/attempts/{id}/answers/{questionId}', '/exams/{id}/roster']) {
      expect(doc.body.paths, p).toHaveProperty([p]);
    }
    expect(doc.body.components.schemas.QuestionInput).toBeTruthy();
    const html = await (await fetch(`${s.baseUrl}/docs`)).text();
    expect(html).not.toMatch(/https?:\/\//);
    const asset = await fetch(`${s.baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
  });
});

describe('problem details for every error', () => {
  it('404 for unknown routes, 405 with Allow for a wrong method', async () => {
    const nf = await api(s.baseUrl).get('/no/such/route');
    expect(nf.status).toBe(404);
    expect(nf.body).toMatchObject({ type: '/problems/not-found', title: 'Not found', status: 404, instance: '/no/such/route' });
    expect(nf.headers.get('content-type')).toContain('application/problem+json');
    const na = await api(s.baseUrl).del('/workspaces/login');
    expect(na.status).toBe(405);
    expect(na.headers.get('allow')).toBe('POST');
  });

  it('415 for a non-JSON body, 400 for malformed JSON, 413 above 1 MB', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    const text = await fetch(`${s.baseUrl}/exams`, { method: 'POST', headers: { 'x-api-key': ws.apiKey, 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(415);
    const bad = await fetch(`${s.baseUrl}/exams`, { method: 'POST', headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: '{"title":' });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.type).toBe('/problems/validation-error');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|SQLITE|stack/i);
    const big = await api(s.baseUrl, ws.apiKey).post('/exams', { workspaceId: ws.id, title: 'x'.repeat(1_100_000), durationMins: 5 });
    expect(big.status).toBe(413);
  });

  it('limits the general API rate per key with 429 and RateLimit headers', async () => {
    const strict = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 3 } });
    try {
      const ws = await registerWorkspace(strict.baseUrl);
      const k = api(strict.baseUrl, ws.apiKey);
      const r = [await k.get('/workspaces/me'), await k.get('/workspaces/me')];
      expect(r[0]!.headers.get('ratelimit-policy')).toBe('"general";q=3;w=60');
      await k.get('/workspaces/me');
      const over = await k.get('/workspaces/me');
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBeTruthy();
      expect(over.body.type).toBe('/problems/rate-limited');
    } finally {
      await strict.close();
    }
  });
});

describe('configuration', () => {
  it('parses defaults and names a bad variable in one line', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 8080, HOST: '0.0.0.0', DATA_DIR: './data', CBT_FLUSH_INTERVAL_MS: 500 });
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT: /);
    expect(() => loadConfig({ CBT_FLUSH_INTERVAL_MS: '-1' })).toThrow(/CBT_FLUSH_INTERVAL_MS/);
    expect(() => loadConfig({ CBT_TLS_CERT: '/x.pem' })).toThrow(/CBT_TLS_KEY/);
  });
});

describe('secrets at rest', () => {
  it('stores no API key or webhook secret in plaintext', async () => {
    const ws = await registerWorkspace(s.baseUrl);
    s.deps.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = readFileSync(join(s.dataDir, 'hallcbt.sqlite')).toString('latin1');
    expect(file).not.toContain(ws.apiKey);
    expect(file).not.toContain(ws.webhookSecret);
    const { statSync } = await import('node:fs');
    expect(statSync(join(s.dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
  });
});
