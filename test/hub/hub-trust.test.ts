/**
 * Issue #34, findings 7 and 9b: the hub believes no hall's arithmetic. On a real PostgreSQL,
 * a hall (or a thief holding its data folder and so its signing key) that claims 57 out of 1
 * gets the hub's own computation stored and the difference audited; a candidate not on the
 * paper's roster, an event dated 2099 and a second, different result for an attempt are
 * refused (audited) while an identical replay stays accepted; a heartbeat claiming
 * "released" without the release proof does not stop the board's edits; enrolment-code
 * guesses get 429 after the limit without an audit row each, and another address still enrols.
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ResultEvent } from '../../src/core/sync/messages.js';
import { parseReleaseCode } from '../../src/core/sync/release-code.js';
import { releaseProof } from '../../src/core/sync/release-proof.js';
import { pgAvailability } from '../pg/cluster.js';
import { sendFrom } from '../security/from-address.js';
import { TestHall, asExaminer, hubForSuite, samplePaper, startHub } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

type Hub = Awaited<ReturnType<typeof startHub>>;
type Exam = { id: string; questions: { id: string; options: { id: string; isCorrect: boolean }[] }[] };

const STARTS = '2026-11-25T09:00:00.000Z';
const ENDS = '2026-11-25T11:00:00.000Z';

/** Ada's attempt: q1 right, q2 wrong, the essay answered and not yet reviewed (the hub's sum: 1 of 6, F9, pending). */
function adaEvent(exam: Exam, packageId: string, over: { eventId?: string; attemptId?: string; studentId?: string; createdAt?: string; score?: number; maxScore?: number; q2Right?: boolean } = {}): ResultEvent {
  const [q1, q2, q3] = exam.questions;
  const createdAt = over.createdAt ?? '2026-11-25T09:25:00.000Z';
  return {
    eventId: over.eventId ?? 'evt_1',
    type: 'exam.attempt.completed',
    packageId,
    examId: exam.id,
    createdAt,
    attempt: {
      attemptId: over.attemptId ?? 'att_1',
      studentId: over.studentId ?? 'BRD-001',
      candidateName: 'Ada Obi',
      status: 'COMPLETED',
      startedAt: '2026-11-25T09:01:00.000Z',
      completedAt: createdAt,
      disqualifiedAt: null,
      creditedMs: 0,
      violations: 0,
      score: over.score ?? 1,
      maxScore: over.maxScore ?? 6,
      percentage: over.score === undefined ? 16.67 : 100,
      grade: over.score === undefined ? 'F9' : 'A1',
      pendingReview: true,
      answers: [
        { questionId: q1!.id, optionId: q1!.options.find((o) => o.isCorrect)!.id, text: null, awardedMarks: null, reviewed: false },
        { questionId: q2!.id, optionId: q2!.options.find((o) => o.isCorrect === !!over.q2Right)!.id, text: null, awardedMarks: null, reviewed: false },
        { questionId: q3!.id, optionId: null, text: 'Suppose root two were p over q in lowest terms.', awardedMarks: null, reviewed: false },
      ],
      audit: [],
    },
  };
}

