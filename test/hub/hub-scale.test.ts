/**
 * The hub at ten thousand halls (issue 38 §7; docs/decisions.md, "The hub at ten thousand
 * halls"), on a real PostgreSQL: a result's answers are stored without their null / false
 * fields and the hub's marks as one number per answer, and read back as sent (a resend is a
 * duplicate, the results and analysis show the hub's marks); a row stored in the earlier
 * layout reads the same; the halls view counts attempts from the counts the ingest keeps
 * (a regrade is not a second attempt); the results view pages its candidates while its
 * per-hall figures and `received` count them all.
 */
import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { ResultEvent } from '../../src/core/sync/messages.js';
import { pgAvailability } from '../pg/cluster.js';
import { TestHall, asExaminer, completedResult, hubForSuite, samplePaper, type SuiteHub } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

type Exam = { id: string; questions: { id: string; options: { id: string }[] }[] };

/** A completed attempt of `studentId`: first option of each objective question (both right), the essay answered and awaiting review. */
function completed(exam: Exam, packageId: string, eventId: string, attemptId: string, studentId: string, createdAt = '2026-11-25T09:20:00.000Z'): ResultEvent {
  const candidateName = studentId === 'BRD-001' ? 'Ada Obi' : 'Bola Ade';
  return completedResult(exam, { packageId, eventId, createdAt }, { attemptId, studentId, candidateName, startedAt: '2026-11-25T09:10:00.000Z', completedAt: '2026-11-25T09:20:00.000Z' }, 'Because it is not a ratio of integers.');
}

