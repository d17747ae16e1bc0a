/**
 * A JAMB-style sitting (issue 37 items 1–4): `sections` on POST/PATCH /exams and the exam's
 * JSON; questions must name one of the exam's sections (400 naming the question); a
 * section's `draw` gives each candidate n of its questions, drawn once at start from the
 * attempt's seed and the same on every resume; a draw larger than the section is refused at
 * publish and at start; roster `subjects` (POST and CSV import) choose the optional sections,
 * unknown names refused; the start response lists the candidate's sections in order. An exam
 * without sections works as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { addQuestions, api, createExam, registerWorkspace, sampleMcqs, startAttempt, startTestServer, type TestServer } from '../harness.js';
import { upload } from '../imports/http.js';
import { sendFrom } from '../security/from-address.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startTestServer();
  ws = await registerWorkspace(s.baseUrl); // 30 credits: the starts below use 14
});
afterAll(() => s.close());

const JAMB = [
  { name: 'Use of English', draw: 3 },
  { name: 'Physics', draw: 2, compulsory: false },
  { name: 'Chemistry', compulsory: false },
  { name: 'Biology', draw: 2, compulsory: false },
];
const COUNTS: Record<string, number> = { 'Use of English': 6, Physics: 4, Chemistry: 2, Biology: 3 };

/** MCQs named `<section> n`, in the section's order, key A. */
function sectionQuestions(section: string, n: number) {
  return sampleMcqs(n).map((q, i) => ({ ...q, prompt: `${section} ${i + 1}`, section }));
}

/** An exam with the JAMB-like sections and their questions; returns it and its question ids by section. */
async function jambExam(overrides: Record<string, unknown> = {}) {
  const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { sections: JAMB, ...overrides });
  const bySection: Record<string, string[]> = {};
  for (const [name, n] of Object.entries(COUNTS)) bySection[name] = (await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sectionQuestions(name, n))).map((q) => q.id);
  return { exam: e, bySection };
}

type Started = Awaited<ReturnType<typeof startAttempt>> & { sections?: { name: string; questionIds: string[] }[] };

describe('sections on the exam', () => {
  it('are stored in order with their defaults, changed by PATCH, cleared by [] and copied by duplicate', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { sections: [{ name: ' Use of English ', draw: 40 }, { name: 'Physics', compulsory: false }] });
    expect(e.sections).toEqual([
      { name: 'Use of English', draw: 40, compulsory: true },
      { name: 'Physics', draw: null, compulsory: false },
    ]);
    expect((await k.get(`/exams/${e.id}`)).body.sections).toEqual(e.sections);
    const p = await k.patch(`/exams/${e.id}`, { sections: [{ name: 'Mathematics' }] });
    expect(p.status).toBe(200);
    expect(p.body.sections).toEqual([{ name: 'Mathematics', draw: null, compulsory: true }]);
    expect((await k.patch(`/exams/${e.id}`, { title: 'Other' })).body.sections).toEqual([{ name: 'Mathematics', draw: null, compulsory: true }]);
    expect((await k.post(`/exams/${e.id}/duplicate`, {})).body.sections).toEqual([{ name: 'Mathematics', draw: null, compulsory: true }]);
    expect((await k.patch(`/exams/${e.id}`, { sections: [] })).body.sections).toEqual([]);
    expect((await createExam(s.baseUrl, ws.apiKey, ws.id)).sections).toEqual([]);
  });

  it('refuses bad sections with a 400 naming the field, changing nothing', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { sections: [{ name: 'Physics' }] });
    for (const bad of [[{ name: '' }], [{ name: 'x'.repeat(61) }], [{ name: 'A', draw: 0 }], [{ name: 'A', draw: 1.5 }], [{ name: 'Physics' }, { name: 'physics' }], [{ name: 'A, B' }], [{ name: 'A', extra: 1 }], [{ name: 'A', compulsory: 'yes' }]]) {
      const r = await k.patch(`/exams/${e.id}`, { sections: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(JSON.stringify(r.body.errors)).toContain('sections');
    }
    expect((await k.get(`/exams/${e.id}`)).body.sections).toEqual([{ name: 'Physics', draw: null, compulsory: true }]);
  });

  it('refuses a question naming a section the exam does not have (400 naming the question), in bulk and by PATCH', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { sections: [{ name: 'Physics' }, { name: 'Chemistry' }] });
    const bulk = await k.post('/questions/bulk', { workspaceId: ws.id, examId: e.id, questions: [...sectionQuestions('Physics', 1), ...sectionQuestions('Biology', 1), sampleMcqs(1)[0]] });
    expect(bulk.status).toBe(400);
    expect(bulk.body.errors).toEqual([
      { index: 1, path: 'section', message: expect.stringContaining('no section "Biology"') },
      { index: 2, path: 'section', message: expect.stringContaining('must name one of them') },
    ]);
    expect((await k.get(`/exams/${e.id}`)).body.questions).toHaveLength(0);
    const [q] = await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sectionQuestions('Physics', 1));
    const moved = await k.patch(`/questions/${q!.id}`, { section: 'Geography' });
    expect(moved.status).toBe(400);
    expect(moved.body.detail).toContain(q!.id);
    expect(moved.body.detail).toContain('Geography');
    expect((await k.patch(`/questions/${q!.id}`, { section: 'Chemistry' })).status).toBe(200);
    // sections that the questions no longer fit are refused too, naming the question
    const narrowed = await k.patch(`/exams/${e.id}`, { sections: [{ name: 'Physics' }] });
    expect(narrowed.status).toBe(400);
    expect(JSON.stringify(narrowed.body.errors)).toContain(q!.id);
    expect((await k.get(`/exams/${e.id}`)).body.sections).toHaveLength(2);
  });

  it('without sections, questions may name any section and the start response has no sections', async () => {
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id);
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, [...sectionQuestions('Anything', 2), ...sampleMcqs(1)]);
    const a = (await startAttempt(s.baseUrl, e.accessCode, 'PLAIN-1')) as Started;
    expect(a.questions).toHaveLength(3);
    expect(a.sections).toBeUndefined();
  });
});

