/**
 * Issue #34, finding 1 (enrolment): anyone could sign up a workspace and enrol it with a
 * hub they run, anywhere — loopback, a LAN port, a path picked with `?` — and the hall
 * then polled it forever. Now enrolling and removing need the hall operator's credential
 * on top of the workspace key, a hub address is an http(s) origin (no path, query,
 * fragment or user info) that is not loopback, link-local, unspecified, multicast or this
 * machine unless CBT_HUB_ALLOW_LOCAL=1, the answer to a failed enrolment does not tell a
 * closed port from an open one, and DELETE /hub-link removes a link for good (also across
 * a restart) and stops an in-flight poll at once.
 */
import { networkInterfaces } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { api, registerWorkspace, startTestServer, tempDir, type TestServer } from '../harness.js';
import { freePort } from '../../scripts/soak/server-process.js';
import { startFakeHub } from './fake-hub.js';
import { HUB_TIMEOUT_MS } from '../../src/modules/hub-link/hub-http.js';

const ownAddress = Object.values(networkInterfaces()).flat().find((ni) => ni && !ni.internal && ni.family === 'IPv4')?.address;
const enrolBody = (hubUrl: string) => ({ hubUrl, enrolmentCode: 'ENR-0000-0000-0000-0000', hallName: 'Test hall' });

describe('enrolling with a hub', () => {
  let strict: TestServer;
  let operator: string;
  beforeAll(async () => {
    strict = await startTestServer({ config: { CBT_HUB_ALLOW_LOCAL: '0' } });
    operator = rotateOperatorCredential(strict.dataDir);
  });
  afterAll(async () => strict?.close());

  it('needs the hall operator’s credential: none → 401, a workspace key alone → 403, nothing stored', async () => {
    const hub = await startFakeHub({ reply: 'empty-list' });
    try {
      const ws = await registerWorkspace(strict.baseUrl);
      const none = await api(strict.baseUrl).post('/hub-link/enrol', enrolBody(hub.url));
      expect(none.status).toBe(401);
      const keyOnly = await api(strict.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(hub.url));
      expect([keyOnly.status, keyOnly.body.code]).toEqual([403, 'OPERATOR_REQUIRED']);
      expect(keyOnly.headers.get('content-type')).toContain('application/problem+json');
      const wrongOperator = await api(strict.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(hub.url), { 'x-operator-key': `cbtop_${'x'.repeat(40)}` });
      expect(wrongOperator.status).toBe(401);
      expect((await api(strict.baseUrl, ws.apiKey).get('/hub-link')).body.enrolled).toBe(false);
      expect((await api(strict.baseUrl, ws.apiKey).del('/hub-link')).status).toBe(403);
      expect(hub.requests).toEqual([]);
    } finally {
      await hub.close();
    }
  });

  it('refuses hub addresses with a query, fragment, user info, path or another scheme, and local ones, with 400', async () => {
    const ws = await registerWorkspace(strict.baseUrl);
    const op = { 'x-operator-key': operator };
    const refused = [
      'http://hub.example.org/?/internal/reset',
      'http://hub.example.org/#x',
      'http://user:pass@hub.example.org/',
      'http://hub.example.org/some/prefix',
      'ftp://hub.example.org/',
      'file:///etc/passwd',
      'http://127.0.0.1:9/',
      'http://localhost:5432/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/',
      'http://[fe80::1]/',
      'http://0.0.0.0:22/',
      'http://224.0.0.1/',
      ...(ownAddress ? [`http://${ownAddress}:8080/`] : []),
    ];
    for (const url of refused) {
      const r = await api(strict.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(url), op);
      expect([r.status, r.body.code], url).toEqual([400, 'HUB_URL_REFUSED']);
      expect(r.body.errors?.[0]?.path, url).toBe('hubUrl');
    }
    expect((await api(strict.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody('http://127.0.0.1:9/'), op)).body.detail).toMatch(/loopback.*CBT_HUB_ALLOW_LOCAL=1/);
    expect((await api(strict.baseUrl, ws.apiKey).get('/hub-link')).body.enrolled).toBe(false);
  });
});

