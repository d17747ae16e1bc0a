/**
 * Issue 38 item 2 (and item 6's status) with a real hub (PostgreSQL) and a real hall on
 * loopback: a hall starts with 30 credits, and the hub's candidates beyond them used to get
 * 402. Publishing now grants the hall one credit per candidate of its package, signed in the
 * package; the hall adds them when it releases the paper, once — a USB package loaded twice
 * and syncs repeated grant nothing more — so all 40 candidates of a 40-name roster start.
 * The hall released by typed code counts as released in the hub's status view, which
 * expects the hall's own 40 candidates (not the roster of the other hall's).
 */
import { describe, expect, it } from 'vitest';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { api, registerWorkspace, startAttempt, type TestServer } from '../harness.js';
import { pgAvailability } from '../pg/cluster.js';
import { asExaminer, hubServedWithHall, samplePaper, type ServedHubAndHall } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('credits that come with the paper', () => {
  let hub: ServedHubAndHall['hub'];
  let hall: TestServer;
  let hubUrl: string;
  hubServedWithHall((started) => ({ hub, hall, hubUrl } = started));

  it('a 30-credit hall starts all 40 of its candidates; the grant is added once', async () => {
    const key = hub.firstExaminer!.apiKey;
    const ws = await registerWorkspace(hall.baseUrl);
    const hallApi = api(hall.baseUrl, ws.apiKey);
    const credits = () => (hall.deps.sqlite.prepare('SELECT credits FROM workspaces WHERE id = ?').get(ws.id) as { credits: number }).credits;
    const hubGrants = () => (hall.deps.sqlite.prepare("SELECT count(*) AS n FROM audit_log WHERE workspace_id = ? AND action = 'credits.add' AND detail_json LIKE '%\"by\":\"hub\"%'").get(ws.id) as { n: number }).n;
    expect(credits()).toBe(30);

    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Abuja centre' });
    const other = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Other centre (not enrolled)' });
    const enrolled = await hallApi.post('/hub-link/enrol', { hubUrl, enrolmentCode: created.json.enrolmentCode, hallName: 'Abuja' }, { 'x-operator-key': rotateOperatorCredential(hall.dataDir) });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);

    // 40 candidates at this hall, 5 at another: this hall's package carries its 40
    const roster = [
      ...Array.from({ length: 40 }, (_, i) => ({ studentId: `ABJ-${String(i + 1).padStart(3, '0')}`, candidateName: `Abuja candidate ${i + 1}`, pin: '2468', hallId: created.json.id })),
      ...Array.from({ length: 5 }, (_, i) => ({ studentId: `OTH-${i + 1}`, candidateName: `Other candidate ${i + 1}`, hallId: other.json.id })),
    ];
    const paper = { ...samplePaper(new Date(Date.now() - 60_000).toISOString()), endsAt: new Date(Date.now() + 2 * 3600_000).toISOString(), roster };
    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', paper);
    expect(exam.status, exam.text).toBe(201);
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [created.json.id] });
    expect(pub.json.packages[0]).toMatchObject({ candidates: 40, credits: 40 });
    const { packageId, releaseCode } = pub.json.packages[0];

    // the USB file, loaded twice; then the sync brings the same package again
    const file = JSON.parse((await asExaminer(hub, key, 'GET', `/hub/v1/package-files/${packageId}`)).text);
    expect((await hallApi.post('/hub-link/packages', file)).status).toBe(201);
    expect((await hallApi.post('/hub-link/packages', file)).status).toBe(200);
    expect(credits()).toBe(30); // granted with the paper's release, not before

    const released = await hallApi.post(`/hub-link/packages/${packageId}/release`, { releaseCode });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(credits()).toBe(70);
    for (let i = 0; i < 2; i++) expect((await hallApi.post('/hub-link/sync', {})).body).toMatchObject({ error: null });
    expect((await hallApi.post('/hub-link/packages', file)).status).toBe(200);
    expect(credits()).toBe(70);
    expect(hubGrants()).toBe(1);

    // every one of the 40 starts (before: candidates 31–40 got 402)
    const examId = released.body.examId as string;
    const accessCode = (await hallApi.get(`/exams/${examId}`)).body.accessCode as string;
    for (const c of roster.slice(0, 40)) await startAttempt(hall.baseUrl, accessCode, c.studentId, '2468', c.candidateName);
    expect(credits()).toBe(30);

    // the hub's status: released by typed code (proved in the sync's heartbeat), 40 expected here
    const status = (await asExaminer(hub, key, 'GET', '/hub/v1/halls')).json as { id: string }[];
    expect(status.find((h) => h.id === created.json.id)).toMatchObject({ examsReleased: 1, resultsExpected: 40, packagesReported: [expect.objectContaining({ packageId, state: 'RELEASED' })] });
  }, 180_000);
});