describe('draws', () => {
  it('give each candidate n questions of the section, listed by section in order, the same on every resume', async () => {
    const { exam, bySection } = await jambExam();
    const a = (await startAttempt(s.baseUrl, exam.accessCode, 'DRAW-1')) as Started;
    expect(a.sections!.map((x) => x.name)).toEqual(['Use of English', 'Physics', 'Chemistry', 'Biology']);
    expect(a.sections!.map((x) => x.questionIds.length)).toEqual([3, 2, 2, 2]);
    for (const sec of a.sections!) for (const id of sec.questionIds) expect(bySection[sec.name]).toContain(id);
    // the questions come section after section, each carrying its section
    expect(a.questions.map((q) => q.id)).toEqual(a.sections!.flatMap((x) => x.questionIds));
    expect(a.questions.map((q) => (q as { section?: string }).section)).toEqual(a.sections!.flatMap((x) => x.questionIds.map(() => x.name)));
    const again = (await startAttempt(s.baseUrl, exam.accessCode, 'DRAW-1')) as Started;
    expect(again.isResumed).toBe(true);
    expect(again.sections).toEqual(a.sections);
    expect(again.questions.map((q) => q.id)).toEqual(a.questions.map((q) => q.id));
    // on another computer (any PC): the same
    const elsewhere = await sendFrom('127.0.9.9', s.baseUrl, 'POST', '/attempts/start', { accessCode: exam.accessCode, studentId: 'DRAW-1', candidateName: 'x', candidatePin: '1234' });
    expect(elsewhere.status).toBe(200);
    expect((elsewhere.body as Started).sections).toEqual(a.sections);
    // and in the poll
    expect((await api(s.baseUrl).get(`/attempts/${a.attemptId}`)).body.sections).toEqual(a.sections);
  });

  it('with shuffled questions, shuffle within each section: the sections stay whole and in order', async () => {
    const { exam, bySection } = await jambExam({ shuffleQuestions: true });
    const a = (await startAttempt(s.baseUrl, exam.accessCode, 'SHUF-1')) as Started;
    expect(a.sections!.map((x) => x.name)).toEqual(['Use of English', 'Physics', 'Chemistry', 'Biology']);
    expect(a.questions.map((q) => q.id)).toEqual(a.sections!.flatMap((x) => x.questionIds));
    expect([...a.sections![2]!.questionIds].sort()).toEqual([...bySection.Chemistry!].sort());
  });

  it('differ between candidates', async () => {
    const { exam } = await jambExam();
    const papers = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const a = (await startAttempt(s.baseUrl, exam.accessCode, `DIFF-${i}`)) as Started;
      papers.add(JSON.stringify(a.sections));
    }
    // 15 × 6 × 3 = 270 possible papers: 8 candidates with one paper would be a broken draw
    expect(papers.size).toBeGreaterThan(1);
  });

  it('larger than the section are refused at publish (409) and at start (409), never later', async () => {
    const k = api(s.baseUrl, ws.apiKey);
    const e = await createExam(s.baseUrl, ws.apiKey, ws.id, { isPublished: false, sections: [{ name: 'Physics', draw: 3 }] });
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, e.id, sectionQuestions('Physics', 2));
    const pub = await k.patch(`/exams/${e.id}`, { isPublished: true });
    expect(pub.status).toBe(409);
    expect(pub.body.code).toBe('SECTION_DRAW_TOO_LARGE');
    expect(pub.body.detail).toContain('Section "Physics" draws 3 questions for each candidate but has 2.');
    expect((await k.get(`/exams/${e.id}`)).body.isPublished).toBe(false);
    // published another way (sections changed after publishing): the start refuses it
    await k.patch(`/exams/${e.id}`, { sections: [{ name: 'Physics', draw: 2 }] });
    expect((await k.patch(`/exams/${e.id}`, { isPublished: true })).status).toBe(200);
    await k.patch(`/exams/${e.id}`, { sections: [{ name: 'Physics', draw: 5 }] });
    const r = await sendFrom('127.0.9.10', s.baseUrl, 'POST', '/attempts/start', { accessCode: e.accessCode, studentId: 'TOO-MANY', candidateName: 'x', candidatePin: '1234' });
    expect(r.status).toBe(409);
    const body = r.body as { code: string; detail: string };
    expect(body.code).toBe('SECTION_DRAW_TOO_LARGE');
    expect(body.detail).toContain('Section "Physics" draws 5 questions');
  });
});

