/**
 * Batched results (issue #24's benchmark target, docs/hub-protocol.md "Results up"): a hall
 * sends up to 500 result events in one signed request, stored by the hub in one statement.
 * On a real PostgreSQL: a batch is stored once per event id (duplicates inside a batch and
 * across batches reported, not re-applied); another hall's package is refused per event
 * with an audit row while the rest is stored; a malformed batch is refused whole (400) and a
 * tampered or replayed one (401), each with nothing stored. Then a real hall server's outbox
 * delivers 1,200 results in batches across a hub restart, every one stored exactly once,
 * and a batch the hub refuses whole goes again one event at a time, so only the bad one fails.
 */
import { serve } from '@hono/node-server';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ResultEvent } from '../../src/core/sync/messages.js';
import { systemClock } from '../../src/platform/clock.js';
import { api, registerWorkspace, spawnServer, tempDir, type SpawnedServer } from '../harness.js';
import { pgAvailability, startPgCluster, type PgCluster } from '../pg/cluster.js';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { TestHall, asExaminer, completedResult, hubForSuite, samplePaper, startHub, type AnsweredExam } from './helpers.js';

// Skipped only where PostgreSQL cannot run (no Debian postgresql binaries, or initdb cannot
// run as the postgres user): pgAvailability() says why, in one line; .ci/run installs it.
const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

type Hub = Awaited<ReturnType<typeof startHub>>;

/**
 * A result event of `packageId` with the exam's questions answered (first option each: both
 * objective ones right, the essay awaiting review), started a second before `createdAt`, with
 * the figures the hub computes (it stores its own: issue #34, finding 7).
 */
function resultEvent(exam: AnsweredExam, packageId: string, eventId: string, attemptId: string, createdAt = '2026-11-25T09:20:00.000Z'): ResultEvent {
  return completedResult(exam, { packageId, eventId, createdAt }, { attemptId, studentId: 'BRD-001', candidateName: 'Ada Obi', startedAt: new Date(Date.parse(createdAt) - 1000).toISOString() });
}

async function count(hub: Hub, query: ReturnType<typeof sql>): Promise<number> {
  return ((await hub.deps.db.execute(query)).rows[0] as { n: number }).n;
}

