/**
 * Issue 38 items 1, 2 and 6 on a real PostgreSQL: candidates belong to a centre. Each
 * roster candidate is assigned to one hall (API, roster file `centre` column); a hall's
 * package carries only its own candidates (and the unassigned); moving a candidate before
 * release re-issues both halls' packages; a second result of a candidate for the same paper
 * from another hall is refused (409 SECOND_SITTING), audited and flagged in the results
 * view; the status view counts a release by typed code (and shows one reported without a
 * proof as unproven rather than as nothing) and expects each hall's own candidates. The credits that come with the paper are tested with a real hall in
 * hub-credits.test.ts.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openEnvelope } from '../../src/core/sync/signing.js';
import { openPaper, unwrapContentKey } from '../../src/core/sync/seal.js';
import { parseReleaseCode } from '../../src/core/sync/release-code.js';
import { releaseProof } from '../../src/core/sync/release-proof.js';
import { packagePayloadSchema, paperSchema, type ResultEvent } from '../../src/core/sync/messages.js';
import { pgAvailability } from '../pg/cluster.js';
import { TestHall, asExaminer, completedResult, hubForSuite, samplePaper, startHub, warmUploadReader, type AnsweredExam } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

const EIGHT = Date.parse('2026-11-25T08:00:00Z');
const startsAt = '2026-11-25T09:00:00.000Z';

describe.skipIf(skipWhy !== null)('candidates and centres on the hub', () => {
  let hub: Awaited<ReturnType<typeof startHub>>;
  let key: string;
  hubForSuite((started) => ({ hub, key } = started));

  const as = (method: string, path: string, body?: unknown) => asExaminer(hub, key, method, path, body);
  const count = async (q: ReturnType<typeof sql>) => ((await hub.deps.db.execute(q)).rows[0] as { n: number }).n;

  async function enrolledHall(name: string): Promise<TestHall> {
    const created = await as('POST', '/hub/v1/halls', { name });
    expect(created.status).toBe(201);
    const hall = new TestHall(hub);
    expect(await hall.enrol(created.json.enrolmentCode)).toBe(200);
    return hall;
  }

  /** The package as the hall fetches it, opened with its release code. */
  async function opened(hall: TestHall, packageId: string, releaseCode: string) {
    const got = await hall.request('GET', `/hub/v1/packages/${packageId}`);
    expect(got.status).toBe(200);
    const payload = packagePayloadSchema.parse(openEnvelope(hall.hubPublicKey, got.json));
    const code = parseReleaseCode(releaseCode);
    if (!code.ok) throw new Error('release code does not parse');
    return { payload, paper: paperSchema.parse(openPaper(unwrapContentKey(payload.wrappedKey, code.code, hall.hallId, payload.examId)!, payload.sealed, payload)) };
  }
  const ids = (paper: { roster: { studentId: string }[] }) => paper.roster.map((r) => r.studentId).sort();
  const pkgOf = (packages: { hallId: string }[], hall: TestHall) => packages.find((p) => p.hallId === hall.hallId) as { hallId: string; packageId: string; releaseCode: string; version: number; candidates: number; credits: number };

  /** A completed result of `studentId` from `packageId`, both objective answers right. */
  function result(exam: AnsweredExam, packageId: string, eventId: string, studentId: string, createdAt = '2026-11-25T09:20:00.000Z'): ResultEvent {
    return completedResult(exam, { packageId, eventId, createdAt }, { attemptId: `att_${eventId}`, studentId });
  }

  it('puts only a hall’s own candidates (and the unassigned) in its package, with the credits they need', async () => {
    hub.clock.set(EIGHT);
    const lagos = await enrolledHall('Lagos centre');
    const kano = await enrolledHall('Kano centre');
    const unknown = await as('POST', '/hub/v1/exams', { ...samplePaper(startsAt), roster: [{ studentId: 'X-1', candidateName: 'Ada', hallId: 'hall_nowhere' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0]).toMatchObject({ path: 'roster[0].hallId' });

    const roster = [
      { studentId: 'LAG-1', candidateName: 'Ada Obi', hallId: lagos.hallId },
      { studentId: 'LAG-2', candidateName: 'Bola Ade', hallId: lagos.hallId },
      { studentId: 'KAN-1', candidateName: 'Musa Bello', hallId: kano.hallId },
      { studentId: 'ANY-1', candidateName: 'Chidi Eze' },
    ];
    const exam = await as('POST', '/hub/v1/exams', { ...samplePaper(startsAt), roster });
    expect(exam.status, exam.text).toBe(201);
    expect(exam.json.roster.map((r: { studentId: string; hallId: string | null }) => [r.studentId, r.hallId])).toEqual(roster.map((r) => [r.studentId, r.hallId ?? null]));
    const view = await as('GET', `/hub/v1/exams/${exam.json.id}/roster`);
    expect(view.json).toMatchObject({ unassigned: 1, halls: expect.arrayContaining([{ hallId: kano.hallId, hallName: 'Kano centre', candidates: 1 }]) });

    const pub = await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [lagos.hallId, kano.hallId] });
    expect(pub.status).toBe(200);
    const lagosPkg = pkgOf(pub.json.packages, lagos);
    const kanoPkg = pkgOf(pub.json.packages, kano);
    expect([lagosPkg.candidates, lagosPkg.credits, kanoPkg.candidates, kanoPkg.credits]).toEqual([3, 3, 2, 2]);
    const a = await opened(lagos, lagosPkg.packageId, lagosPkg.releaseCode);
    const k = await opened(kano, kanoPkg.packageId, kanoPkg.releaseCode);
    expect(ids(a.paper)).toEqual(['ANY-1', 'LAG-1', 'LAG-2']);
    expect(ids(k.paper)).toEqual(['ANY-1', 'KAN-1']);
    // the grant is in the signed payload, readable before release
    expect([a.payload.credits, k.payload.credits]).toEqual([3, 2]);
  });

  it('moves a candidate before release: both halls get a new package; after a release the roster is fixed', async () => {
    hub.clock.set(EIGHT);
    const lagos = await enrolledHall('Lagos move');
    const kano = await enrolledHall('Kano move');
    const exam = await as('POST', '/hub/v1/exams', { ...samplePaper(startsAt), roster: [{ studentId: 'M-1', candidateName: 'Ada', hallId: lagos.hallId }, { studentId: 'M-2', candidateName: 'Bola', hallId: lagos.hallId }, { studentId: 'M-3', candidateName: 'Musa', hallId: kano.hallId }] });
    const v1 = await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [lagos.hallId, kano.hallId] });

    // moving nobody, or to the hall they are at, changes nothing
    expect(await as('PATCH', `/hub/v1/exams/${exam.json.id}/roster/M-2`, { hallId: lagos.hallId })).toMatchObject({ status: 200, json: { examVersion: 1, reissued: [] } });
    expect((await as('PATCH', `/hub/v1/exams/${exam.json.id}/roster/NOBODY`, { hallId: kano.hallId })).status).toBe(404);
    expect((await as('PATCH', `/hub/v1/exams/${exam.json.id}/roster/M-2`, { hallId: 'hall_nowhere' })).status).toBe(400);

    const moved = await as('PATCH', `/hub/v1/exams/${exam.json.id}/roster/M-2`, { hallId: kano.hallId });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.examVersion).toBe(2);
    expect(moved.json.reissued.map((p: { hallId: string; version: number }) => [p.hallId, p.version]).sort()).toEqual([[lagos.hallId, 2], [kano.hallId, 2]].sort());
    const lagos2 = pkgOf(moved.json.reissued, lagos);
    const kano2 = pkgOf(moved.json.reissued, kano);
    expect(lagos2.releaseCode).toBe(pkgOf(v1.json.packages, lagos).releaseCode); // the code already handed out still opens
    expect(ids((await opened(lagos, lagos2.packageId, lagos2.releaseCode)).paper)).toEqual(['M-1']);
    expect(ids((await opened(kano, kano2.packageId, kano2.releaseCode)).paper)).toEqual(['M-2', 'M-3']);
    // each hall lists its new package, and the hub records the move
    expect((await lagos.request('GET', '/hub/v1/packages')).json[0]).toMatchObject({ packageId: lagos2.packageId, version: 2 });
    expect(await count(sql`select count(*)::int as n from hub_audit where action = 'candidates-assigned' and detail->>'examId' = ${exam.json.id}`)).toBe(1);

    // many at once, all or nothing
    const bad = await as('POST', `/hub/v1/exams/${exam.json.id}/roster/assignments`, { assignments: [{ studentId: 'M-1', hallId: kano.hallId }, { studentId: 'GHOST', hallId: kano.hallId }] });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual([expect.objectContaining({ index: 1, path: 'studentId' })]);
    const many = await as('POST', `/hub/v1/exams/${exam.json.id}/roster/assignments`, { assignments: [{ studentId: 'M-1', hallId: kano.hallId }, { studentId: 'M-3', hallId: null }] });
    expect(many.json.examVersion).toBe(3);
    const lagos3 = pkgOf(many.json.reissued, lagos);
    expect(ids((await opened(lagos, lagos3.packageId, lagos3.releaseCode)).paper)).toEqual(['M-3']);

    // Kano opens version 3 with the typed code and proves it: the roster can no longer change
    const kano3 = pkgOf(many.json.reissued, kano);
    const code = parseReleaseCode(kano3.releaseCode);
    if (!code.ok) throw new Error('code');
    expect((await kano.request('POST', '/hub/v1/heartbeat', { inProgress: 0, packages: [{ packageId: kano3.packageId, state: 'RELEASED', releaseProof: releaseProof(code.code, kano.hallId, kano3.packageId) }] })).status).toBe(204);
    const late = await as('PATCH', `/hub/v1/exams/${exam.json.id}/roster/M-1`, { hallId: lagos.hallId });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('PAPER_RELEASED');
  });

  it('assigns centres from a roster file by hall name or id; an unknown centre stores nothing', async () => {
    hub.clock.set(EIGHT);
    const ibadan = await enrolledHall('Ibadan centre');
    const jos = await enrolledHall('Jos centre');
    const exam = await as('POST', '/hub/v1/exams', { ...samplePaper(startsAt), roster: [{ studentId: 'F-1', candidateName: 'Ada', pin: '1111' }] });
    await warmUploadReader(hub);
    const upload = (csv: string) => {
      const form = new FormData();
      form.set('file', new File([csv], 'roster.csv', { type: 'text/csv' }));
      return hub.app.request(`/hub/v1/exams/${exam.json.id}/roster/import`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    };
    const wrong = await upload(`studentId,candidateName,centre\nF-2,Bola,Ibadan centre\nF-3,Musa,Abeokuta\n`);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errors: unknown[] }).errors).toEqual([expect.objectContaining({ row: 3, column: 'centre' })]);
    expect((await as('GET', `/hub/v1/exams/${exam.json.id}`)).json.roster).toHaveLength(1);

    const ok = await upload(`Student ID,Name,Centre\nF-1,Ada Obi,  ibadan CENTRE \nF-2,Bola,${jos.hallId}\nF-3,Musa,\n`);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await ok.json()).toMatchObject({ created: 2, updated: 1, examVersion: 1, reissued: [] });
    const roster = (await as('GET', `/hub/v1/exams/${exam.json.id}`)).json.roster as { studentId: string; candidateName: string; pin: string; hallId: string | null }[];
    expect(roster.map((r) => [r.studentId, r.candidateName, r.hallId])).toEqual([['F-1', 'Ada Obi', ibadan.hallId], ['F-2', 'Bola', jos.hallId], ['F-3', 'Musa', null]]);
    expect(roster[0]!.pin).toBe('1111'); // kept

    // a workbook, its header spelt "Exam Centre": moves F-3 to Jos by name
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Candidates');
    ws.addRow(['Reg No', 'Candidate Name', 'Exam Centre']);
    ws.addRow(['F-3', 'Musa Bello', 'Jos centre']);
    const form = new FormData();
    form.set('file', new File([new Uint8Array(await wb.xlsx.writeBuffer())], 'roster.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
    const xlsx = await hub.app.request(`/hub/v1/exams/${exam.json.id}/roster/import`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    expect(xlsx.status, await xlsx.clone().text()).toBe(200);
    expect(((await as('GET', `/hub/v1/exams/${exam.json.id}`)).json.roster as { studentId: string; hallId: string }[]).find((r) => r.studentId === 'F-3')).toMatchObject({ hallId: jos.hallId });
  });

  it('refuses a candidate’s second sitting at another hall (409, audited) and flags it in the results', async () => {
    hub.clock.set(EIGHT);
    const lagos = await enrolledHall('Lagos sitting');
    const kano = await enrolledHall('Kano sitting');
    // unassigned candidates are in both halls' packages: the one-sitting rule protects them
    const exam = await as('POST', '/hub/v1/exams', { ...samplePaper(startsAt), roster: [{ studentId: 'S-1', candidateName: 'Ada' }, { studentId: 'S-2', candidateName: 'Bola' }] });
    const pub = await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [lagos.hallId, kano.hallId] });
    const lagosPkg = pkgOf(pub.json.packages, lagos);
    const kanoPkg = pkgOf(pub.json.packages, kano);
    hub.clock.set(Date.parse('2026-11-25T09:30:00Z'));

    expect(await lagos.request('POST', '/hub/v1/results', result(exam.json, lagosPkg.packageId, 'evt_lagos_s1', 'S-1'))).toMatchObject({ status: 200, json: { duplicate: false } });
    const second = await kano.request('POST', '/hub/v1/results', result(exam.json, kanoPkg.packageId, 'evt_kano_s1', 'S-1', '2026-11-25T09:25:00.000Z'));
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ code: 'SECOND_SITTING' });
    expect(second.json.detail).toContain('evt_lagos_s1');
    // in a batch: refused, and the batch's other event stored
    const batch = await kano.request('POST', '/hub/v1/results/batch', { events: [result(exam.json, kanoPkg.packageId, 'evt_kano_s1', 'S-1', '2026-11-25T09:25:00.000Z'), result(exam.json, kanoPkg.packageId, 'evt_kano_s2', 'S-2')] });
    expect(batch.json.results.map((r: { status: string }) => r.status)).toEqual(['refused', 'stored']);
    // the holding hall's own follow-up (a regrade of the same attempt) still goes through
    const regrade: ResultEvent = { ...result(exam.json, lagosPkg.packageId, 'evt_lagos_s1', 'S-1'), eventId: 'evt_lagos_s1b', type: 'exam.attempt.regraded', createdAt: '2026-11-25T09:21:00.000Z' };
    expect((await lagos.request('POST', '/hub/v1/results', regrade)).status).toBe(200);

    expect(await count(sql`select count(*)::int as n from hub_results where exam_id = ${exam.json.id} and student_id = 'S-1' and hall_id = ${kano.hallId}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from hub_audit where action = 'result-refused' and detail->>'code' = 'SECOND_SITTING' and hall_id = ${kano.hallId}`)).toBe(2);

    const results = await as('GET', `/hub/v1/exams/${exam.json.id}/results`);
    expect(results.json.candidates.map((c: { studentId: string; hallName: string }) => [c.studentId, c.hallName])).toEqual([['S-2', 'Kano sitting'], ['S-1', 'Lagos sitting']]);
    const ada = results.json.candidates.find((c: { studentId: string }) => c.studentId === 'S-1');
    expect(ada.flags).toEqual([expect.objectContaining({ code: 'SECOND_SITTING_REFUSED', hallId: kano.hallId, hallName: 'Kano sitting', eventId: 'evt_kano_s1', heldHallId: lagos.hallId, heldEventId: 'evt_lagos_s1' })]);
    expect(results.json.secondSittings).toHaveLength(1); // kept once per event id
  });

  it('stores one sitting per candidate when two halls send the same candidates at the same moment', async () => {
    hub.clock.set(EIGHT);
    const ikeja = await enrolledHall('Ikeja race');
    const enugu = await enrolledHall('Enugu race');
    const n = 24;
    const roster = Array.from({ length: n }, (_, i) => ({ studentId: `R-${i + 1}`, candidateName: `Racer ${i + 1}` }));
    const exam = await as('POST', '/hub/v1/exams', { ...samplePaper(startsAt), roster });
    const pub = await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [ikeja.hallId, enugu.hallId] });
    const ikejaPkg = pkgOf(pub.json.packages, ikeja);
    const enuguPkg = pkgOf(pub.json.packages, enugu);
    hub.clock.set(Date.parse('2026-11-25T09:30:00Z'));
    const batch = (hall: TestHall, packageId: string, tag: string, from: number, to: number) =>
      hall.request('POST', '/hub/v1/results/batch', { events: roster.slice(from, to).map((r) => result(exam.json, packageId, `evt_${tag}_${r.studentId}`, r.studentId)) });
    const one = (hall: TestHall, packageId: string, tag: string, studentId: string) => hall.request('POST', '/hub/v1/results', result(exam.json, packageId, `evt_${tag}_${studentId}`, studentId));
    // whole batches at once, halves of the roster crossed, then single results at once
    const sent = await Promise.all([batch(ikeja, ikejaPkg.packageId, 'ik', 0, 12), batch(enugu, enuguPkg.packageId, 'en', 0, 12), batch(enugu, enuguPkg.packageId, 'en', 12, 18), batch(ikeja, ikejaPkg.packageId, 'ik', 12, 18)]);
    for (const r of sent) expect(r.status, r.text).toBe(200);
    const singles = await Promise.all(roster.slice(18).flatMap((r) => [one(ikeja, ikejaPkg.packageId, 'ik', r.studentId), one(enugu, enuguPkg.packageId, 'en', r.studentId)]));
    expect(singles.map((r) => r.status).sort()).toEqual([...Array(n - 18).fill(200), ...Array(n - 18).fill(409)]);
    for (const r of singles.filter((x) => x.status === 409)) expect(r.json).toMatchObject({ code: 'SECOND_SITTING' });
    const refusedInBatches = sent.flatMap((r) => r.json.results as { status: string; error?: string }[]).filter((x) => x.status === 'refused');
    expect(refusedInBatches).toHaveLength(18);
    for (const x of refusedInBatches) expect(x.error).toMatch(/already has a result for this paper from another hall/);
    // every candidate has results from exactly one hall, and the sitting names that hall
    const perCandidate = (await hub.deps.db.execute(sql`select r.student_id, count(distinct r.hall_id)::int as halls, min(r.hall_id) as hall, min(s.hall_id) as claimed from hub_results r join hub_sittings s on s.exam_id = r.exam_id and s.student_id = r.student_id where r.exam_id = ${exam.json.id} group by r.student_id`)).rows as { halls: number; hall: string; claimed: string }[];
    expect(perCandidate).toHaveLength(n);
    for (const c of perCandidate) expect(c).toMatchObject({ halls: 1, claimed: c.hall });
    expect(await count(sql`select count(*)::int as n from hub_audit where action = 'result-refused' and detail->>'code' = 'SECOND_SITTING' and detail->>'examId' = ${exam.json.id}`)).toBe(n);
  });

  it('documents the roster routes in the hub’s OpenAPI document', async () => {
    const doc = (await (await hub.app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/hub/v1/exams/{id}/roster', '/hub/v1/exams/{id}/roster/{studentId}', '/hub/v1/exams/{id}/roster/assignments', '/hub/v1/exams/{id}/roster/import']));
    expect(Object.keys(doc.paths['/hub/v1/exams/{id}/roster/{studentId}']!)).toEqual(['patch']);
  });

  it('status: a release by typed code counts as released, and each hall expects its own candidates', async () => {
    hub.clock.set(EIGHT);
    const lagos = await enrolledHall('Lagos status');
    const kano = await enrolledHall('Kano status');
    const roster = [...Array.from({ length: 3 }, (_, i) => ({ studentId: `L-${i}`, candidateName: `L ${i}`, hallId: lagos.hallId })), { studentId: 'K-0', candidateName: 'K 0', hallId: kano.hallId }];
    const exam = await as('POST', '/hub/v1/exams', { ...samplePaper(startsAt), roster });
    await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [lagos.hallId, kano.hallId] });
    // a title edit and a republish: version 2 for both halls, whose rosters count once
    await as('PATCH', `/hub/v1/exams/${exam.json.id}`, { title: 'Board Mathematics mock (2)' });
    const v2 = await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, {});
    const lagosV2 = pkgOf(v2.json.packages, lagos);
    const code = parseReleaseCode(lagosV2.releaseCode);
    if (!code.ok) throw new Error('code');
    // Lagos types the code (no online release) and says so in its heartbeat, with the proof
    expect((await lagos.request('POST', '/hub/v1/heartbeat', { inProgress: 3, packages: [{ packageId: lagosV2.packageId, state: 'RELEASED', releaseProof: releaseProof(code.code, lagos.hallId, lagosV2.packageId) }] })).status).toBe(204);
    // Kano (an older hall: no proof) only says RELEASED: not counted, but not hidden either
    const kanoV2 = pkgOf(v2.json.packages, kano);
    expect((await kano.request('POST', '/hub/v1/heartbeat', { inProgress: 1, packages: [{ packageId: kanoV2.packageId, state: 'RELEASED' }] })).status).toBe(204);
    const status = (await as('GET', '/hub/v1/halls')).json as { id: string }[];
    expect(status.find((h) => h.id === lagos.hallId)).toMatchObject({ packagesPublished: 2, examsReleased: 1, releasesUnproven: 0, attemptsInProgress: 3, resultsExpected: 3 });
    expect(status.find((h) => h.id === kano.hallId)).toMatchObject({ packagesPublished: 2, examsReleased: 0, releasesUnproven: 1, resultsExpected: 1 });
  });
});
