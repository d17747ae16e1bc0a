/**
 * QTI 3.0 on the hub (issue 38 item 4), on a real PostgreSQL: the hand-written content
 * package imports every type into a hub exam through POST /hub/v1/exams/{id}/questions/import,
 * and GET /hub/v1/exams/{id}/questions.qti.zip imports back into another hub exam as the
 * same questions; a DOCTYPE in the package is a 400 that changes nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { pgAvailability } from '../pg/cluster.js';
import { ROUND_TRIP_QUESTIONS, comparable, expectFixtureImport, fixturePackage } from '../imports/qti-fixtures.js';
import { asExaminer, hubForSuite, warmUploadReader, type SuiteHub } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('QTI 3.0 on the hub (PostgreSQL)', () => {
  let hub: SuiteHub['hub'];
  let key: string;
  hubForSuite((started) => ({ hub, key } = started));
  // the import reads the package in the job process: warm it before each test's clock (helpers.ts)
  beforeEach(() => warmUploadReader(hub), 120_000);

  const as = (method: string, path: string, body?: unknown) => asExaminer(hub, key, method, path, body);
  async function emptyExam(title: string): Promise<string> {
    const r = await as('POST', '/hub/v1/exams', { title, durationMins: 40, startsAt: '2026-12-01T09:00:00.000Z', roster: [{ studentId: 'SC-001', candidateName: 'Ngozi Okafor', pin: '2468' }] });
    expect(r.status, r.text).toBe(201);
    return r.json.id as string;
  }
  async function importZip(examId: string, bytes: Uint8Array, name = 'package.zip') {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await hub.app.request(`/hub/v1/exams/${examId}/questions/import`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
    return { status: res.status, json: (await res.json()) as any };
  }
  const questionsOf = async (examId: string) => (await as('GET', `/hub/v1/exams/${examId}/questions`)).json as any[];

  it('imports the content package: every type, two sections, refused items named', async () => {
    const examId = await emptyExam('Mock Science');
    const r = await importZip(examId, await fixturePackage());
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expectFixtureImport(r.json);
    expect(r.json.examVersion).toBe(1);
    expect((await questionsOf(examId)).map((q) => q.type)).toEqual(['MCQ', 'MCQ', 'TRUE_FALSE', 'LONG_ESSAY', 'SHORT_ESSAY']);
  });

  it('exports a hub exam as a QTI 3.0 package that imports back to the same questions', async () => {
    const source = await emptyExam('Board Mathematics');
    const added = await as('POST', `/hub/v1/exams/${source}/questions/bulk`, { questions: ROUND_TRIP_QUESTIONS });
    expect(added.status, added.text).toBe(201);
    const res = await hub.app.request(`/hub/v1/exams/${source}/questions.qti.zip`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('Board_Mathematics_qti.zip');
    const target = await emptyExam('Board Mathematics (copy)');
    const r = await importZip(target, new Uint8Array(await res.arrayBuffer()));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.skipped).toEqual([]);
    expect((await questionsOf(target)).map(comparable)).toEqual((await questionsOf(source)).map(comparable));
  });

  it('a DOCTYPE in the package is refused (400) and changes nothing', async () => {
    const examId = await emptyExam('Hostile');
    const bytes = await fixturePackage((f) => f.set('items/osmosis.xml', f.get('items/osmosis.xml')!.replace('<qti-assessment-item', '<!DOCTYPE qti-assessment-item [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<qti-assessment-item')));
    const r = await importZip(examId, bytes);
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(r.json.detail).toMatch(/DOCTYPE/);
    expect(await questionsOf(examId)).toEqual([]);
  });
});
