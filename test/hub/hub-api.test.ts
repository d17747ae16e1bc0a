/**
 * The hub on a real PostgreSQL (issue #24): halls enrol once with a one-time code; an exam
 * is sealed per hall; only signed requests of the right hall get its package, its release
 * (not before 5 minutes ahead of the start) and send results, each result stored once; every
 * refusal is audited; two hub processes on one database refuse each other's replays.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openEnvelope } from '../../src/core/sync/signing.js';
import { openPaper, unwrapContentKey } from '../../src/core/sync/seal.js';
import { parseReleaseCode } from '../../src/core/sync/release-code.js';
import { packagePayloadSchema, paperSchema, type ResultEvent } from '../../src/core/sync/messages.js';
import { pgAvailability, type PgCluster } from '../pg/cluster.js';
import { TestHall, asExaminer, hubForSuite, samplePaper, startHub } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('hub API on PostgreSQL', () => {
  let cluster: PgCluster;
  let hub: Awaited<ReturnType<typeof startHub>>;
  let key: string;
  const startsAt = '2026-11-25T09:00:00.000Z';

  hubForSuite((started) => ({ cluster, hub, key } = started));

  async function enrolledHall(name: string): Promise<TestHall> {
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name });
    expect(created.status).toBe(201);
    const hall = new TestHall(hub);
    expect(await hall.enrol(created.json.enrolmentCode)).toBe(200);
    expect(hall.hallId).toBe(created.json.id);
    return hall;
  }

  async function auditCount(action: string): Promise<number> {
    const r = await hub.deps.db.execute(sql`select count(*)::int as n from hub_audit where action = ${action}`);
    return (r.rows[0] as { n: number }).n;
  }

  it('enrols a hall once: the code cannot be used twice, nor an unknown one', async () => {
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Kano centre' });
    const hall = new TestHall(hub);
    expect(await hall.enrol(created.json.enrolmentCode.toLowerCase())).toBe(200);
    const thief = new TestHall(hub);
    expect(await thief.enrol(created.json.enrolmentCode)).toBe(401);
    expect(await thief.enrol('ENR-0000-0000-0000-0000')).toBe(401);
    expect(await auditCount('enrolment-refused')).toBeGreaterThanOrEqual(2);
    expect((await asExaminer(hub, 'cbt_wrong', 'GET', '/hub/v1/halls')).status).toBe(401);
  });

  it('flags a hall whose clock is more than a minute off', async () => {
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Sokoto centre' });
    const res = await hub.app.request('/hub/v1/enrol', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enrolmentCode: created.json.enrolmentCode, hallName: 'Sokoto', publicKey: new TestHall(hub).keys.publicKey, clock: new Date(hub.clock.now() - 90_000).toISOString() }) });
    expect(res.status).toBe(200);
    const status = await asExaminer(hub, key, 'GET', '/hub/v1/halls');
    expect(status.json.find((h: { id: string }) => h.id === created.json.id)).toMatchObject({ clockOffsetMs: -90_000, clockFlagged: true });
  });

  it('refuses an invalid paper whole, naming each bad question', async () => {
    const bad = samplePaper(startsAt);
    (bad.questions[0] as { options: unknown[] }).options = [{ text: 'only one', isCorrect: true }];
    const res = await asExaminer(hub, key, 'POST', '/hub/v1/exams', bad);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.json.errors[0]).toMatchObject({ index: 0, path: 'options' });
    const count = await hub.deps.db.execute(sql`select count(*)::int as n from hub_exams`);
    expect((count.rows[0] as { n: number }).n).toBe(0);
  });

  it('seals one package per hall that only that hall can fetch and only its release code opens', async () => {
    const lagos = await enrolledHall('Lagos centre');
    const abuja = await enrolledHall('Abuja centre');
    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', samplePaper(startsAt));
    expect(exam.status).toBe(201);
    expect(exam.json.roster[1].pin).toMatch(/^\d{6}$/);
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [lagos.hallId, abuja.hallId] });
    expect(pub.status).toBe(200);
    const [lagosPkg, abujaPkg] = pub.json.packages as { hallId: string; packageId: string; releaseCode: string }[];

    const list = await lagos.request('GET', '/hub/v1/packages');
    expect(list.status).toBe(200);
    expect(list.json.map((p: { packageId: string }) => p.packageId)).toEqual([lagosPkg!.packageId]);
    const got = await lagos.request('GET', `/hub/v1/packages/${lagosPkg!.packageId}`);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.json)).not.toMatch(/interior angles|prime number|square root/);
    const payload = packagePayloadSchema.parse(openEnvelope(lagos.hubPublicKey, got.json));
    expect(payload.hallId).toBe(lagos.hallId);
    // another hall's package is "not found" to this hall
    expect((await lagos.request('GET', `/hub/v1/packages/${abujaPkg!.packageId}`)).status).toBe(404);

    const code = parseReleaseCode(lagosPkg!.releaseCode);
    if (!code.ok) throw new Error('release code does not parse');
    const ck = unwrapContentKey(payload.wrappedKey, code.code, lagos.hallId, payload.examId);
    const paper = paperSchema.parse(openPaper(ck!, payload.sealed, payload));
    expect(paper.questions.map((q) => q.prompt)[0]).toContain('interior angles');
    expect(paper.roster[0]).toMatchObject({ studentId: 'BRD-001', pin: '2468' });
    const abujaCode = parseReleaseCode(abujaPkg!.releaseCode);
    if (!abujaCode.ok) throw new Error('release code does not parse');
    expect(unwrapContentKey(payload.wrappedKey, abujaCode.code, lagos.hallId, payload.examId)).toBeNull();

    // online release: sealed until 5 minutes before the start
    hub.clock.set(Date.parse(startsAt) - 6 * 60_000);
    const early = await lagos.request('POST', `/hub/v1/releases/${lagosPkg!.packageId}`);
    expect(early.status).toBe(409);
    expect(early.json.releasableAt).toBe('2026-11-25T08:55:00.000Z');
    hub.clock.set(Date.parse(startsAt) - 4 * 60_000);
    const rel = await lagos.request('POST', `/hub/v1/releases/${lagosPkg!.packageId}`);
    expect(rel.status).toBe(200);
    expect((openEnvelope(lagos.hubPublicKey, rel.json) as { releaseCode: string }).releaseCode).toBe(lagosPkg!.releaseCode);
    expect((await abuja.request('POST', `/hub/v1/releases/${lagosPkg!.packageId}`)).status).toBe(404);

    const status = await asExaminer(hub, key, 'GET', '/hub/v1/halls');
    const lagosStatus = status.json.find((h: { id: string }) => h.id === lagos.hallId);
    expect(lagosStatus).toMatchObject({ enrolled: true, packagesPublished: 1, packagesReceived: 1, examsReleased: 1, resultsExpected: 2, clockFlagged: false });
  });

  it('refuses unsigned, wrongly signed, stale and replayed hall requests, each audited', async () => {
    const hall = await enrolledHall('Ibadan centre');
    const before = await auditCount('hall-request-refused');
    expect((await hub.app.request('/hub/v1/packages')).status).toBe(401);
    const other = new TestHall(hub);
    expect((await hall.request('GET', '/hub/v1/packages', undefined, { privateKey: other.keys.privateKey })).status).toBe(401);
    expect((await hall.request('GET', '/hub/v1/packages', undefined, { now: hub.clock.now() - 10 * 60_000 })).status).toBe(401);
    const nonce = 'cmVwbGF5LW5vbmNlLTAwMDE';
    expect((await hall.request('GET', '/hub/v1/packages', undefined, { nonce })).status).toBe(200);
    const replay = await hall.request('GET', '/hub/v1/packages', undefined, { nonce });
    expect(replay.status).toBe(401);
    expect(replay.json.code).toBe('HALL_REPLAY');
    expect(await auditCount('hall-request-refused')).toBe(before + 4);

    // a stolen machine: the board revokes the hall's key; its signed requests are refused
    const revoked = await asExaminer(hub, key, 'POST', `/hub/v1/halls/${hall.hallId}/revoke`);
    expect(revoked.status).toBe(200);
    expect((await hall.request('GET', '/hub/v1/packages')).status).toBe(401);
    const replacement = new TestHall(hub);
    expect(await replacement.enrol(revoked.json.enrolmentCode)).toBe(200);
    expect(replacement.hallId).toBe(hall.hallId);
    expect((await replacement.request('GET', '/hub/v1/packages')).status).toBe(200);
  });

  it('stores each result event once, keeps the newest event of an attempt current, and analyses across halls', async () => {
    hub.clock.set(Date.parse('2026-11-25T10:05:00Z')); // the hub refuses results dated in its future (issue #34, finding 7)
    const hall = await enrolledHall('Enugu centre');
    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', samplePaper(startsAt));
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [hall.hallId] });
    const packageId = pub.json.packages[0].packageId as string;
    const [q1, q2, q3] = exam.json.questions as { id: string; options: { id: string; isCorrect: boolean }[] }[];
    const event = (eventId: string, type: ResultEvent['type'], essayMarks: number | null, createdAt: string): ResultEvent => ({
      eventId,
      type,
      packageId,
      examId: exam.json.id,
      createdAt,
      attempt: {
        attemptId: 'att_enugu_1',
        studentId: 'BRD-001',
        candidateName: 'Ada Obi',
        status: 'COMPLETED',
        startedAt: '2026-11-25T09:00:05.000Z',
        completedAt: '2026-11-25T09:20:00.000Z',
        disqualifiedAt: null,
        creditedMs: 0,
        violations: 0,
        score: 2 + (essayMarks ?? 0),
        maxScore: 6,
        percentage: Math.round(((2 + (essayMarks ?? 0)) / 6) * 10000) / 100,
        grade: essayMarks ? 'A1' : 'F9',
        pendingReview: essayMarks === null,
        answers: [
          { questionId: q1!.id, optionId: q1!.options.find((o) => o.isCorrect)!.id, text: null, awardedMarks: null, reviewed: false },
          { questionId: q2!.id, optionId: q2!.options.find((o) => o.isCorrect)!.id, text: null, awardedMarks: null, reviewed: false },
          { questionId: q3!.id, optionId: null, text: 'Suppose it is rational…', awardedMarks: essayMarks, reviewed: essayMarks !== null },
        ],
        audit: [],
      },
    });
    const first = await hall.request('POST', '/hub/v1/results', event('evt_enugu_1', 'exam.attempt.completed', null, '2026-11-25T09:20:00.000Z'));
    expect(first).toEqual({ status: 200, json: { duplicate: false } });
    // the hall retries after a lost answer: same event id, counted once
    expect((await hall.request('POST', '/hub/v1/results', event('evt_enugu_1', 'exam.attempt.completed', null, '2026-11-25T09:20:00.000Z'))).json).toEqual({ duplicate: true });
    expect((await hall.request('POST', '/hub/v1/results', event('evt_enugu_2', 'exam.attempt.regraded', 4, '2026-11-25T10:00:00.000Z'))).json).toEqual({ duplicate: false });

    const results = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.json.id}/results`);
    expect(results.json.candidates).toHaveLength(1);
    expect(results.json.candidates[0]).toMatchObject({ studentId: 'BRD-001', score: 6, grade: 'A1', pendingReview: false, lastEvent: { eventId: 'evt_enugu_2' } });
    const analysis = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.json.id}/analysis`);
    expect(analysis.status).toBe(200);
    expect(analysis.json.candidates).toBe(1);
    expect(analysis.json.questions[0].facilityIndex).toBe(1);
    expect(analysis.json.questions[2].facilityIndex).toBe(1); // the regraded essay's 4 of 4
    const csv = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.json.id}/results.csv`);
    expect(csv.text).toContain('Enugu centre');
    expect(csv.text).toContain('BRD-001');

    // a result for a package of another exam or hall is refused
    const stranger = await enrolledHall('Jos centre');
    expect((await stranger.request('POST', '/hub/v1/results', event('evt_jos_1', 'exam.attempt.completed', null, '2026-11-25T09:20:00.000Z'))).status).toBe(404);
  });

  it('two hub processes on one database serve the same halls and refuse each other’s replays', async () => {
    // every hub process reads the same key file (docs/hub.md): here, the same data folder
    const second = await startHub(cluster, { url: hub.url, clock: hub.clock, dataDir: hub.dataDir });
    try {
      expect(second.firstExaminer).toBeNull();
      expect(second.deps.signingKey.publicKey).toBe(hub.deps.signingKey.publicKey);
      const hall = await enrolledHall('Port Harcourt centre');
      const nonce = 'dHdvLXByb2Nlc3Nlcy0wMQ';
      expect((await hall.request('GET', '/hub/v1/packages', undefined, { nonce, hub: second })).status).toBe(200);
      expect((await hall.request('GET', '/hub/v1/packages', undefined, { nonce })).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('publishes an OpenAPI document of its own', async () => {
    const res = await hub.app.request('/openapi.json');
    const doc = (await res.json()) as { info: { title: string }; paths: Record<string, unknown> };
    expect(doc.info.title).toBe('HallCBT hub API');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/hub/v1/enrol', '/hub/v1/results', '/hub/v1/exams/{id}/publish']));
  });
});
