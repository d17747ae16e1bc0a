/**
 * Edits until release (issue 38, item 5; docs/hub.md, "Editing after publication"): a real
 * hub (PostgreSQL) and a real hall server (a child process, SQLite) on loopback, plus a hall
 * that never fetches (signed like a real one). An edit of a published exam — a question or
 * the exam's settings — re-seals the next version at once to every hall it was published
 * to, with no republish: the real hall's sync brings the newest version, which supersedes the
 * one it held, and released it has the edited question. The status view shows per hall and
 * exam which version was sent, fetched, held and released against the current one. Once the
 * hall has released, edits are refused (409 PAPER_RELEASED) and change nothing.
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { api, registerWorkspace, spawnServer, tempDir, type SpawnedServer } from '../harness.js';
import { pgAvailability, startPgCluster, type PgCluster } from '../pg/cluster.js';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { TestHall, asExaminer, samplePaper, startHub } from './helpers.js';

/** The hub listens on loopback, which a hall refuses as a hub address unless allowed. */
const HUB_ON_LOOPBACK = { CBT_HUB_ALLOW_LOCAL: '1' };

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('edits until release', () => {
  let cluster: PgCluster;
  let hub: Awaited<ReturnType<typeof startHub>>;
  let hubServer: Server;
  let hubUrl: string;
  let hall: SpawnedServer | undefined;

  beforeAll(async () => {
    cluster = await startPgCluster();
    hub = await startHub(cluster, { clock: systemClock as never });
    hubServer = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: hub.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
    });
    hubUrl = `http://127.0.0.1:${(hubServer.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await hall?.kill().catch(() => undefined);
    hubServer?.close();
    await hub?.close();
    await cluster?.stop();
  });

  it('an edit supersedes the unreleased package on every hall at once; the status shows versions; after a release edits are 409 and change nothing', async () => {
    const key = hub.firstExaminer!.apiKey;
    const as = (method: string, path: string, body?: unknown) => asExaminer(hub, key, method, path, body);
    hall = await spawnServer({ dataDir: tempDir('hallcbt-edit-'), env: HUB_ON_LOOPBACK });
    const ws = await registerWorkspace(hall.baseUrl);
    const hallApi = api(hall.baseUrl, ws.apiKey);
    const created = await as('POST', '/hub/v1/halls', { name: 'Ibadan centre' });
    expect((await hallApi.post('/hub-link/enrol', { hubUrl, enrolmentCode: created.json.enrolmentCode, hallName: 'Ibadan centre' }, { 'x-operator-key': rotateOperatorCredential(hall.dataDir) })).status).toBe(200);
    const ibadan = created.json.id as string;
    // a second hall that is enrolled but never fetches anything
    const jos = new TestHall(hub);
    expect(await jos.enrol((await as('POST', '/hub/v1/halls', { name: 'Jos centre' })).json.enrolmentCode)).toBe(200);

    // published (version 1) 30 minutes ahead, fetched by the real hall
    const exam = await as('POST', '/hub/v1/exams', { ...samplePaper(new Date(Date.now() + 30 * 60_000).toISOString()), endsAt: new Date(Date.now() + 3 * 3600_000).toISOString() });
    const examId = exam.json.id as string;
    const v1 = await as('POST', `/hub/v1/exams/${examId}/publish`, { hallIds: [ibadan, jos.hallId] });
    expect(v1.status).toBe(200);
    expect((await hallApi.post('/hub-link/sync', {})).body).toMatchObject({ error: null });
    const examsAt = async (hallId: string) => ((await as('GET', '/hub/v1/halls')).json as { id: string; exams: unknown[] }[]).find((h) => h.id === hallId)!.exams;
    const row = { examId, title: 'Board Mathematics mock', releasedVersion: null };
    expect(await examsAt(ibadan)).toEqual([{ ...row, currentVersion: 1, sentVersion: 1, deliveredVersion: 1, heldVersion: 1 }]);
    expect(await examsAt(jos.hallId)).toEqual([{ ...row, currentVersion: 1, sentVersion: 1, deliveredVersion: null, heldVersion: null }]);

    // a question edit: version 2, sealed for both halls at once (no republish)
    const q0 = exam.json.questions[0];
    const edited = await as('PATCH', `/hub/v1/exams/${examId}/questions/${q0.id}`, { prompt: 'What is the sum of the interior angles of a quadrilateral?', options: [{ id: q0.options[0].id, text: '360 degrees', isCorrect: true }, { text: '180 degrees' }, { text: '540 degrees' }] });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json.examVersion).toBe(2);
    expect((await as('GET', `/hub/v1/exams/${examId}`)).json).toMatchObject({ version: 2, publishedVersion: 2, republishNeeded: false });
    const jv2 = (await jos.request('GET', '/hub/v1/packages')).json as { version: number }[];
    expect(jv2.map((p) => p.version)).toEqual([2, 1]);
    // the real hall has not synced yet: it holds version 1 while 2 is sent
    expect(await examsAt(ibadan)).toEqual([{ ...row, currentVersion: 2, sentVersion: 2, deliveredVersion: 1, heldVersion: 1 }]);

    // a settings edit: version 3, sealed at once too
    const patched = await as('PATCH', `/hub/v1/exams/${examId}`, { title: 'Board Mathematics mock (corrected)' });
    expect(patched.json).toMatchObject({ version: 3, publishedVersion: 3, republishNeeded: false });
    const codes = (await as('GET', `/hub/v1/exams/${examId}/release-codes`)).json as { hallId: string; packageId: string; version: number; releaseCode: string }[];
    expect(codes.filter((c) => c.hallId === ibadan).map((c) => c.version).sort()).toEqual([1, 2, 3]);
    const v3 = codes.find((c) => c.hallId === ibadan && c.version === 3)!;

    // the hall's next sync brings the newest versions; only version 3 stays sealed
    expect((await hallApi.post('/hub-link/sync', {})).body).toMatchObject({ received: [v3.packageId, codes.find((c) => c.hallId === ibadan && c.version === 2)!.packageId], error: null });
    const states = async () => ((await hallApi.get('/hub-link/packages')).body as { version: number; state: string }[]).map((p) => [p.version, p.state]).sort();
    expect(await states()).toEqual([[1, 'SUPERSEDED'], [2, 'SUPERSEDED'], [3, 'SEALED']]);
    const row3 = { ...row, title: 'Board Mathematics mock (corrected)', currentVersion: 3, sentVersion: 3 };
    expect(await examsAt(ibadan)).toEqual([{ ...row3, deliveredVersion: 3, heldVersion: 3 }]);
    expect(await examsAt(jos.hallId)).toEqual([{ ...row3, deliveredVersion: null, heldVersion: null }]);

    // released by typed code: the hall's exam is the edited one
    const rel = await hallApi.post(`/hub-link/packages/${v3.packageId}/release`, { releaseCode: v3.releaseCode });
    expect(rel.status, JSON.stringify(rel.body)).toBe(200);
    const hallExam = (await hallApi.get(`/exams/${rel.body.examId}`)).body;
    expect(hallExam.title).toBe('Board Mathematics mock (corrected)');
    expect(hallExam.questions[0]).toMatchObject({ id: q0.id, prompt: 'What is the sum of the interior angles of a quadrilateral?' });
    expect(hallExam.questions[0].options[0]).toMatchObject({ id: q0.options[0].id, text: '360 degrees', isCorrect: true });

    // its heartbeat proves the release: from then on every edit is refused and nothing changes
    expect((await hallApi.post('/hub-link/sync', {})).body).toMatchObject({ received: [], error: null });
    expect(await examsAt(ibadan)).toEqual([{ ...row3, deliveredVersion: 3, heldVersion: 3, releasedVersion: 3 }]);
    const before = (await as('GET', `/hub/v1/exams/${examId}`)).json;
    for (const [method, path, body] of [
      ['PATCH', `/hub/v1/exams/${examId}/questions/${q0.id}`, { prompt: 'Too late' }],
      ['PATCH', `/hub/v1/exams/${examId}`, { title: 'Too late' }],
      ['POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [{ prompt: 'Added late?', type: 'TRUE_FALSE', marks: 1, options: [{ text: 'True', isCorrect: true }, { text: 'False' }] }] }],
      ['DELETE', `/hub/v1/exams/${examId}/questions/${q0.id}`, undefined],
    ] as const) {
      const r = await as(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(409);
      expect(r.json).toMatchObject({ code: 'PAPER_RELEASED', halls: [ibadan] });
    }
    expect((await as('GET', `/hub/v1/exams/${examId}`)).json).toEqual(before);
    expect(((await as('GET', `/hub/v1/exams/${examId}/release-codes`)).json as unknown[]).length).toBe(codes.length);
    expect(((await jos.request('GET', '/hub/v1/packages')).json as { version: number }[]).map((p) => p.version)).toEqual([3, 2, 1]);
  }, 180_000);
});