describe.skipIf(skipWhy !== null)('the hub at ten thousand halls', () => {
  let hub: SuiteHub['hub'];
  let key: string;
  let cluster: SuiteHub['cluster'];
  hubForSuite((started) => {
    ({ hub, key, cluster } = started);
    hub.clock.set(Date.parse('2026-11-25T09:30:00Z'));
  });

  /** One exam published to two new halls, each candidate assigned to one of them. */
  async function twoHalls(prefix: string) {
    const made = await Promise.all(['North', 'South'].map((n) => asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: `${prefix} ${n}` })));
    const halls = made.map(() => new TestHall(hub));
    for (const [i, h] of halls.entries()) expect(await h.enrol(made[i]!.json.enrolmentCode)).toBe(200);
    const sample = samplePaper('2026-11-25T09:00:00.000Z');
    const paper = { ...sample, roster: sample.roster.map((r, i) => ({ ...r, hallId: halls[i]!.hallId })) };
    const exam = (await asExaminer(hub, key, 'POST', '/hub/v1/exams', paper)).json as Exam;
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.id}/publish`, { hallIds: halls.map((h) => h.hallId) });
    const pkg = (h: TestHall) => (pub.json.packages as { hallId: string; packageId: string }[]).find((p) => p.hallId === h.hallId)!.packageId;
    return { exam, north: { hall: halls[0]!, packageId: pkg(halls[0]!) }, south: { hall: halls[1]!, packageId: pkg(halls[1]!) } };
  }

  it('stores answers without their null / false fields and marks per answer, and gives back the event as sent', async () => {
    const { exam, north } = await twoHalls('Compact');
    const ev = completed(exam, north.packageId, 'evt_cmp_1', 'att_cmp_1', 'BRD-001');
    expect((await north.hall.request('POST', '/hub/v1/results/batch', { events: [ev] })).json.results).toEqual([{ eventId: 'evt_cmp_1', status: 'stored' }]);
    const row = (await hub.deps.db.execute(sql`select body->'attempt'->'answers' as answers, marks from hub_results where event_id = 'evt_cmp_1'`)).rows[0] as { answers: unknown; marks: unknown };
    const [q1, q2, essay] = exam.questions;
    expect(row.answers).toEqual([{ questionId: q1!.id, optionId: q1!.options[0]!.id }, { questionId: q2!.id, optionId: q2!.options[0]!.id }, { questionId: essay!.id, text: 'Because it is not a ratio of integers.' }]);
    // the hub's marks in the answers' order: both objective ones right, the essay not decided
    expect(row.marks).toEqual([1, 1, null]);
    // the same event again is a duplicate; the same id with another answer is refused
    expect((await north.hall.request('POST', '/hub/v1/results/batch', { events: [ev] })).json.results).toEqual([{ eventId: 'evt_cmp_1', status: 'duplicate' }]);
    const altered = { ...ev, attempt: { ...ev.attempt, answers: ev.attempt.answers.map((a, i) => (i === 0 ? { ...a, reviewed: true } : a)) } };
    expect((await north.hall.request('POST', '/hub/v1/results/batch', { events: [altered] })).json.results[0]).toMatchObject({ status: 'refused', error: expect.stringMatching(/other content/) });
    const analysis = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/analysis`);
    expect(analysis.status).toBe(200);
    expect(analysis.json.candidates).toBe(1);
    expect(analysis.json.questions.map((x: { facilityIndex: number | null }) => x.facilityIndex).slice(0, 2)).toEqual([1, 1]);
  });

  it('reads a result stored in the earlier layout (every answer field, marks by question id) as before', async () => {
    const { exam, south } = await twoHalls('Earlier');
    const ev = completed(exam, south.packageId, 'evt_old_1', 'att_old_1', 'BRD-002');
    const marks = Object.fromEntries(exam.questions.slice(0, 2).map((q) => [q.id, 1]));
    await hub.deps.db.execute(sql`insert into hub_results (event_id, hall_id, exam_id, attempt_id, type, student_id, score, max_score, percentage, grade, pending_review, marks, status, body, hall_sent_at, received_at)
      values ('evt_old_1', ${south.hall.hallId}, ${exam.id}, 'att_old_1', 'exam.attempt.completed', 'BRD-002', 2, 6, 33.33, 'F9', true, ${JSON.stringify(marks)}::jsonb, 'COMPLETED', ${JSON.stringify(ev)}::jsonb, '2026-11-25T09:20:00Z', '2026-11-25T09:21:00Z')`);
    // such a row exists only on a hub upgraded since: hub migration 0008 made its current result from it then
    await hub.deps.db.execute(sql.raw(readFileSync(new URL('../../drizzle-hub/0008_hub_current_results.sql', import.meta.url), 'utf8').split('--> statement-breakpoint')[1]!));
    expect((await south.hall.request('POST', '/hub/v1/results/batch', { events: [ev] })).json.results).toEqual([{ eventId: 'evt_old_1', status: 'duplicate' }]);
    const csv = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results.csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('BRD-002');
    const results = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results`);
    expect(results.json.candidates).toMatchObject([{ studentId: 'BRD-002', score: 2, maxScore: 6, pendingReview: true, completedAt: '2026-11-25T09:20:00.000Z', violations: 0 }]);
  });

  it('counts a hall’s attempts, not its events, in the halls view, and pages the results view over every result', async () => {
    const { exam, north, south } = await twoHalls('Paged');
    const a = completed(exam, north.packageId, 'evt_pg_1', 'att_pg_1', 'BRD-001');
    const regrade: ResultEvent = { ...a, eventId: 'evt_pg_2', type: 'exam.attempt.regraded', createdAt: '2026-11-25T09:25:00.000Z' };
    expect((await north.hall.request('POST', '/hub/v1/results/batch', { events: [a, regrade] })).json.results.map((r: { status: string }) => r.status)).toEqual(['stored', 'stored']);
    expect((await south.hall.request('POST', '/hub/v1/results/batch', { events: [completed(exam, south.packageId, 'evt_pg_3', 'att_pg_3', 'BRD-002')] })).json.results[0].status).toBe('stored');

    const halls = (await asExaminer(hub, key, 'GET', '/hub/v1/halls')).json as { id: string; resultsReceived: number }[];
    expect(halls.find((h) => h.id === north.hall.hallId)!.resultsReceived).toBe(1);
    expect(halls.find((h) => h.id === south.hall.hallId)!.resultsReceived).toBe(1);

    const first = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results?limit=1`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ expected: 2, received: 2, halls: [{ hallName: 'Paged North', results: 1 }, { hallName: 'Paged South', results: 1 }] });
    expect(first.json.candidates).toMatchObject([{ hallName: 'Paged North', studentId: 'BRD-001', lastEvent: { eventId: 'evt_pg_2', type: 'exam.attempt.regraded' } }]);
    const second = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results?offset=1&limit=1`);
    expect(second.json.candidates).toMatchObject([{ hallName: 'Paged South', studentId: 'BRD-002' }]);
    expect((await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results`)).json.candidates).toHaveLength(2);
    expect((await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/results?limit=0`)).status).toBe(400);
  });
  it('pages and searches the halls view (offset, limit, q on name or id), with the total, and answers as before without them', async () => {
    const made = [];
    for (const n of ['Quarry Alpha', 'Quarry Beta', 'Quarry Gamma']) made.push((await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: n })).json as { id: string });
    const whole = await asExaminer(hub, key, 'GET', '/hub/v1/halls');
    expect(Array.isArray(whole.json)).toBe(true);
    const all = whole.json as { id: string; name: string }[];

    const first = await asExaminer(hub, key, 'GET', '/hub/v1/halls?limit=2');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ total: all.length, offset: 0, limit: 2 });
    expect(first.json.halls).toHaveLength(2);
    const rest = await asExaminer(hub, key, 'GET', '/hub/v1/halls?offset=2&limit=100');
    // the two pages together: every hall once, each row with every field of the whole view
    const paged = [...first.json.halls, ...rest.json.halls] as { id: string }[];
    expect(paged.map((x) => x.id).sort()).toEqual(all.map((x) => x.id).sort());
    for (const row of paged) expect(row).toEqual(all.find((x) => x.id === row.id));

    const quarry = await asExaminer(hub, key, 'GET', '/hub/v1/halls?q=quarry&limit=2');
    expect(quarry.json.total).toBe(3);
    expect(quarry.json.halls.map((x: { name: string }) => x.name)).toEqual(['Quarry Alpha', 'Quarry Beta']);
    const page2 = await asExaminer(hub, key, 'GET', '/hub/v1/halls?q=quarry&offset=2&limit=2');
    expect(page2.json).toMatchObject({ total: 3, halls: [{ name: 'Quarry Gamma' }] });
    const byId = await asExaminer(hub, key, 'GET', `/hub/v1/halls?q=${made[1]!.id}`);
    expect(byId.json).toMatchObject({ total: 1, halls: [{ id: made[1]!.id, name: 'Quarry Beta' }] });
    // a search's % or _ is a character, not a wildcard
    expect((await asExaminer(hub, key, 'GET', '/hub/v1/halls?q=%25')).json).toMatchObject({ total: 0, halls: [] });
    expect((await asExaminer(hub, key, 'GET', '/hub/v1/halls?limit=0')).status).toBe(400);
    expect((await asExaminer(hub, key, 'GET', '/hub/v1/halls?limit=1001')).status).toBe(400);
    expect((await asExaminer(hub, key, 'GET', '/hub/v1/halls?offset=-1')).status).toBe(400);
  });
  it('computes a paper’s item analysis once for every hub process, and again when results arrive', async () => {
    const { exam, north, south } = await twoHalls('Analysed');
    expect((await north.hall.request('POST', '/hub/v1/results/batch', { events: [completed(exam, north.packageId, 'evt_an_1', 'att_an_1', 'BRD-001')] })).json.results[0].status).toBe('stored');
    const first = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/analysis`);
    expect(first.json).toMatchObject({ candidates: 1, generatedAt: '2026-11-25T09:30:00.000Z' });
    // a second hub process on the same database, its clock elsewhere (its own copy of the hub's
    // modules, so nothing held in the first one's memory): it serves the analysis computed by the first
    vi.resetModules();
    const { startHub: startOtherHub } = await import('./helpers.js');
    const second = await startOtherHub(cluster, { url: hub.url, dataDir: hub.dataDir });
    try {
      second.clock.set(Date.parse('2026-11-25T10:00:00Z'));
      expect((await asExaminer(second, key, 'GET', `/hub/v1/exams/${exam.id}/analysis`)).json).toEqual(first.json);
      expect((await south.hall.request('POST', '/hub/v1/results/batch', { events: [completed(exam, south.packageId, 'evt_an_2', 'att_an_2', 'BRD-002')] })).json.results[0].status).toBe('stored');
      const again = (await asExaminer(second, key, 'GET', `/hub/v1/exams/${exam.id}/analysis`)).json;
      expect(again).toMatchObject({ candidates: 2, generatedAt: '2026-11-25T10:00:00.000Z' });
      // and the first process serves that one in turn
      expect((await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.id}/analysis`)).json).toEqual(again);
    } finally {
      await second.close();
    }
  });
});