describe('with CBT_HUB_ALLOW_LOCAL=1 (a hub on this machine)', () => {
  let hall: TestServer;
  let operator: string;
  const dataDir = tempDir('hallcbt-hubrm-');
  beforeAll(async () => {
    hall = await startTestServer({ dataDir, config: { CBT_HUB_ALLOW_LOCAL: '1' } });
    operator = rotateOperatorCredential(dataDir);
  });
  afterAll(async () => hall?.close());

  it('answers the same for a closed port and a port where something else listens', async () => {
    const ws = await registerWorkspace(hall.baseUrl);
    const other: Server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>nginx</h1>'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    try {
      const closed = await api(hall.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(`http://127.0.0.1:${await freePort()}`), { 'x-operator-key': operator });
      const open = await api(hall.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(`http://127.0.0.1:${(other.address() as AddressInfo).port}`), { 'x-operator-key': operator });
      expect(closed.status).toBe(502);
      expect(open.status).toBe(502);
      const strip = (b: { detail: string }) => b.detail.replace(/127\.0\.0\.1:\d+/g, 'HOST');
      expect(strip(open.body)).toBe(strip(closed.body));
      expect(Object.keys(open.body).sort()).toEqual(Object.keys(closed.body).sort());
      expect(JSON.stringify(open.body)).not.toMatch(/ECONNREFUSED|404|nginx|HTTP/);
    } finally {
      other.close();
    }
  });

  it('checks the address again at every request, after DNS: a stored loopback hub is not called once the allowance is off', async () => {
    const hub = await startFakeHub({ reply: 'empty-list' });
    const dir = tempDir('hallcbt-hubdns-');
    let local = await startTestServer({ dataDir: dir, config: { CBT_HUB_ALLOW_LOCAL: '1' } });
    try {
      const ws = await registerWorkspace(local.baseUrl);
      const byName = hub.url.replace('127.0.0.1', 'localhost'); // a name, resolved at each request
      expect((await api(local.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(byName), { 'x-operator-key': rotateOperatorCredential(dir) })).status).toBe(200);
      expect((await api(local.baseUrl, ws.apiKey).post('/hub-link/sync', {})).body.error).toBeNull();
      const seen = hub.requests.length;
      await local.close();
      local = await startTestServer({ dataDir: dir, config: { CBT_HUB_ALLOW_LOCAL: '0' } });
      const again = await api(local.baseUrl, ws.apiKey).post("/hub-link/sync", {});
      expect(again.body.error, JSON.stringify(again.body)).toMatch(/unreachable or answered badly/);
      expect(hub.requests.length).toBe(seen);
    } finally {
      await local.close();
      await hub.close();
    }
  });

  it('a hub that never answers is cut off at the time limit, recorded, and backed off', async () => {
    const hub = await startFakeHub({ reply: 'empty-list' });
    try {
      const ws = await registerWorkspace(hall.baseUrl);
      expect((await api(hall.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(hub.url), { 'x-operator-key': operator })).status).toBe(200);
      hub.reply = 'hang';
      const started = Date.now();
      const sync = await api(hall.baseUrl, ws.apiKey).post('/hub-link/sync', {});
      const took = Date.now() - started;
      expect(sync.body.error).toMatch(/unreachable or answered badly/);
      expect(took).toBeGreaterThanOrEqual(HUB_TIMEOUT_MS - 500);
      expect(took).toBeLessThan(HUB_TIMEOUT_MS + 5000);
      await expect.poll(() => hub.requests[0]!.closedAt, { timeout: 2000 }).not.toBeNull(); // the hall hung up
      const link = (await api(hall.baseUrl, ws.apiKey).get('/hub-link')).body;
      expect(link.failures).toBe(1);
      expect(Date.parse(link.nextSyncAt) - Date.now()).toBeGreaterThan(20_000);
      expect((await api(hall.baseUrl, ws.apiKey).del('/hub-link', { 'x-operator-key': operator })).status).toBe(204);
    } finally {
      await hub.close();
    }
  }, 40_000);

  it('DELETE /hub-link removes the link (operator, audited), stops an in-flight poll at once, and stays removed after a restart', async () => {
    const hub = await startFakeHub({ reply: 'hang' });
    try {
      const ws = await registerWorkspace(hall.baseUrl);
      const op = { 'x-operator-key': operator };
      const enrolled = await api(hall.baseUrl, ws.apiKey).post('/hub-link/enrol', enrolBody(hub.url), op);
      expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
      // a sync that the hub never answers
      const syncing = api(hall.baseUrl, ws.apiKey).post('/hub-link/sync', {});
      await expect.poll(() => hub.requests.length, { timeout: 5000 }).toBe(1);
      const removed = await api(hall.baseUrl, ws.apiKey).del('/hub-link', op);
      expect(removed.status, JSON.stringify(removed.body)).toBe(204);
      await expect.poll(() => hub.requests[0]!.closedAt, { timeout: 2000 }).not.toBeNull(); // the hall hung up at once
      expect((await syncing).body.error).not.toBeNull();
      expect((await api(hall.baseUrl, ws.apiKey).get('/hub-link')).body.enrolled).toBe(false);
      const audit = hall.deps.sqlite.prepare("SELECT action FROM audit_log WHERE workspace_id = ? AND action = 'HUB_LINK_REMOVED'").all(ws.id);
      expect(audit).toHaveLength(1);
      expect((await api(hall.baseUrl, ws.apiKey).del('/hub-link', op)).status).toBe(404);

      // the scheduled job no longer polls it, before or after a restart
      const seen = hub.requests.length;
      await hall.close();
      hall = await startTestServer({ dataDir, config: { CBT_HUB_ALLOW_LOCAL: '1' } });
      expect((await api(hall.baseUrl, ws.apiKey).get('/hub-link')).body.enrolled).toBe(false);
      const { hubSyncRun } = await import('../../src/modules/hub-link/sync.js');
      await hubSyncRun(hall.deps); // what the 15-second job runs
      expect(hub.requests.length).toBe(seen);
    } finally {
      await hub.close();
    }
  });
});