describe.skipIf(skipWhy !== null)('the hub trusts no hall’s arithmetic', () => {
  let hub: Hub;
  let key: string;
  hubForSuite((started) => ({ hub, key } = started));

  const count = async (q: ReturnType<typeof sql>) => ((await hub.deps.db.execute(q)).rows[0] as { n: number }).n;
  const audits = (action: string) => count(sql`select count(*)::int as n from hub_audit where action = ${action}`);

  async function hallWithPaper(name: string, startsAt = STARTS, endsAt = ENDS) {
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name });
    const hall = new TestHall(hub);
    expect(await hall.enrol(created.json.enrolmentCode)).toBe(200);
    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', { ...samplePaper(startsAt), endsAt });
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [hall.hallId] });
    return { hall, exam: exam.json as Exam, packageId: pub.json.packages[0].packageId as string, releaseCode: pub.json.packages[0].releaseCode as string };
  }

  it('stores its own computation of a forged 57 out of 1, and audits the difference', async () => {
    hub.clock.set(Date.parse('2026-11-25T09:40:00Z'));
    const { hall, exam, packageId } = await hallWithPaper('Forged-score centre');
    const forged = adaEvent(exam, packageId, { eventId: 'evt_forged', attemptId: 'att_forged', score: 57, maxScore: 1 });
    expect((await hall.request('POST', '/hub/v1/results', forged)).status).toBe(200);
    const row = (await hub.deps.db.execute(sql`select score, max_score, grade from hub_results where event_id = 'evt_forged'`)).rows[0];
    expect(row).toEqual({ score: 1, max_score: 6, grade: 'F9' });
    const results = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results`);
    expect(results.json.candidates[0]).toMatchObject({ studentId: 'BRD-001', score: 1, maxScore: 6, percentage: 16.67, grade: 'F9', pendingReview: true });
    expect(await count(sql`select count(*)::int as n from hub_audit where action = 'result-score-differs' and detail->>'eventId' = 'evt_forged'`)).toBe(1);
    // the batch route computes the same way
    const batch = await hall.request('POST', '/hub/v1/results/batch', { events: [adaEvent(exam, packageId, { eventId: 'evt_forged_b', attemptId: 'att_forged_b', studentId: 'BRD-002', score: 57, maxScore: 1, q2Right: true })] });
    expect(batch.json.results).toEqual([{ eventId: 'evt_forged_b', status: 'stored' }]);
    expect((await hub.deps.db.execute(sql`select score, max_score, grade from hub_results where event_id = 'evt_forged_b'`)).rows[0]).toEqual({ score: 2, max_score: 6, grade: 'F9' });
  });

  it('refuses a candidate not on the paper’s roster and an event dated 2099, each audited', async () => {
    hub.clock.set(Date.parse('2026-11-25T09:40:00Z'));
    const { hall, exam, packageId } = await hallWithPaper('Roster centre');
    const before = await audits('result-refused');
    const stranger = await hall.request('POST', '/hub/v1/results', adaEvent(exam, packageId, { eventId: 'evt_stranger', attemptId: 'att_stranger', studentId: 'NOT-ON-ROSTER' }));
    expect(stranger.status).toBe(422);
    const future = await hall.request('POST', '/hub/v1/results/batch', { events: [adaEvent(exam, packageId, { eventId: 'evt_2099', attemptId: 'att_2099', createdAt: '2099-01-01T00:00:00.000Z' })] });
    expect(future.json.results[0]).toMatchObject({ eventId: 'evt_2099', status: 'refused' });
    const early = await hall.request('POST', '/hub/v1/results', adaEvent(exam, packageId, { eventId: 'evt_early', attemptId: 'att_early', createdAt: '2026-11-24T09:25:00.000Z' }));
    expect(early.status).toBe(422);
    expect(await count(sql`select count(*)::int as n from hub_results where event_id in ('evt_stranger', 'evt_2099', 'evt_early')`)).toBe(0);
    expect(await audits('result-refused')).toBe(before + 3);
  });

  it('refuses a second, different result for an attempt; the same event again is a duplicate', async () => {
    hub.clock.set(Date.parse('2026-11-25T09:40:00Z'));
    const { hall, exam, packageId } = await hallWithPaper('Second-result centre');
    const first = adaEvent(exam, packageId, { eventId: 'evt_a', attemptId: 'att_x' });
    expect((await hall.request('POST', '/hub/v1/results', first)).json).toEqual({ duplicate: false });
    expect((await hall.request('POST', '/hub/v1/results', first)).json).toEqual({ duplicate: true });
    // another event id for the same attempt, with a better answer
    const second = adaEvent(exam, packageId, { eventId: 'evt_b', attemptId: 'att_x', q2Right: true, createdAt: '2026-11-25T09:30:00.000Z' });
    expect((await hall.request('POST', '/hub/v1/results', second)).status).toBe(409);
    // the same event id with other content
    const altered = adaEvent(exam, packageId, { eventId: 'evt_a', attemptId: 'att_x', q2Right: true });
    const batch = await hall.request('POST', '/hub/v1/results/batch', { events: [first, altered] });
    expect(batch.json.results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'refused']);
    const results = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results`);
    expect(results.json.candidates).toHaveLength(1);
    expect(results.json.candidates[0]).toMatchObject({ score: 1, lastEvent: { eventId: 'evt_a' } });
  });

  it('does not let a heartbeat that merely says "released" stop the board’s edits', async () => {
    hub.clock.set(Date.parse('2026-11-25T09:40:00Z'));
    const { hall, exam, packageId } = await hallWithPaper('Heartbeat centre', '2026-11-26T09:00:00.000Z', '2026-11-26T11:00:00.000Z');
    expect((await hall.request('POST', '/hub/v1/heartbeat', { inProgress: 0, packages: [{ packageId, state: 'RELEASED' }] })).status).toBe(204);
    const edit = await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${exam.id}/questions/${exam.questions[0]!.id}`, { prompt: 'Still editable?' });
    expect(edit.status).toBe(200);
    // a made-up proof is no better (one audit row), and the status view still shows what the hall said
    const before = await audits('release-proof-refused');
    expect((await hall.request('POST', '/hub/v1/heartbeat', { inProgress: 0, packages: [{ packageId, state: 'RELEASED', releaseProof: 'A'.repeat(43) }] })).status).toBe(204);
    expect(await audits('release-proof-refused')).toBe(before + 1);
    expect((await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${exam.id}`, { title: 'Still editable' })).status).toBe(200);
    // a hall that held the release code shows the value only the code yields: from then on edits stop
    const v2 = (await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.id}/publish`, {})).json.packages[0];
    const code = parseReleaseCode(v2.releaseCode);
    if (!code.ok) throw new Error('release code does not parse');
    const proof = releaseProof(code.code, hall.hallId, v2.packageId);
    expect(releaseProof(code.code, hall.hallId, packageId)).not.toBe(proof); // bound to one package
    expect((await hall.request('POST', '/hub/v1/heartbeat', { inProgress: 0, packages: [{ packageId: v2.packageId, state: 'RELEASED', releaseProof: proof }] })).status).toBe(204);
    const refused = await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${exam.id}`, { title: 'Too late' });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'PAPER_RELEASED', halls: [hall.hallId] });
    expect(await count(sql`select count(*)::int as n from hub_audit where action = 'package-released-reported' and detail->>'packageId' = ${v2.packageId}`)).toBe(1);
  });

  it('answers enrolment-code guesses with 429 after the limit, without an audit row each; another address still enrols', async () => {
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: hub.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server;
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const guess = (from: string, code: string) => sendFrom(from, base, 'POST', '/hub/v1/enrol', { enrolmentCode: code, hallName: 'Guesser', publicKey: new TestHall(hub).keys.publicKey, clock: new Date(hub.clock.now()).toISOString() });
      const before = await count(sql`select count(*)::int as n from hub_audit where action like 'enrolment-%'`);
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let i = 0; i < 40; i++) {
        const r = await guess('127.0.0.2', `ENR-GUES-S${String(i).padStart(3, '0')}-0000-0000`);
        statuses.push(r.status);
        if (r.status === 429) retryAfter = r.headers['retry-after'] as string;
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      const grown = (await count(sql`select count(*)::int as n from hub_audit where action like 'enrolment-%'`)) - before;
      expect(grown).toBeLessThanOrEqual(11);
      expect(grown).toBe(11); // ten refused codes, one throttle row for the window

      // a burst of 300 guesses, 30 at a time, from another address: still ten reach the code, one more row
      const burstBefore = await count(sql`select count(*)::int as n from hub_audit where action like 'enrolment-%'`);
      const t0 = performance.now();
      const burst: number[] = [];
      for (let round = 0; round < 10; round++) {
        burst.push(...(await Promise.all(Array.from({ length: 30 }, (_, i) => guess('127.0.0.4', `ENR-BURS-T${round}${String(i).padStart(2, '0')}-0000-0000`)))).map((r) => r.status));
      }
      const perSecond = Math.round(300 / ((performance.now() - t0) / 1000));
      console.log(`enrolment burst: 300 guesses at ${perSecond}/s → ${burst.filter((x) => x === 401).length} × 401, ${burst.filter((x) => x === 429).length} × 429, audit rows +${(await count(sql`select count(*)::int as n from hub_audit where action like 'enrolment-%'`)) - burstBefore}`);
      expect(burst.filter((x) => x === 401)).toHaveLength(10);
      expect(burst.filter((x) => x === 429)).toHaveLength(290);
      expect((await count(sql`select count(*)::int as n from hub_audit where action like 'enrolment-%'`)) - burstBefore).toBe(11);

      // a real hall at another address is not locked out
      const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Honest centre' });
      expect((await guess('127.0.0.3', created.json.enrolmentCode)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe('the address an enrolment guess counts under', () => {
  it('is an IPv4 address as it is, and an IPv6 address by its /64', async () => {
    const { addressKey } = await import('../../src/hub/enrol-throttle.js');
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::99')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8::1')).toBe('2001:db8:0:0::/64');
  });
});
