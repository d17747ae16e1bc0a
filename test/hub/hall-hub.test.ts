/**
 * Issue #24 end to end: a real hub (PostgreSQL) and two real hall servers (child processes,
 * SQLite) on loopback. Both halls enrol, one exam is published to both; before release
 * neither hall's data folder holds any question text; one hall is released by a typed
 * release code (after a wrong one is refused and audited), the other online by the hub;
 * candidates sit the paper in both; a hall is killed with SIGKILL after the hub stored a
 * result but before the hall heard so, and after its restart every result is on the hub
 * exactly once. A tampered package, another hall's package and a wrong code change nothing.
 * An exam edited after publication reaches a hall as newer versions: only the newest opens,
 * and a version that arrives after a typed release is kept out while the hub stops edits.
 */
import { serve } from '@hono/node-server';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { systemClock } from '../../src/platform/clock.js';
import { api, registerWorkspace, spawnServer, startAttempt, tempDir, type SpawnedServer } from '../harness.js';
import { pgAvailability, startPgCluster, type PgCluster } from '../pg/cluster.js';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { asExaminer, samplePaper, startHub } from './helpers.js';

/** The hub and its relay listen on loopback, which a hall refuses as a hub address unless allowed. */
const HUB_ON_LOOPBACK = { CBT_HUB_ALLOW_LOCAL: '1' };

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

/** Every file below `dir`, as bytes (the SQLite file, its WAL, keys, backups). */
function folderBytes(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) parts.push(folderBytes(p));
    else parts.push(readFileSync(p));
  }
  return Buffer.concat(parts);
}