describe.skipIf(skipWhy !== null)('result batches on the hub', () => {
  let hub: Hub;
  let key: string;

  hubForSuite((started) => {
    ({ hub, key } = started);
    // the hub refuses results dated in its future: its clock is past the events' 09:20
    hub.clock.set(Date.parse('2026-11-25T09:30:00Z'));
  });

  async function hallWithPackage(name: string) {
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name });
    const hall = new TestHall(hub);
    expect(await hall.enrol(created.json.enrolmentCode)).toBe(200);
    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', samplePaper('2026-11-25T09:00:00.000Z'));
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [hall.hallId] });
    return { hall, exam: exam.json as { id: string; questions: { id: string; options: { id: string }[] }[] }, packageId: pub.json.packages[0].packageId as string };
  }

  it('stores a batch once per event id: duplicates inside a batch and across batches are reported, not re-applied', async () => {
    const { hall, exam, packageId } = await hallWithPackage('Abuja centre');
    const ev = (n: number) => resultEvent(exam, packageId, `evt_abj_${n}`, `att_abj_${n}`);
    const first = await hall.request('POST', '/hub/v1/results/batch', { events: [ev(1), ev(2), ev(1), ev(3)] });
    expect(first.status).toBe(200);
    expect(first.json.results).toEqual([
      { eventId: 'evt_abj_1', status: 'stored' },
      { eventId: 'evt_abj_2', status: 'stored' },
      { eventId: 'evt_abj_1', status: 'duplicate' },
      { eventId: 'evt_abj_3', status: 'stored' },
    ]);
    // the hall did not hear the answer and sends again, with one new event
    const again = await hall.request('POST', '/hub/v1/results/batch', { events: [ev(2), ev(3), ev(4)] });
    expect(again.json.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'duplicate', 'stored']);
    // the single-event route sees the same store
    expect((await hall.request('POST', '/hub/v1/results', ev(4))).json).toEqual({ duplicate: true });
    expect(await count(hub, sql`select count(*)::int as n from hub_results where hall_id = ${hall.hallId}`)).toBe(4);
    const stored = await hub.deps.db.execute(sql`select attempt_id, student_id, score, max_score, grade, status, body->'attempt'->'answers'->0->>'questionId' as q from hub_results where event_id = 'evt_abj_3'`);
    expect(stored.rows[0]).toEqual({ attempt_id: 'att_abj_3', student_id: 'BRD-001', score: 2, max_score: 6, grade: 'F9', status: 'COMPLETED', q: exam.questions[0]!.id });
    const results = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results`);
    expect(results.json.candidates).toHaveLength(4);
  });

  it('refuses an event of another hall’s package on its own (audited) and stores the rest of the batch', async () => {
    const a = await hallWithPackage('Ilorin centre');
    const b = await hallWithPackage('Akure centre');
    const before = await count(hub, sql`select count(*)::int as n from hub_audit where action = 'result-refused'`);
    const res = await a.hall.request('POST', '/hub/v1/results/batch', {
      events: [resultEvent(a.exam, a.packageId, 'evt_ilr_1', 'att_ilr_1'), resultEvent(b.exam, b.packageId, 'evt_ilr_2', 'att_ilr_2'), resultEvent(a.exam, a.packageId, 'evt_ilr_3', 'att_ilr_3')],
    });
    expect(res.status).toBe(200);
    expect(res.json.results[0]).toEqual({ eventId: 'evt_ilr_1', status: 'stored' });
    expect(res.json.results[1]).toMatchObject({ eventId: 'evt_ilr_2', status: 'refused', error: expect.stringMatching(/not this hall/) });
    expect(res.json.results[2]).toEqual({ eventId: 'evt_ilr_3', status: 'stored' });
    expect(await count(hub, sql`select count(*)::int as n from hub_results where event_id like 'evt_ilr_%'`)).toBe(2);
    expect(await count(hub, sql`select count(*)::int as n from hub_audit where action = 'result-refused' and hall_id = ${a.hall.hallId} and detail->>'eventId' = 'evt_ilr_2'`)).toBe(1);
    expect(await count(hub, sql`select count(*)::int as n from hub_audit where action = 'result-refused'`)).toBe(before + 1);
  });

  it('refuses a malformed, oversized, tampered or replayed batch whole, storing nothing', async () => {
    const { hall, exam, packageId } = await hallWithPackage('Owerri centre');
    const ev = (n: number) => resultEvent(exam, packageId, `evt_owr_${n}`, `att_owr_${n}`);
    const stored = () => count(hub, sql`select count(*)::int as n from hub_results where hall_id = ${hall.hallId}`);

    // one bad event (no attemptId) refuses the batch with a 400 problem naming it
    const bad = { ...ev(2), attempt: { ...ev(2).attempt, attemptId: '' } };
    const malformed = await hall.request('POST', '/hub/v1/results/batch', { events: [ev(1), bad, ev(3)] });
    expect(malformed.status).toBe(400);
    expect(malformed.json.type).toMatch(/validation/);
    expect(JSON.stringify(malformed.json.errors)).toContain('events.1.attempt.attemptId');
    expect((await hall.request('POST', '/hub/v1/results/batch', { events: [] })).status).toBe(400);
    expect((await hall.request('POST', '/hub/v1/results/batch', { events: Array.from({ length: 501 }, (_, i) => ev(100 + i)) })).status).toBe(400);
    expect(await stored()).toBe(0);

    // signed, then altered on the way (a score raised): the signature covers the body bytes
    const refusedBefore = await count(hub, sql`select count(*)::int as n from hub_audit where action = 'hall-request-refused' and hall_id = ${hall.hallId}`);
    const body = JSON.stringify({ events: [ev(1), ev(2)] });
    const headers = { ...hall.headers('POST', '/hub/v1/results/batch', body), 'content-type': 'application/json' };
    const tampered = await hub.app.request('/hub/v1/results/batch', { method: 'POST', headers, body: body.replace('"score":2', '"score":6') });
    expect(tampered.status).toBe(401);
    expect(tampered.headers.get('content-type')).toContain('application/problem+json');
    expect(((await tampered.json()) as { code: string }).code).toBe('HALL_SIGNATURE');
    expect(await stored()).toBe(0);

    // the genuine request goes through once; the same bytes again are a replay
    const ok = await hub.app.request('/hub/v1/results/batch', { method: 'POST', headers, body });
    expect(ok.status).toBe(200);
    const replay = await hub.app.request('/hub/v1/results/batch', { method: 'POST', headers, body });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { code: string }).code).toBe('HALL_REPLAY');
    expect(await stored()).toBe(2);
    expect(await count(hub, sql`select count(*)::int as n from hub_audit where action = 'hall-request-refused' and hall_id = ${hall.hallId}`)).toBe(refusedBefore + 2);
  });

  it('is in the hub’s OpenAPI document', async () => {
    const doc = (await (await hub.app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/hub/v1/results', '/hub/v1/results/batch']));
  });
});

describe.skipIf(skipWhy !== null)('a hall’s outbox sending results in batches', () => {
  let cluster: PgCluster;
  let url: string;
  let dataDir: string;
  let hub: Hub | null = null;
  let hubServer: Server | null = null;
  let hubPort = 0;
  let proxy: Server;
  let proxyUrl: string;
  /** paths and event counts of the result requests the hall made, as relayed */
  const relayed: { path: string; events: number; status: number }[] = [];
  /** when set, the proxy stops the hub after it answered this many result requests (the hall hears nothing) */
  let stopHubAfter: number | null = null;
  let hall: SpawnedServer | null = null;

  async function startHubServer() {
    hub = await startHub(cluster, { url, dataDir, clock: systemClock as never });
    hubServer = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: hub!.app.fetch, port: hubPort, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
    });
    hubPort = (hubServer.address() as AddressInfo).port;
  }
  async function stopHubServer() {
    const s = hubServer;
    const h = hub;
    hubServer = null;
    hub = null;
    s?.closeAllConnections?.();
    await new Promise((r) => s?.close(r));
    await h?.close();
  }

  beforeAll(async () => {
    cluster = await startPgCluster();
    url = cluster.createDatabase('hub_outbox_batches');
    dataDir = tempDir('hallcbt-hub-');
    await startHubServer();
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (!hubServer) return res.destroy(); // the hub is down: connection dropped
        const up = httpRequest(`http://127.0.0.1:${hubPort}${req.url}`, { method: req.method, headers: req.headers }, (upRes) => {
          const out: Buffer[] = [];
          upRes.on('data', (c) => out.push(c));
          upRes.on('end', () => {
            if (req.url?.startsWith('/hub/v1/results')) {
              relayed.push({ path: req.url, events: req.url.endsWith('/batch') ? (JSON.parse(body.toString()) as { events: unknown[] }).events.length : 1, status: upRes.statusCode ?? 0 });
              if (stopHubAfter !== null && relayed.length === stopHubAfter) {
                // the hub stored this batch and goes down before the hall hears so
                stopHubAfter = null;
                res.destroy();
                void stopHubServer();
                return;
              }
            }
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            res.end(Buffer.concat(out));
          });
        });
        up.on('error', () => res.destroy());
        up.end(body);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await hall?.kill().catch(() => undefined);
    proxy?.close();
    await stopHubServer();
    await cluster?.stop();
  });

  it('delivers 1,200 results in batches of at most 500 across a hub restart, each stored once; a bad row fails alone', async () => {
    const key = hub!.firstExaminer!.apiKey;
    hall = await spawnServer({ dataDir: tempDir('hallcbt-hallC-'), env: { CBT_HUB_ALLOW_LOCAL: '1' } });
    const ws = await registerWorkspace(hall.baseUrl);
    const created = await asExaminer(hub!, key, 'POST', '/hub/v1/halls', { name: 'Benin centre' });
    const enrolled = await api(hall.baseUrl, ws.apiKey).post('/hub-link/enrol', { hubUrl: proxyUrl, enrolmentCode: created.json.enrolmentCode, hallName: 'Benin centre' }, { 'x-operator-key': rotateOperatorCredential(hall.dataDir) });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    const exam = await asExaminer(hub!, key, 'POST', '/hub/v1/exams', samplePaper(new Date(Date.now() - 60_000).toISOString()));
    const pub = await asExaminer(hub!, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [created.json.id] });
    const packageId = pub.json.packages[0].packageId as string;

    // 1,200 finished attempts waiting in the hall's outbox (written as the hall writes them:
    // one ResultEvent body per row, in created order), straight into its SQLite file
    const db = new Database(join(hall.dataDir, 'hallcbt.sqlite'));
    db.pragma('busy_timeout = 5000');
    const t0 = Date.now() - 60_000;
    const insert = db.prepare("INSERT INTO hub_outbox (event_id, workspace_id, body, status, tries, next_attempt_at, created_at) VALUES (?,?,?,'PENDING',0,?,?)");
    db.transaction(() => {
      for (let i = 0; i < 1200; i++) {
        const id = `evt_bn_${String(i).padStart(4, '0')}`;
        insert.run(id, ws.id, JSON.stringify(resultEvent(exam.json, packageId, id, `att_bn_${i}`, new Date(t0 + i).toISOString())), t0 + i, t0 + i);
      }
    })();
    db.close();

    // the hub goes down right after it stored the second batch, before the hall hears so
    // (the hall's own 15-second sync job may be the one sending: the checks hold either way)
    stopHubAfter = 2;
    await api(hall.baseUrl, ws.apiKey).post('/hub-link/sync', {});
    for (let i = 0; i < 100 && hubServer; i++) await new Promise((r) => setTimeout(r, 100));
    expect(hubServer).toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect((await api(hall.baseUrl, ws.apiKey).get('/hub-link')).body.results).toEqual({ pending: 700, delivered: 500, failed: 0 });
    expect(relayed.map((r) => [r.path, r.events])).toEqual([
      ['/hub/v1/results/batch', 500],
      ['/hub/v1/results/batch', 500],
    ]);

    // the hub comes back (same database, same port); after the backoff (≤ 12 s) the hall sends again
    await startHubServer();
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      await api(hall.baseUrl, ws.apiKey).post('/hub-link/sync', {});
      if ((await api(hall.baseUrl, ws.apiKey).get('/hub-link')).body.results.pending === 0) break;
    }
    expect((await api(hall.baseUrl, ws.apiKey).get('/hub-link')).body.results).toEqual({ pending: 0, delivered: 1200, failed: 0 });
    // only batches, none above 500 events; the second batch came again (its 500 answered as duplicates)
    expect(relayed.every((r) => r.path === '/hub/v1/results/batch' && r.events <= 500)).toBe(true);
    expect(relayed.slice(2).map((r) => [r.events, r.status])).toEqual([
      [500, 200],
      [200, 200],
    ]);
    const stored = await hub!.deps.db.execute(sql`select count(*)::int as n, count(distinct event_id)::int as d, min(event_id) as lo, max(event_id) as hi from hub_results`);
    expect(stored.rows[0]).toEqual({ n: 1200, d: 1200, lo: 'evt_bn_0000', hi: 'evt_bn_1199' });

    // a row the hub's schema refuses makes its batch a 400: the hall sends that batch one by one,
    // so only the bad row fails and the two beside it are delivered
    const db2 = new Database(join(hall.dataDir, 'hallcbt.sqlite'));
    db2.pragma('busy_timeout = 5000');
    const t1 = Date.now() - 1_000;
    const at1 = new Date(t1).toISOString();
    const bad = resultEvent(exam.json, packageId, 'evt_bn_bad', 'att_bn_bad', at1);
    bad.attempt.attemptId = '';
    for (const [i, e] of [resultEvent(exam.json, packageId, 'evt_bn_x1', 'att_bn_x1', at1), bad, resultEvent(exam.json, packageId, 'evt_bn_x2', 'att_bn_x2', at1)].entries()) {
      db2.prepare("INSERT INTO hub_outbox (event_id, workspace_id, body, status, tries, next_attempt_at, created_at) VALUES (?,?,?,'PENDING',0,?,?)").run(e.eventId, ws.id, JSON.stringify(e), t1 + i, t1 + i);
    }
    db2.close();
    const seen = relayed.length;
    await api(hall.baseUrl, ws.apiKey).post('/hub-link/sync', {});
    expect((await api(hall.baseUrl, ws.apiKey).get('/hub-link')).body.results).toEqual({ pending: 0, delivered: 1202, failed: 1 });
    expect(relayed.slice(seen).map((r) => [r.path, r.events, r.status])).toEqual([
      ['/hub/v1/results/batch', 3, 400],
      ['/hub/v1/results', 1, 200],
      ['/hub/v1/results', 1, 400],
      ['/hub/v1/results', 1, 200],
    ]);
    expect(await count(hub!, sql`select count(*)::int as n from hub_results where event_id in ('evt_bn_x1', 'evt_bn_x2', 'evt_bn_bad')`)).toBe(2);
  }, 180_000);
});
