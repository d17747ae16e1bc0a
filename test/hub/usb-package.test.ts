/**
 * Issue #34, finding 9a: a hall could not load the USB package of a large exam — a
 * 12,000-candidate package is 1.5 MB and the hall's 1 MB JSON limit refused it, while the
 * hub allows rosters of 20,000. A real hub (PostgreSQL) seals an exam with a 20,000-candidate
 * roster for a hall; the hall loads the package file through POST /hub-link/packages and
 * releases it with the typed code: the exam has all 20,000 candidates. Other routes keep
 * their 1 MB limit.
 */
import { describe, expect, it } from 'vitest';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { api, registerWorkspace, type TestServer } from '../harness.js';
import { pgAvailability } from '../pg/cluster.js';
import { asExaminer, hubServedWithHall, samplePaper, type ServedHubAndHall } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

/** The hub's largest roster (src/hub/exams.ts, hubExamInputSchema), with realistic names. */
const ROSTER = 20_000;
const roster = Array.from({ length: ROSTER }, (_, i) => ({ studentId: `WAEC-2026-${String(i + 1).padStart(6, '0')}`, candidateName: `Oluwaseun Adebayo-Okonkwo ${i + 1}` }));

describe.skipIf(skipWhy !== null)('a USB package of the hub’s largest roster', () => {
  let hub: ServedHubAndHall['hub'];
  let hall: TestServer;
  let hubUrl: string;
  hubServedWithHall((started) => ({ hub, hall, hubUrl } = started));

  it('loads a 20,000-candidate package and releases it; other routes keep 1 MB', async () => {
    const key = hub.firstExaminer!.apiKey;
    const ws = await registerWorkspace(hall.baseUrl);
    const hallApi = api(hall.baseUrl, ws.apiKey);
    const created = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'National stadium centre' });
    const enrolled = await hallApi.post('/hub-link/enrol', { hubUrl, enrolmentCode: created.json.enrolmentCode, hallName: 'Stadium' }, { 'x-operator-key': rotateOperatorCredential(hall.dataDir) });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);

    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', { ...samplePaper(new Date(Date.now() + 3600_000).toISOString()), roster });
    expect(exam.status, exam.text.slice(0, 500)).toBe(201);
    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [created.json.id] });
    const { packageId, releaseCode } = pub.json.packages[0];
    const file = (await asExaminer(hub, key, 'GET', `/hub/v1/package-files/${packageId}`)).text;
    const bytes = Buffer.byteLength(file);
    console.log(`package file of ${ROSTER} candidates: ${bytes} bytes (${(bytes / 1048576).toFixed(2)} MB)`);
    expect(bytes).toBeGreaterThan(1024 * 1024);

    const res = await fetch(`${hall.baseUrl}/hub-link/packages`, { method: 'POST', headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: file });
    expect(res.status, await res.clone().text()).toBe(201);
    const released = await hallApi.post(`/hub-link/packages/${packageId}/release`, { releaseCode });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const n = hall.deps.sqlite.prepare('SELECT count(*) AS n FROM roster_entries WHERE exam_id = ?').get(released.body.examId) as { n: number };
    expect(n.n).toBe(ROSTER);

    // the larger limit is this route's alone
    const big = await fetch(`${hall.baseUrl}/exams`, { method: 'POST', headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: file });
    expect(big.status).toBe(413);
  }, 180_000);
});