describe.skipIf(skipWhy !== null)('halls and a hub', () => {
  let cluster: PgCluster;
  let hub: Awaited<ReturnType<typeof startHub>>;
  let hubServer: Server;
  let hubUrl: string;
  let proxy: Server;
  let proxyUrl: string;
  /** when set, the proxy kills this hall after the hub answered the Nth result it relays */
  let killAfterResult: { n: number; hall: () => SpawnedServer } | null = null;
  let relayedResults = 0;
  const halls: SpawnedServer[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster();
    hub = await startHub(cluster, { clock: systemClock as never });
    hubServer = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: hub.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
    });
    hubUrl = `http://127.0.0.1:${(hubServer.address() as AddressInfo).port}`;
    // a plain relay in front of the hub (what a flaky uplink looks like to the hall)
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const up = httpRequest(`${hubUrl}${req.url}`, { method: req.method, headers: req.headers }, (upRes) => {
          const body: Buffer[] = [];
          upRes.on('data', (c) => body.push(c));
          upRes.on('end', () => {
            if (req.url?.startsWith('/hub/v1/results') && killAfterResult && ++relayedResults === killAfterResult.n) {
              // the hub has stored it; the hall dies before it hears so
              killAfterResult.hall().proc.kill('SIGKILL');
              killAfterResult = null;
              res.destroy();
              return;
            }
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            res.end(Buffer.concat(body));
          });
        });
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    for (const h of halls) await h.kill().catch(() => undefined);
    proxy?.close();
    hubServer?.close();
    await hub?.close();
    await cluster?.stop();
  });

  it('publishes sealed, releases two ways, and gathers every result exactly once across a SIGKILL', async () => {
    const key = hub.firstExaminer!.apiKey;
    const hallA = await spawnServer({ dataDir: tempDir('hallcbt-hallA-'), env: HUB_ON_LOOPBACK });
    const hallB = await spawnServer({ dataDir: tempDir('hallcbt-hallB-'), env: HUB_ON_LOOPBACK });
    halls.push(hallA, hallB);
    const wsA = await registerWorkspace(hallA.baseUrl);
    const wsB = await registerWorkspace(hallB.baseUrl);

    // enrolment with one-time codes shown on the hub
    const enrol = async (hall: SpawnedServer, ws: { apiKey: string }, name: string) => {
      const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name });
      const r = await api(hall.baseUrl, ws.apiKey).post('/hub-link/enrol', { hubUrl: proxyUrl, enrolmentCode: created.json.enrolmentCode, hallName: name }, { 'x-operator-key': rotateOperatorCredential(hall.dataDir) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ enrolled: true, hallId: created.json.id });
      return created.json.id as string;
    };
    const hallIdA = await enrol(hallA, wsA, 'Lagos centre');
    const hallIdB = await enrol(hallB, wsB, 'Kano centre');

    // one exam (started a minute ago, open for two hours), published to both halls; two
    // candidates sit at each (a candidate sits a paper once: issue 38, item 1)
    const paper = {
      ...samplePaper(new Date(Date.now() - 60_000).toISOString()),
      endsAt: new Date(Date.now() + 2 * 3600_000).toISOString(),
      roster: [
        { studentId: 'BRD-001', candidateName: 'Ada Obi', pin: '2468', hallId: hallIdA },
        { studentId: 'BRD-002', candidateName: 'Bola Ade', hallId: hallIdA },
        { studentId: 'BRD-003', candidateName: 'Chidi Eze', hallId: hallIdB },
        { studentId: 'BRD-004', candidateName: 'Musa Bello', hallId: hallIdB },
      ],
    };
    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', paper);
    expect(exam.status).toBe(201);
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [hallIdA, hallIdB] });
    const pkgA = pub.json.packages.find((p: { hallId: string }) => p.hallId === hallIdA);
    const pkgB = pub.json.packages.find((p: { hallId: string }) => p.hallId === hallIdB);

    // both halls load their package from the hub's USB file
    const fileOf = async (packageId: string) => JSON.parse((await asExaminer(hub, key, 'GET', `/hub/v1/package-files/${packageId}`)).text);
    const fileA = await fileOf(pkgA.packageId);
    const fileB = await fileOf(pkgB.packageId);
    // refused, and nothing stored: another hall's package, a tampered one
    expect((await api(hallA.baseUrl, wsA.apiKey).post('/hub-link/packages', fileB)).status).toBe(422);
    expect((await api(hallA.baseUrl, wsA.apiKey).post('/hub-link/packages', { ...fileA, payload: fileA.payload.replace('"version":1', '"version":2') })).status).toBe(422);
    expect((await api(hallA.baseUrl, wsA.apiKey).get('/hub-link/packages')).body).toEqual([]);
    expect((await api(hallA.baseUrl, wsA.apiKey).post('/hub-link/packages', fileA)).status).toBe(201);
    expect((await api(hallB.baseUrl, wsB.apiKey).post('/hub-link/packages', fileB)).status).toBe(201);
    const sealed = await api(hallA.baseUrl, wsA.apiKey).get('/hub-link/packages');
    expect(sealed.body[0]).toMatchObject({ packageId: pkgA.packageId, state: 'SEALED', title: 'Board Mathematics mock', examId: null });

    // nothing readable about the questions anywhere in either hall's data folder
    for (const hall of [hallA, hallB]) {
      const bytes = folderBytes(hall.dataDir);
      for (const needle of ['interior angles', 'prime number', 'square root', '180 degrees', 'BRD-001']) expect(bytes.includes(Buffer.from(needle)), `${needle} in ${hall.dataDir}`).toBe(false);
    }

    // hall A: the invigilator types the code; a wrong one is refused and audited, nothing opens
    const wrong = await api(hallA.baseUrl, wsA.apiKey).post(`/hub-link/packages/${pkgA.packageId}/release`, { releaseCode: pkgB.releaseCode });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('RELEASE_CODE_WRONG');
    const typo = await api(hallA.baseUrl, wsA.apiKey).post(`/hub-link/packages/${pkgA.packageId}/release`, { releaseCode: pkgA.releaseCode.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A')) });
    expect(typo.status).toBe(422);
    expect(typo.body.detail).toMatch(/check character/);
    const relA = await api(hallA.baseUrl, wsA.apiKey).post(`/hub-link/packages/${pkgA.packageId}/release`, { releaseCode: pkgA.releaseCode.toLowerCase().replace(/-/g, ' ') });
    expect(relA.status, JSON.stringify(relA.body)).toBe(200);
    expect(relA.body).toMatchObject({ state: 'RELEASED', releasedBy: 'code' });
    const audit = await api(hallA.baseUrl, wsA.apiKey).get("/workspaces/me/audit?limit=50");
    expect(JSON.stringify(audit.body)).toContain('HUB_RELEASE_CODE_WRONG');

    // hall B: released online by the hub at its next sync
    const syncB = await api(hallB.baseUrl, wsB.apiKey).post('/hub-link/sync', {});
    expect(syncB.body).toMatchObject({ released: [pkgB.packageId], error: null });

    // candidates sit the paper in both halls (roster and PINs came with it)
    const sit = async (hall: SpawnedServer, ws: { apiKey: string }, examId: string, studentId: string, pin: string, correct: boolean) => {
      const e = await api(hall.baseUrl, ws.apiKey).get(`/exams/${examId}`);
      const { attemptId, questions } = await startAttempt(hall.baseUrl, e.body.accessCode, studentId, pin);
      let seq = 0;
      for (const q of questions) {
        const body = q.options.length ? { optionId: (correct ? q.options.find((o) => /180|True/.test(o.text))! : q.options[q.options.length - 1]!).id, seq: ++seq } : { text: 'Suppose root two were p over q in lowest terms; then p and q are both even.', seq: ++seq };
        expect((await api(hall.baseUrl).put(`/attempts/${attemptId}/answers/${q.id}`, body)).status).toBe(200);
      }
      const sub = await api(hall.baseUrl).post(`/attempts/${attemptId}/submit`, {});
      expect(sub.status).toBe(200);
      return attemptId as string;
    };
    const examA = relA.body.examId as string;
    const examB = (await api(hallB.baseUrl, wsB.apiKey).get('/hub-link/packages')).body[0].examId as string;
    const roster = exam.json.roster as { studentId: string; pin: string }[];
    await sit(hallA, wsA, examA, roster[0]!.studentId, roster[0]!.pin, true);
    await sit(hallA, wsA, examA, roster[1]!.studentId, roster[1]!.pin, false);
    await sit(hallB, wsB, examB, roster[2]!.studentId, roster[2]!.pin, true);
    await sit(hallB, wsB, examB, roster[3]!.studentId, roster[3]!.pin, true);

    // hall A sends up normally
    expect((await api(hallA.baseUrl, wsA.apiKey).post('/hub-link/sync', {})).body.resultsDelivered).toBe(2);

    // hall B dies right after the hub stored its first result, before it heard so
    relayedResults = 0;
    killAfterResult = { n: 1, hall: () => hallB };
    await api(hallB.baseUrl, wsB.apiKey).post('/hub-link/sync', {}).catch(() => undefined);
    await new Promise((r) => hallB.proc.exitCode !== null || hallB.proc.signalCode !== null ? r(undefined) : hallB.proc.once('exit', r));
    const hallB2 = await spawnServer({ dataDir: hallB.dataDir, env: HUB_ON_LOOPBACK });
    halls.push(hallB2);
    const after = await api(hallB2.baseUrl, wsB.apiKey).post('/hub-link/sync', {});
    expect(after.status).toBe(200);
    expect(after.body.resultsDelivered).toBe(2); // the first is sent again, the hub counts it once
    expect((await api(hallB2.baseUrl, wsB.apiKey).get('/hub-link')).body.results).toEqual({ pending: 0, delivered: 2, failed: 0 });

    // the hub has every result exactly once, per hall and per candidate
    const stored = await hub.deps.db.execute(sql`select count(*)::int as n, count(distinct event_id)::int as d from hub_results`);
    expect(stored.rows[0]).toEqual({ n: 4, d: 4 });
    const results = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.json.id}/results`);
    expect(results.json.candidates).toHaveLength(4);
    expect(results.json.halls.map((h: { hallName: string; results: number }) => [h.hallName, h.results]).sort()).toEqual([
      ['Kano centre', 2],
      ['Lagos centre', 2],
    ]);
    const byHall = (name: string, sid: string) => results.json.candidates.find((c: { hallName: string; studentId: string }) => c.hallName === name && c.studentId === sid);
    expect(byHall('Lagos centre', roster[0]!.studentId)).toMatchObject({ score: 2, maxScore: 6, pendingReview: true });
    expect(byHall('Lagos centre', roster[1]!.studentId)).toMatchObject({ score: 0 });
    const status = await asExaminer(hub, key, 'GET', '/hub/v1/halls');
    expect(status.json.find((h: { id: string }) => h.id === hallIdB)).toMatchObject({ examsReleased: 1, resultsReceived: 2, resultsExpected: 2, clockFlagged: false });
  }, 180_000);

  it('a republish after an edit reaches a real hall: the newest version is released; one after a typed release is kept out', async () => {
    const key = hub.firstExaminer!.apiKey;
    const hall = await spawnServer({ dataDir: tempDir('hallcbt-hallC-'), env: HUB_ON_LOOPBACK });
    halls.push(hall);
    const ws = await registerWorkspace(hall.baseUrl);
    const hallApi = api(hall.baseUrl, ws.apiKey);
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Ibadan centre' });
    expect((await hallApi.post('/hub-link/enrol', { hubUrl, enrolmentCode: created.json.enrolmentCode, hallName: 'Ibadan centre' }, { 'x-operator-key': rotateOperatorCredential(hall.dataDir) })).status).toBe(200);
    const hallId = created.json.id as string;

    // published (version 1) and fetched by the hall while still editable (30 minutes ahead)
    const paper = { ...samplePaper(new Date(Date.now() + 30 * 60_000).toISOString()), endsAt: new Date(Date.now() + 3 * 3600_000).toISOString() };
    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', paper);
    const v1 = (await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [hallId] })).json.packages[0];
    expect((await hallApi.post('/hub-link/sync', {})).body).toMatchObject({ received: [v1.packageId], error: null });

    // the examiner corrects a question and republishes to the same halls
    const q0 = exam.json.questions[0];
    const edited = await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${exam.json.id}/questions/${q0.id}`, { prompt: 'What is the sum of the interior angles of a quadrilateral?', options: [{ id: q0.options[0].id, text: '360 degrees', isCorrect: true }, { text: '180 degrees' }, { text: '540 degrees' }] });
    expect(edited.json.examVersion).toBe(2);
    const v2 = (await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, {})).json.packages[0];
    expect(v2).toMatchObject({ hallId, version: 2, releaseCode: v1.releaseCode });
    // and once more before the hall next syncs: it then gets versions 3 and 2, newest first
    const q1 = exam.json.questions[1];
    expect((await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${exam.json.id}/questions/${q1.id}`, { prompt: 'Is 19 a prime number?' })).json.examVersion).toBe(3);
    const v3 = (await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, {})).json.packages[0];
    expect(v3).toMatchObject({ hallId, version: 3, releaseCode: v1.releaseCode });
    expect((await hallApi.post('/hub-link/sync', {})).body).toMatchObject({ received: [v3.packageId, v2.packageId], error: null });
    const states = async () => ((await hallApi.get('/hub-link/packages')).body as { version: number; state: string }[]).map((p) => [p.version, p.state]).sort();
    expect(await states()).toEqual([[1, 'SUPERSEDED'], [2, 'SUPERSEDED'], [3, 'SEALED']]);
    for (const needle of ['interior angles', 'quadrilateral', 'Is 19 a prime', 'BRD-001']) expect(folderBytes(hall.dataDir).includes(Buffer.from(needle)), needle).toBe(false);

    // a superseded version cannot be opened, even with the right code; the newest can
    for (const p of [v1, v2]) {
      const old = await hallApi.post(`/hub-link/packages/${p.packageId}/release`, { releaseCode: p.releaseCode });
      expect(old.status).toBe(409);
      expect(old.body.code).toBe('PACKAGE_SUPERSEDED');
    }
    const rel = await hallApi.post(`/hub-link/packages/${v3.packageId}/release`, { releaseCode: v3.releaseCode });
    expect(rel.status, JSON.stringify(rel.body)).toBe(200);
    const hallExam = await hallApi.get(`/exams/${rel.body.examId}`);
    expect(hallExam.body.questions.map((q: { id: string; prompt: string }) => [q.id, q.prompt])).toEqual([
      [q0.id, 'What is the sum of the interior angles of a quadrilateral?'],
      [q1.id, 'Is 19 a prime number?'],
      [exam.json.questions[2].id, 'Explain why the square root of two is irrational.'],
    ]);
    expect(hallExam.body.questions[0].options[0]).toMatchObject({ id: q0.options[0].id, text: '360 degrees', isCorrect: true });

    // released by typed code before the hub heard of it: a later edit still goes out (version 4),
    // the hall keeps it out, and its heartbeat tells the hub, which then refuses edits
    const late = await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${exam.json.id}/questions/${q0.id}`, { prompt: 'A third wording' });
    expect(late.json.examVersion).toBe(4);
    const v4 = (await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, {})).json.packages[0];
    expect((await hallApi.post('/hub-link/sync', {})).body).toMatchObject({ received: [v4.packageId], error: null });
    expect(await states()).toEqual([[1, 'SUPERSEDED'], [2, 'SUPERSEDED'], [3, 'RELEASED'], [4, 'TOO_LATE']]);
    expect((await hallApi.post(`/hub-link/packages/${v4.packageId}/release`, { releaseCode: v4.releaseCode })).body.code).toBe('PACKAGE_TOO_LATE');
    expect((await hallApi.get(`/exams/${rel.body.examId}`)).body.questions[0].prompt).toBe('What is the sum of the interior angles of a quadrilateral?');
    const refused = await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${exam.json.id}/questions/${q0.id}`, { prompt: 'A fourth wording' });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'PAPER_RELEASED', halls: [hallId] });
    const status = (await asExaminer(hub, key, 'GET', '/hub/v1/halls')).json.find((h: { id: string }) => h.id === hallId);
    expect(status.packagesReported.map((p: { version: number; state: string }) => [p.version, p.state]).sort()).toEqual([[1, 'SUPERSEDED'], [2, 'SUPERSEDED'], [3, 'RELEASED'], [4, 'TOO_LATE']]);
  }, 180_000);
});

describe('the hub address a hall enrols with', () => {
  it('may not be link-local (cloud metadata), unspecified or multicast, by name or by number', async () => {
    const { assertHubAddress } = await import('../../src/modules/hub-link/link.js');
    for (const url of ['http://169.254.169.254/latest', 'http://[fe80::1]/', 'http://0.0.0.0:8090/', 'http://224.0.0.1/', 'ftp://hub.example.org/']) {
      await expect(assertHubAddress(url), url).rejects.toMatchObject({ status: 400 });
    }
    // loopback only with CBT_HUB_ALLOW_LOCAL=1 (issue #34, finding 1); a LAN hub is fine
    await expect(assertHubAddress('http://127.0.0.1:8090/')).rejects.toMatchObject({ status: 400 });
    await expect(assertHubAddress('http://127.0.0.1:8090/', true)).resolves.toBe('http://127.0.0.1:8090');
    await expect(assertHubAddress('http://192.168.1.20:8090/')).resolves.toBe('http://192.168.1.20:8090');
  });
});
