/**
 * A UTME paper authored on the hub (issue 37's leftovers; docs/operations.md §13) with a real
 * hub (PostgreSQL) and a real hall on loopback: the board's exam has sections with draws,
 * optional subjects and the calculator, its roster subjects and extra time; the sealed
 * package carries them (a v2 paper), the hall's release applies them, a candidate starts
 * with their subjects' draws, their extra time and the calculator, and the result reaches
 * the hub with the hub's own per-section scores. The hall's rules refuse, on the hub, a
 * subject that is not a section, a question outside the sections and a draw too large.
 */
import { describe, expect, it } from 'vitest';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { api, registerWorkspace, startAttempt, type TestServer } from '../harness.js';
import { pgAvailability } from '../pg/cluster.js';
import { asExaminer, hubServedWithHall, warmUploadReader, type ServedHubAndHall } from './helpers.js';

const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

const mcq = (section: string, n: number) => ({ prompt: `${section} question ${n}: pick the right one.`, type: 'MCQ', marks: 1, section, options: [{ text: `right ${section} ${n}`, isCorrect: true }, { text: `wrong ${section} ${n}` }] });

describe.skipIf(skipWhy !== null)('a UTME paper from the hub', () => {
  let hub: ServedHubAndHall['hub'];
  let hall: TestServer;
  let hubUrl: string;
  hubServedWithHall((started) => ({ hub, hall, hubUrl } = started));

  it('carries sections, draws, subjects, extra time and the calculator to a hall, and section scores back', async () => {
    const key = hub.firstExaminer!.apiKey;
    const ws = await registerWorkspace(hall.baseUrl);
    const hallApi = api(hall.baseUrl, ws.apiKey);
    const centre = await asExaminer(hub, key, 'POST', '/hub/v1/halls', { name: 'Ibadan centre' });
    const enrolled = await hallApi.post('/hub-link/enrol', { hubUrl, enrolmentCode: centre.json.enrolmentCode, hallName: 'Ibadan' }, { 'x-operator-key': rotateOperatorCredential(hall.dataDir) });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);

    const sections = [{ name: 'Use of English', draw: 2 }, { name: 'Mathematics', draw: 1, compulsory: false }, { name: 'Physics', draw: 1, compulsory: false }, { name: 'Chemistry', compulsory: false }];
    const questions = [...[1, 2, 3, 4].map((n) => mcq('Use of English', n)), ...[1, 2, 3].map((n) => mcq('Mathematics', n)), ...[1, 2].map((n) => mcq('Physics', n)), mcq('Chemistry', 1)];
    const roster = [
      { studentId: 'UTME-001', candidateName: 'Chika Eze', pin: '1357', subjects: ['mathematics', 'Physics'], extraTimePercent: 50, extraTimeMins: 5 },
      { studentId: 'UTME-002', candidateName: 'Dayo Bello', pin: '2468' },
    ];
    const base = { title: 'UTME mock (board)', durationMins: 60, startsAt: new Date(Date.now() - 60_000).toISOString(), endsAt: new Date(Date.now() + 3 * 3600_000).toISOString(), calculator: 'scientific', sections, questions, roster };

    // the hall's rules, on the hub: a subject that is not a section, a question naming none
    const badSubject = await asExaminer(hub, key, 'POST', '/hub/v1/exams', { ...base, roster: [{ ...roster[0], subjects: ['Biology'] }] });
    expect(badSubject.status, badSubject.text).toBe(400);
    expect(badSubject.json.errors).toEqual([expect.objectContaining({ path: 'roster[0].subjects', message: expect.stringContaining('"Biology" is not a section') })]);
    const noSection = await asExaminer(hub, key, 'POST', '/hub/v1/exams', { ...base, questions: [...questions, { ...mcq('Biology', 1) }] });
    expect(noSection.status, noSection.text).toBe(400);
    expect(noSection.json.errors).toEqual([expect.objectContaining({ index: 10, message: expect.stringContaining('no section "Biology"') })]);
    const badSections = await asExaminer(hub, key, 'POST', '/hub/v1/exams', { ...base, sections: [...sections, { name: 'physics' }] });
    expect(badSections.status, badSections.text).toBe(400);

    // a draw larger than its section stops the publication, as on a hall; PATCH holds the hall's rules too
    const later = await asExaminer(hub, key, 'POST', '/hub/v1/exams', { ...base, startsAt: new Date(Date.now() + 86_400_000).toISOString(), endsAt: null, sections: [{ ...sections[0], draw: 5 }, ...sections.slice(1)] });
    expect(later.status, later.text).toBe(201);
    const tooLarge = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${later.json.id}/publish`, { hallIds: [centre.json.id] });
    expect(tooLarge.status, tooLarge.text).toBe(409);
    expect(tooLarge.json.code).toBe('SECTION_DRAW_TOO_LARGE');
    const dropChemistry = await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${later.json.id}`, { sections: sections.slice(0, 3) });
    expect(dropChemistry.status, dropChemistry.text).toBe(400);
    const fixed = await asExaminer(hub, key, 'PATCH', `/hub/v1/exams/${later.json.id}`, { sections, calculator: 'basic' });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await asExaminer(hub, key, 'GET', `/hub/v1/exams/${later.json.id}`)).json).toMatchObject({ calculator: 'basic', sections: [{ name: 'Use of English', draw: 2 }, {}, {}, {}] });

    // the hall's roster file columns: subjects (checked against the sections, by row) and extra time
    await warmUploadReader(hub);
    const upload = (csv: string) => {
      const form = new FormData();
      form.set('file', new File([csv], 'roster.csv', { type: 'text/csv' }));
      return hub.app.request(`/hub/v1/exams/${later.json.id}/roster/import`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    };
    const wrongFile = await upload('Student ID,Name,Subjects,Extra time %,Extra minutes\nUTME-010,Femi Ade,Mathematics;Biology,,\n');
    expect(wrongFile.status).toBe(400);
    expect(((await wrongFile.json()) as { errors: unknown[] }).errors).toEqual([expect.objectContaining({ row: 2, column: 'subjects', message: expect.stringContaining('"Biology" is not a section') })]);
    const goodFile = await upload('Student ID,Name,Subjects,Extra time %,Extra minutes\nUTME-010,Femi Ade,physics; Chemistry,25%,10\n');
    expect(goodFile.status, await goodFile.clone().text()).toBe(200);
    const rosterView = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${later.json.id}/roster`);
    expect(rosterView.json.candidates.find((c: { studentId: string }) => c.studentId === 'UTME-010')).toMatchObject({ subjects: ['Physics', 'Chemistry'], extraTimePercent: 25, extraTimeMins: 10 });

    const exam = await asExaminer(hub, key, 'POST', '/hub/v1/exams', base);
    expect(exam.status, exam.text).toBe(201);
    expect(exam.json).toMatchObject({ calculator: 'scientific', sections: [{ name: 'Use of English', draw: 2, compulsory: true }, { name: 'Mathematics', draw: 1, compulsory: false }, { name: 'Physics', draw: 1, compulsory: false }, { name: 'Chemistry', draw: null, compulsory: false }] });
    expect(exam.json.roster[0]).toMatchObject({ subjects: ['Mathematics', 'Physics'], extraTimePercent: 50, extraTimeMins: 5 });

    const pub = await asExaminer(hub, key, 'POST', `/hub/v1/exams/${exam.json.id}/publish`, { hallIds: [centre.json.id] });
    expect(pub.status, pub.text).toBe(200);
    const { packageId, releaseCode } = pub.json.packages[0];
    const file = JSON.parse((await asExaminer(hub, key, 'GET', `/hub/v1/package-files/${packageId}`)).text);
    expect((await hallApi.post('/hub-link/packages', file)).status).toBe(201);
    const released = await hallApi.post(`/hub-link/packages/${packageId}/release`, { releaseCode });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const examId = released.body.examId as string;
    const hallExam = (await hallApi.get(`/exams/${examId}`)).body;
    expect(hallExam).toMatchObject({ calculator: 'scientific', sections: [{ name: 'Use of English', draw: 2, compulsory: true }, { name: 'Mathematics', draw: 1, compulsory: false }, { name: 'Physics', draw: 1, compulsory: false }, { name: 'Chemistry', draw: null, compulsory: false }] });

    // Chika sits English, Mathematics and Physics (her subjects), drawn; 60 × 1.5 + 5 minutes; the calculator
    const chika = await startAttempt(hall.baseUrl, hallExam.accessCode, 'UTME-001', '1357', 'Chika Eze');
    const sat = chika.sections as { name: string; questionIds: string[] }[];
    expect(sat.map((s) => [s.name, s.questionIds.length])).toEqual([['Use of English', 2], ['Mathematics', 1], ['Physics', 1]]);
    expect(chika.questions).toHaveLength(4);
    expect(chika.calculator).toBe('scientific');
    expect(chika.remainingSeconds).toBeGreaterThan(95 * 60 - 30);
    expect(chika.remainingSeconds).toBeLessThanOrEqual(95 * 60);
    expect(chika).toMatchObject({ extraTimePercent: 50, extraTimeMins: 5 });
    // Dayo lists no subjects: every section, one clock of 60 minutes
    const dayo = await startAttempt(hall.baseUrl, hallExam.accessCode, 'UTME-002', '2468', 'Dayo Bello');
    expect((dayo.sections as { name: string; questionIds: string[] }[]).map((s) => [s.name, s.questionIds.length])).toEqual([['Use of English', 2], ['Mathematics', 1], ['Physics', 1], ['Chemistry', 1]]);
    expect(dayo.remainingSeconds).toBeLessThanOrEqual(60 * 60);

    // Chika answers English right and the rest wrong
    let seq = 0;
    for (const q of chika.questions) {
      const english = sat[0]!.questionIds.includes(q.id);
      const option = q.options.find((o) => o.text.startsWith(english ? 'right' : 'wrong'))!;
      expect((await api(hall.baseUrl).put(`/attempts/${chika.attemptId}/answers/${q.id}`, { optionId: option.id, seq: ++seq })).status).toBe(200);
    }
    expect((await api(hall.baseUrl).post(`/attempts/${chika.attemptId}/submit`, {})).status).toBe(200);
    const sync = await hallApi.post('/hub-link/sync', {});
    expect(sync.body).toMatchObject({ resultsDelivered: 1, error: null });

    // the hub graded her sitting (4 questions, not the paper's 10) and stores its own section scores
    const results = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.json.id}/results`);
    expect(results.status, results.text).toBe(200);
    const mine = results.json.candidates.find((c: { studentId: string }) => c.studentId === 'UTME-001');
    expect(mine).toMatchObject({ score: 2, maxScore: 4, percentage: 50, hallClaim: null });
    expect(mine.sectionScores).toEqual([
      { section: 'Use of English', score: 2, maxScore: 2 },
      { section: 'Mathematics', score: 0, maxScore: 1 },
      { section: 'Physics', score: 0, maxScore: 1 },
    ]);
    const csv = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.json.id}/results.csv`);
    expect(csv.status).toBe(200);
    expect(csv.text.split('\n')[0]).toContain('Use of English');

    // item analysis across halls counts an item only for the candidates who were given it
    // (issue 37 §2): Chika's 4 questions have her as their candidate, the paper's other 6 nobody
    const analysis = await asExaminer(hub, key, 'GET', `/hub/v1/exams/${exam.json.id}/analysis`);
    expect(analysis.status, analysis.text).toBe(200);
    const given = new Set(chika.questions.map((q) => q.id));
    const items = analysis.json.questions as { questionId: string; candidates: number }[];
    expect(items).toHaveLength(10);
    for (const item of items) expect([item.questionId, item.candidates]).toEqual([item.questionId, given.has(item.questionId) ? 1 : 0]);
  }, 180_000);
});
