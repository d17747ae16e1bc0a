/**
 * A hall revoked before release (a stolen machine; docs/hub.md, "Trust model") does not stop
 * the board's edits: on a real PostgreSQL, a paper published to two halls, one of them revoked
 * and not yet replaced, still takes an edit and a candidate's move to the other hall, each
 * sealed at once for both halls (docs/hub.md, "Editing after publication"); the replacement
 * machine, enrolled with the new code, fetches the newest version under the same release code.
 */
import { describe, expect, it } from 'vitest';
import { pgAvailability } from '../pg/cluster.js';
import { TestHall, asExaminer, hubForSuite, samplePaper, type SuiteHub } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('a revoked hall and the board’s edits', () => {
  let hub: SuiteHub['hub'];
  let key: string;
  hubForSuite((started) => ({ hub, key } = started));

  it('an edit and a move are sealed for every hall, the revoked one too; its replacement fetches the newest', async () => {
    const as = (method: string, path: string, body?: unknown) => asExaminer(hub, key, method, path, body);
    const halls: { id: string; hall: TestHall }[] = [];
    for (const name of ['Ikeja centre', 'Abuja centre']) {
      const made = await as('POST', '/hub/v1/halls', { name });
      const hall = new TestHall(hub);
      expect(await hall.enrol(made.json.enrolmentCode)).toBe(200);
      halls.push({ id: made.json.id, hall });
    }
    const [ikeja, abuja] = halls as [(typeof halls)[number], (typeof halls)[number]];
    const paper = samplePaper('2026-11-25T09:00:00.000Z');
    const exam = await as('POST', '/hub/v1/exams', { ...paper, roster: paper.roster.map((r, i) => ({ ...r, hallId: halls[i]!.id })) });
    expect(exam.status).toBe(201);
    const published = await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [ikeja.id, abuja.id] });
    expect(published.status).toBe(200);
    const codeOf = (hallId: string) => (published.json.packages as { hallId: string; releaseCode: string }[]).find((p) => p.hallId === hallId)!.releaseCode;

    // Ikeja's machine is stolen: the board revokes it; the replacement is not there yet
    const revoked = await as('POST', `/hub/v1/halls/${ikeja.id}/revoke`);
    expect(revoked.status).toBe(200);

    const edited = await as('PATCH', `/hub/v1/exams/${exam.json.id}`, { durationMins: 40 });
    expect(edited.status).toBe(200);
    expect(edited.json.version).toBe(2);
    const moved = await as('PATCH', `/hub/v1/exams/${exam.json.id}/roster/BRD-001`, { hallId: abuja.id });
    expect(moved.status).toBe(200);
    expect((moved.json.reissued as { hallId: string; version: number }[]).map((p) => [p.hallId, p.version]).sort()).toEqual([[abuja.id, 3], [ikeja.id, 3]].sort());

    // the replacement enrols with the new code and fetches version 3, which Ikeja's old release code opens
    const replacement = new TestHall(hub);
    expect(await replacement.enrol(revoked.json.enrolmentCode)).toBe(200);
    const listed = (await replacement.request('GET', '/hub/v1/packages')).json as { packageId: string; version: number }[];
    expect(listed[0]!.version).toBe(3);
    expect((await replacement.request('GET', `/hub/v1/packages/${listed[0]!.packageId}`)).status).toBe(200);
    const codes = (await as('GET', `/hub/v1/exams/${exam.json.id}/release-codes`)).json as { hallId: string; version: number; releaseCode: string }[];
    expect(codes.filter((c) => c.hallId === ikeja.id).map((c) => c.releaseCode)).toEqual([codeOf(ikeja.id), codeOf(ikeja.id), codeOf(ikeja.id)]);
    // a first publication to a hall that never enrolled is still refused
    const unenrolled = await as('POST', '/hub/v1/halls', { name: 'Kano centre' });
    expect((await as('POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [unenrolled.json.id] })).status).toBe(409);
  }, 120_000);
});