describe('subject combinations', () => {
  it('a roster candidate sits the compulsory sections and their subjects, in the exam order; with none listed, every section', async () => {
    const { exam, bySection } = await jambExam();
    const k = api(s.baseUrl, ws.apiKey);
    const r = await k.post(`/exams/${exam.id}/roster`, {
      candidates: [
        { studentId: 'J-1', candidateName: 'Ada', subjects: ['biology', 'Physics'] },
        { studentId: 'J-2', candidateName: 'Bola' },
      ],
    });
    expect(r.status).toBe(201);
    // spelled as the exam spells them, in the exam's order
    expect(r.body.candidates.map((c: { subjects: string[] }) => c.subjects)).toEqual([['Physics', 'Biology'], []]);
    const [ada, bola] = r.body.candidates as { studentId: string; pin: string }[];
    const a = (await startAttempt(s.baseUrl, exam.accessCode, 'J-1', ada!.pin)) as Started;
    expect(a.sections!.map((x) => x.name)).toEqual(['Use of English', 'Physics', 'Biology']);
    expect(a.questions.every((q) => !bySection.Chemistry!.includes(q.id))).toBe(true);
    const b = (await startAttempt(s.baseUrl, exam.accessCode, 'J-2', bola!.pin)) as Started;
    expect(b.sections!.map((x) => x.name)).toEqual(['Use of English', 'Physics', 'Chemistry', 'Biology']);
  });

  it('unknown subject names are refused (400), on POST and in a roster file, adding nobody', async () => {
    const { exam } = await jambExam();
    const k = api(s.baseUrl, ws.apiKey);
    const bad = await k.post(`/exams/${exam.id}/roster`, { candidates: [{ studentId: 'U-1', candidateName: 'Ok', subjects: ['Physics'] }, { studentId: 'U-2', candidateName: 'Bad', subjects: ['Physics', 'Geography'] }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ index: 1, path: 'subjects', message: expect.stringContaining('"Geography" is not a section of this exam') }]);
    const noSections = await createExam(s.baseUrl, ws.apiKey, ws.id);
    expect((await k.post(`/exams/${noSections.id}/roster`, { candidates: [{ studentId: 'U-3', candidateName: 'X', subjects: ['Physics'] }] })).status).toBe(400);
    const csv = 'studentId,candidateName,subjects\r\nF-1,Ada,Physics; Chemistry\r\nF-2,Bola,Geography\r\n';
    const file = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: csv, name: 'r.csv', type: 'text/csv' } });
    expect(file.status).toBe(400);
    expect(file.body.errors).toEqual([{ row: 3, column: 'subjects', message: expect.stringContaining('Geography') }]);
    expect((await k.get(`/exams/${exam.id}/roster`)).body).toEqual([]);
  });

  it('are read from the subjects column of a CSV roster', async () => {
    const { exam } = await jambExam();
    const csv = 'studentId,candidateName,subjects\r\nF-1,Ada,Physics; chemistry\r\nF-2,Bola,\r\n';
    const file = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: csv, name: 'r.csv', type: 'text/csv' } });
    expect(file.status).toBe(201);
    expect(file.body.candidates.map((c: { subjects: string[] }) => c.subjects)).toEqual([['Physics', 'Chemistry'], []]);
    const a = (await startAttempt(s.baseUrl, exam.accessCode, 'F-1', file.body.candidates[0].pin)) as Started;
    expect(a.sections!.map((x) => x.name)).toEqual(['Use of English', 'Physics', 'Chemistry']);
  });

  it('are read from the subjects column of an .xlsx roster', async () => {
    const { exam } = await jambExam();
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Candidates');
    sheet.addRow(['Student ID', 'Name', 'Subjects']);
    sheet.addRow(['X-1', 'Ada', 'Biology | Physics']);
    const file = await upload(s.baseUrl, ws.apiKey, `/exams/${exam.id}/roster/import`, { file: { bytes: Buffer.from(await wb.xlsx.writeBuffer()), name: 'r.xlsx' } });
    expect(file.status).toBe(201);
    expect(file.body.candidates[0].subjects).toEqual(['Physics', 'Biology']);
  });

  it('a section a roster candidate takes cannot be removed from the exam (400)', async () => {
    const { exam } = await jambExam();
    const k = api(s.baseUrl, ws.apiKey);
    await k.post(`/exams/${exam.id}/roster`, { candidates: [{ studentId: 'K-1', candidateName: 'Ada', subjects: ['Chemistry'] }] });
    // refused for K-1's subject (and for Chemistry's questions, which would name no section)
    const r = await k.patch(`/exams/${exam.id}`, { sections: JAMB.filter((x) => x.name !== 'Chemistry') });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.errors)).toContain('K-1');
  });
});
