/**
 * Authoring on the hub (issue #24 §3), on a real PostgreSQL: an examiner builds a hub exam
 * with the hall's question API — bulk add, read, PATCH, delete, reorder — and the hall's
 * imports (spreadsheet, Aiken, GIFT, Moodle XML, a pasted paper, a real past paper), with
 * the hall's status codes and errors; every wrong input is a 4xx that changes nothing.
 * Versions: an edit after publication makes the next version, sealed at once for the same
 * halls under the same release code (issue 38 item 5); once a hall has released the paper (online, or by
 * typed code as its heartbeat reports) or may release it, edits are refused (409).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openEnvelope } from '../../src/core/sync/signing.js';
import { openPaper, unwrapContentKey } from '../../src/core/sync/seal.js';
import { parseReleaseCode } from '../../src/core/sync/release-code.js';
import { releaseProof } from '../../src/core/sync/release-proof.js';
import { packagePayloadSchema, paperSchema } from '../../src/core/sync/messages.js';
import { parseQuestionBank } from '../../src/core/formats/detect.js';
import { questionsWorkbook } from '../../src/core/formats/xlsx/write-questions.js';
import { pgAvailability } from '../pg/cluster.js';
import { REAL_PAPERS_DIR, describeReal } from '../real-papers.js';
import { TestHall, asExaminer, hubForSuite, samplePaper, warmUploadReader } from './helpers.js';

// Skipped only where PostgreSQL cannot run (no Debian postgresql binaries, or initdb cannot
// run as the postgres user): pgAvailability() says why, in one line; .ci/run installs it.
const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

/** A pasted paper as a teacher copies it out of a Word file: a header, numbered questions, options on one line, answers and a worked line. */
const PASTED = `FEDERAL GOVERNMENT COLLEGE, ENUGU
SS2 FIRST TERM EXAMINATION — CHEMISTRY
Time allowed: 40 minutes

1. Which of the following is an alkali metal?
A. Calcium  B. Sodium  C. Aluminium  D. Iron
Answer: B

2. The number of moles in 22 g of carbon(IV) oxide (C = 12, O = 16) is
A. 0.25
B. 0.5
C. 1.0
D. 2.0
Ans: B
Solution: molar mass of CO2 = 44 g/mol, so 22/44 = 0.5 mol.

3. Which gas turns lime water milky?
A. Oxygen
B. Hydrogen
C. Carbon(IV) oxide
D. Nitrogen
Answer: C
`;

const AIKEN = `What is the chemical symbol of gold?
A. Ag
B. Au
C. Gd
D. Go
ANSWER: B

Which planet is nearest the Sun?
A. Venus
B. Mercury
C. Mars
ANSWER: B
`;

const GIFT = `::Q1:: The boiling point of pure water at sea level is 100 degrees Celsius. {T}

::Q2:: Which organ pumps blood round the body? {=Heart ~Liver ~Kidney ~Lung}
`;

const MOODLE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>Capital</text></name>
    <questiontext format="html"><text><![CDATA[<p>What is the capital of Ghana?</p>]]></text></questiontext>
    <defaultgrade>2</defaultgrade>
    <single>true</single>
    <answer fraction="100"><text>Accra</text></answer>
    <answer fraction="0"><text>Kumasi</text></answer>
    <answer fraction="0"><text>Tamale</text></answer>
  </question>
</quiz>
`;

describe.skipIf(skipWhy !== null)('authoring on the hub (PostgreSQL)', () => {
  let hub: Awaited<ReturnType<typeof startHub>>;
  let key: string;
  const startsAt = '2026-12-01T09:00:00.000Z';
  const mcq = (prompt: string, extra: Record<string, unknown> = {}) => ({ prompt, type: 'MCQ', marks: 1, options: [{ text: 'Yes', isCorrect: true }, { text: 'No' }, { text: 'Maybe' }], ...extra });

  hubForSuite((started) => ({ hub, key } = started));
  // the imports read files in the job process: start it and load its readers before each
  // test's clock (a cold reader at nice 10 took 20–35 s on a busy machine; see warmUploadReader)
  beforeEach(() => warmUploadReader(hub), 120_000);

  const as = (method: string, path: string, body?: unknown) => asExaminer(hub, key, method, path, body);
  async function emptyExam(title = 'Board Chemistry', at = startsAt): Promise<string> {
    const r = await as('POST', '/hub/v1/exams', { title, durationMins: 40, startsAt: at, roster: [{ studentId: 'CH-001', candidateName: 'Chidi Eze', pin: '1357' }] });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ version: 1, publishedVersion: null, republishNeeded: false, questions: [] });
    return r.json.id as string;
  }
  const questionsOf = async (examId: string) => (await as('GET', `/hub/v1/exams/${examId}/questions`)).json as { id: string; prompt: string; position: number; options: { id: string; keyLabel: string; text: string; isCorrect: boolean }[]; minWords: number | null }[];
  async function form(path: string, fields: Record<string, string | { bytes: Uint8Array | string; name: string }>, apiKey = key) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) {
      if (typeof v === 'string') fd.append(k, v);
      else fd.append(k, new Blob([typeof v.bytes === 'string' ? v.bytes : new Uint8Array(v.bytes)]), v.name);
    }
    const res = await hub.app.request(path, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
    return { status: res.status, json: (await res.json()) as any, type: res.headers.get('content-type') };
  }
  async function enrolledHall(name: string): Promise<TestHall> {
    const created = await as('POST', '/hub/v1/halls', { name });
    const hall = new TestHall(hub);
    expect(await hall.enrol(created.json.enrolmentCode)).toBe(200);
    return hall;
  }
  async function openedPaper(hall: TestHall, packageId: string, releaseCode: string) {
    const got = await hall.request('GET', `/hub/v1/packages/${packageId}`);
    expect(got.status).toBe(200);
    const payload = packagePayloadSchema.parse(openEnvelope(hall.hubPublicKey, got.json));
    const code = parseReleaseCode(releaseCode);
    if (!code.ok) throw new Error('release code does not parse');
    return { payload, paper: paperSchema.parse(openPaper(unwrapContentKey(payload.wrappedKey, code.code, hall.hallId, payload.examId)!, payload.sealed, payload)) };
  }

  it('adds, reads, edits, reorders and deletes questions with the hall’s rules and answers', async () => {
    const examId = await emptyExam();
    const added = await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, {
      questions: [mcq('Which is a noble gas?', { options: [{ text: 'Neon', isCorrect: true }, { text: 'Nitrogen' }] }), { prompt: 'Describe the Haber process.', type: 'LONG_ESSAY', marks: 10, rubric: { name: 'Chem', totalMarks: 10, criteria: [{ title: 'Conditions', maxMarks: 4 }, { title: 'Equation', maxMarks: 6 }] } }],
    });
    expect(added.status, added.text).toBe(201);
    expect(added.json).toMatchObject({ success: true, examId, created: 2, examVersion: 1 });
    const [q1, q2] = added.json.questions;
    expect(q1).toMatchObject({ examId, position: 0, type: 'MCQ', options: [{ keyLabel: 'A', text: 'Neon', isCorrect: true }, { keyLabel: 'B', isCorrect: false }] });
    expect(q1.id).toMatch(/^q_/);
    expect(q1.options[0].id).toMatch(/^opt_/);
    // the hall's essay defaults (spec Limits: extended 150–800 words) and rubric criterion ids
    expect(q2).toMatchObject({ position: 1, minWords: 150, maxWords: 800, options: [], rubric: { criteria: [{ id: 'c1' }, { id: 'c2' }] } });

    expect((await as('GET', `/hub/v1/exams/${examId}/questions/${q1.id}`)).json).toEqual(q1);
    const patched = await as('PATCH', `/hub/v1/exams/${examId}/questions/${q1.id}`, { prompt: 'Which of these is a noble gas?', options: [{ id: q1.options[0].id, text: 'Neon', isCorrect: true }, { text: 'Nitrogen' }, { text: 'Argon and neon' }] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ id: q1.id, prompt: 'Which of these is a noble gas?', examVersion: 1 });
    expect(patched.json.options[0].id).toBe(q1.options[0].id); // kept: saved answers stay valid
    expect(patched.json.options).toHaveLength(3);

    const order = await as('POST', `/hub/v1/exams/${examId}/questions/reorder`, { questionIds: [q2.id, q1.id] });
    expect(order.status).toBe(200);
    expect((await questionsOf(examId)).map((q) => [q.id, q.position])).toEqual([[q2.id, 0], [q1.id, 1]]);

    expect((await as('DELETE', `/hub/v1/exams/${examId}/questions/${q2.id}`)).status).toBe(204);
    expect((await questionsOf(examId)).map((q) => q.id)).toEqual([q1.id]);
    const exam = await as('GET', `/hub/v1/exams/${examId}`);
    expect(exam.json.questions.map((q: { prompt: string }) => q.prompt)).toEqual(['Which of these is a noble gas?']);
    const audit = await hub.deps.db.execute(sql`select action from hub_audit where detail->>'examId' = ${examId} order by id`);
    expect(audit.rows.map((r) => (r as { action: string }).action)).toEqual(['exam-created', 'questions-added', 'question-edited', 'questions-reordered', 'question-deleted']);
  });

  it('refuses wrong inputs with a 4xx problem and changes nothing', async () => {
    const examId = await emptyExam();
    const ok = await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [mcq('First?'), mcq('Second?')] });
    const [q1] = ok.json.questions;
    const before = await as('GET', `/hub/v1/exams/${examId}`);

    // one bad item spoils the whole batch, named by index and path (the hall's bulk rule)
    const bad = await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [mcq('Fine?'), mcq('Two keys?', { options: [{ text: 'a', isCorrect: true }, { text: 'b', isCorrect: true }] })] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.json.errors).toEqual([{ index: 1, path: 'options', message: 'Exactly one option must have isCorrect: true (found 2)' }]);
    expect((await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [] })).status).toBe(400);
    expect((await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: 'x' })).status).toBe(400);
    // PATCH: a field of the wrong kind, and a change that breaks the merged item
    expect((await as('PATCH', `/hub/v1/exams/${examId}/questions/${q1.id}`, { marks: -1 })).status).toBe(400);
    const broken = await as('PATCH', `/hub/v1/exams/${examId}/questions/${q1.id}`, { type: 'TRUE_FALSE' });
    expect(broken.status).toBe(400);
    expect(broken.json.errors[0]).toMatchObject({ path: 'options' });
    // reorder must name every question once
    expect((await as('POST', `/hub/v1/exams/${examId}/questions/reorder`, { questionIds: [q1.id, q1.id] })).status).toBe(400);
    // not found: exam, question
    expect((await as('GET', '/hub/v1/exams/hex_nope/questions')).status).toBe(404);
    expect((await as('POST', '/hub/v1/exams/hex_nope/questions/bulk', { questions: [mcq('x?')] })).status).toBe(404);
    expect((await as('PATCH', `/hub/v1/exams/${examId}/questions/q_nope`, { prompt: 'x' })).status).toBe(404);
    expect((await as('DELETE', `/hub/v1/exams/${examId}/questions/q_nope`)).status).toBe(404);
    // no key, wrong key
    expect((await asExaminer(hub, 'cbt_wrong', 'GET', `/hub/v1/exams/${examId}/questions`)).status).toBe(401);
    expect((await hub.app.request(`/hub/v1/exams/${examId}/questions/bulk`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ questions: [mcq('x?')] }) })).status).toBe(401);
    expect((await form(`/hub/v1/exams/${examId}/questions/import`, { text: AIKEN }, 'cbt_wrong')).status).toBe(401);

    const after = await as('GET', `/hub/v1/exams/${examId}`);
    expect(after.json).toEqual(before.json);
  });

  it('imports a spreadsheet in the hall’s layout; a bad row or a file that is not .xlsx changes nothing', async () => {
    const examId = await emptyExam();
    const template = await hub.app.request('/hub/v1/questions/import-excel/template', { headers: { 'x-api-key': key } });
    expect(template.status).toBe(200);
    expect(Buffer.from(await template.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    const sheet = await questionsWorkbook([
      { type: 'MCQ', prompt: 'Which is the SI unit of force?', marks: 1, options: [{ text: 'Newton', isCorrect: true }, { text: 'Joule', isCorrect: false }, { text: 'Watt', isCorrect: false }] },
      { type: 'SHORT_ESSAY', prompt: 'State Newton’s first law.', marks: 3 },
    ]);
    const r = await form(`/hub/v1/exams/${examId}/questions/import-excel`, { file: { bytes: sheet, name: 'physics.xlsx' } });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json).toMatchObject({ success: true, examId, created: 2, examVersion: 1 });
    expect((await questionsOf(examId)).map((q) => q.prompt)).toEqual(['Which is the SI unit of force?', 'State Newton’s first law.']);

    const badSheet = await questionsWorkbook([{ type: 'MCQ', prompt: 'No key here?', marks: 1, options: [{ text: 'a', isCorrect: false }, { text: 'b', isCorrect: false }] }]);
    const bad = await form(`/hub/v1/exams/${examId}/questions/import-excel`, { file: { bytes: badSheet, name: 'bad.xlsx' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0]).toMatchObject({ row: 2 });
    const notXlsx = await form(`/hub/v1/exams/${examId}/questions/import-excel`, { file: { bytes: 'Type,Prompt\nMCQ,Hello', name: 'questions.xlsx' } });
    expect(notXlsx.status).toBe(415);
    expect((await form(`/hub/v1/exams/${examId}/questions/import-excel`, {})).status).toBe(400);
    expect(await questionsOf(examId)).toHaveLength(2);

    // and back out in the same layout and as GIFT
    const xlsx = await hub.app.request(`/hub/v1/exams/${examId}/questions.xlsx`, { headers: { 'x-api-key': key } });
    expect(xlsx.status).toBe(200);
    const gift = await hub.app.request(`/hub/v1/exams/${examId}/questions.gift`, { headers: { 'x-api-key': key } });
    expect(await gift.text()).toContain('Which is the SI unit of force?');
  });

  it('imports Aiken, GIFT, Moodle XML and a pasted paper as text, with the hall’s dry run and per-line warnings', async () => {
    const examId = await emptyExam();
    // dry run: the questions it would store, where the lines went, nothing stored (200)
    const dry = await form(`/hub/v1/exams/${examId}/questions/import`, { text: PASTED, dryRun: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ success: true, format: 'pasted-paper', dryRun: true, created: 0, errors: [], examVersion: null });
    expect(dry.json.questions.map((q: { prompt: string }) => q.prompt)).toEqual([
      'Which of the following is an alkali metal?',
      'The number of moles in 22 g of carbon(IV) oxide (C = 12, O = 16) is',
      'Which gas turns lime water milky?',
    ]);
    expect(dry.json.warnings.some((w: { line?: number }) => w.line === 1)).toBe(true);
    expect(await questionsOf(examId)).toHaveLength(0);

    const pasted = await form(`/hub/v1/exams/${examId}/questions/import`, { text: PASTED });
    expect(pasted.status, JSON.stringify(pasted.json)).toBe(201);
    expect(pasted.json).toMatchObject({ success: true, format: 'pasted-paper', dryRun: false, created: 3, examVersion: 1 });
    const qs = await questionsOf(examId);
    expect(qs.map((q) => q.options.find((o) => o.isCorrect)!.text)).toEqual(['Sodium', '0.5', 'Carbon(IV) oxide']);

    const aiken = await form(`/hub/v1/exams/${examId}/questions/import`, { file: { bytes: AIKEN, name: 'bank.txt' }, format: 'aiken' });
    expect(aiken.status).toBe(201);
    expect(aiken.json).toMatchObject({ format: 'aiken', created: 2 });
    const gift = await form(`/hub/v1/exams/${examId}/questions/import`, { text: GIFT });
    expect(gift.status).toBe(201);
    expect(gift.json).toMatchObject({ format: 'gift', created: 2 });
    const xml = await form(`/hub/v1/exams/${examId}/questions/import`, { text: MOODLE_XML });
    expect(xml.status).toBe(201);
    expect(xml.json).toMatchObject({ format: 'moodle-xml', created: 1, questions: [{ prompt: 'What is the capital of Ghana?', marks: 2 }] });
    expect(await questionsOf(examId)).toHaveLength(8);

    // wrong inputs: nothing importable, both a file and text, neither, an unknown format; a PDF
    // a pasted paper whose questions have no answers: nothing importable (400); its dry run says so by line (200)
    const noKeys = '1. Which planet is closest to the sun?\nA. Venus\nB. Mercury\n\n2. What is 6 x 7?\nA. 42\nB. 36\n';
    const nothing = await form(`/hub/v1/exams/${examId}/questions/import`, { text: noKeys });
    expect(nothing.status).toBe(400);
    const nothingDry = await form(`/hub/v1/exams/${examId}/questions/import`, { text: noKeys, dryRun: 'true' });
    expect(nothingDry.status).toBe(200);
    expect(nothingDry.json).toMatchObject({ success: false, created: 0, questions: [] });
    expect(nothingDry.json.errors).toEqual(nothing.json.errors.length ? [{ message: 'No importable questions were found in the pasted-paper text.' }, ...nothing.json.errors] : expect.anything());
    expect(nothingDry.json.errors[1]).toEqual({ line: 1, message: 'missing answer: question 1 has no answer line and no answer key entry' });
    // text that is no question format at all
    expect((await form(`/hub/v1/exams/${examId}/questions/import`, { text: 'Dear parents, the PTA meeting holds on Friday.' })).status).toBe(400);
    expect((await form(`/hub/v1/exams/${examId}/questions/import`, { text: AIKEN, file: { bytes: AIKEN, name: 'bank.txt' } })).status).toBe(400);
    expect((await form(`/hub/v1/exams/${examId}/questions/import`, {})).status).toBe(400);
    expect((await form(`/hub/v1/exams/${examId}/questions/import`, { text: AIKEN, format: 'docx' })).status).toBe(400);
    expect((await form(`/hub/v1/exams/${examId}/questions/import`, { file: { bytes: '%PDF-1.4\n...', name: 'paper.pdf' } })).status).toBe(415);
    expect((await form('/hub/v1/exams/hex_nope/questions/import', { text: AIKEN })).status).toBe(404);
    // an invalid question in the text: its line, and nothing stored
    const tooLong = await form(`/hub/v1/exams/${examId}/questions/import`, { text: `Pick one\nA. x\nB. y\nANSWER: B\n\nPick again\nA. ${'x'.repeat(2100)}\nB. q\nANSWER: A\n`, format: 'aiken' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.errors).toEqual([{ index: 1, line: 6, path: 'options.0.text', message: expect.stringMatching(/1,000/) }]);
    expect(await questionsOf(examId)).toHaveLength(8);
  });

  describeReal('a WAEC past paper imported into a hub exam', () => {
    it('stores every question the hall’s parser finds, keys included', async () => {
      const examId = await emptyExam('WAEC Physics 2023');
      const text = readFileSync(join(REAL_PAPERS_DIR, 'WAEC_Physics_2023.md'), 'utf8');
      const expected = parseQuestionBank(text).result.questions;
      const r = await form(`/hub/v1/exams/${examId}/questions/import`, { file: { bytes: text, name: 'WAEC_Physics_2023.md' } });
      expect(r.status, JSON.stringify(r.json).slice(0, 500)).toBe(201);
      expect(r.json.format).toBe('past-paper');
      expect(r.json.created).toBe(expected.length);
      expect(expected.length).toBeGreaterThan(10);
      const stored = await questionsOf(examId);
      expect(stored.map((q) => q.prompt)).toEqual(expected.map((q) => q.prompt));
      const objective = stored.filter((q) => q.options.length);
      expect(objective.length).toBeGreaterThan(0);
      for (const q of objective) expect(q.options.filter((o) => o.isCorrect)).toHaveLength(1);
    });
  });

  it('an edit after publication makes the next version, sealed at once: the same halls get a new package under the same release code', async () => {
    const lagos = await enrolledHall('Lagos centre');
    const kano = await enrolledHall('Kano centre');
    const examId = await emptyExam('Board Biology');
    const empty = await as('POST', `/hub/v1/exams/${examId}/publish`, { hallIds: [lagos.hallId] });
    expect(empty.status).toBe(409); // no questions yet
    expect(empty.json.code).toBe('NO_QUESTIONS');
    const { json: added } = await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [mcq('Is the heart a muscle?'), mcq('Do plants respire?')] });
    // edits before the first publication stay in version 1
    await as('PATCH', `/hub/v1/exams/${examId}/questions/${added.questions[1].id}`, { prompt: 'Do green plants respire?' });
    expect((await as('GET', `/hub/v1/exams/${examId}`)).json).toMatchObject({ version: 1, publishedVersion: null });
    expect((await as('POST', `/hub/v1/exams/${examId}/publish`, {})).status).toBe(400); // first publication names its halls

    const v1 = await as('POST', `/hub/v1/exams/${examId}/publish`, { hallIds: [lagos.hallId, kano.hallId] });
    expect(v1.status).toBe(200);
    expect(v1.json.packages.map((p: { version: number }) => p.version)).toEqual([1, 1]);
    const edit = await as('PATCH', `/hub/v1/exams/${examId}/questions/${added.questions[0].id}`, { prompt: 'Is the human heart made of cardiac muscle?' });
    expect(edit.json.examVersion).toBe(2);
    // the edit is sealed at once for both halls (no republish); the next edit makes version 3, sealed at once too
    expect((await as('GET', `/hub/v1/exams/${examId}`)).json).toMatchObject({ version: 2, publishedVersion: 2, republishNeeded: false });
    expect((await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [mcq('Is blood a tissue?')] })).json.examVersion).toBe(3);
    expect((await as('GET', `/hub/v1/exams/${examId}`)).json).toMatchObject({ version: 3, publishedVersion: 3, republishNeeded: false });

    // a republish answers the packages the halls already have: version 3, a new package each under the same release code
    const v3 = await as('POST', `/hub/v1/exams/${examId}/publish`, {});
    expect(v3.status).toBe(200);
    expect(v3.json.packages).toHaveLength(2);
    for (const p of v3.json.packages as { hallId: string; packageId: string; version: number; releaseCode: string }[]) {
      const old = v1.json.packages.find((o: { hallId: string }) => o.hallId === p.hallId);
      expect(p.version).toBe(3);
      expect(p.packageId).not.toBe(old.packageId);
      expect(p.releaseCode).toBe(old.releaseCode);
    }
    // publishing again changes nothing
    expect((await as('POST', `/hub/v1/exams/${examId}/publish`, {})).json.packages).toEqual(v3.json.packages);
    expect((await as('GET', `/hub/v1/exams/${examId}`)).json).toMatchObject({ version: 3, publishedVersion: 3, republishNeeded: false });

    // the hall sees every version and can tell them apart; the newest holds the edits, the code opens each
    const lagosV3 = v3.json.packages.find((p: { hallId: string }) => p.hallId === lagos.hallId);
    const list = await lagos.request('GET', '/hub/v1/packages');
    expect(list.json.map((p: { version: number; examId: string }) => [p.examId, p.version]).sort()).toEqual([[examId, 1], [examId, 2], [examId, 3]]);
    const { payload, paper } = await openedPaper(lagos, lagosV3.packageId, lagosV3.releaseCode);
    expect(payload.version).toBe(3);
    expect(paper.questions.map((q) => q.prompt)).toEqual(['Is the human heart made of cardiac muscle?', 'Do green plants respire?', 'Is blood a tissue?']);
    const oldPaper = await openedPaper(lagos, v1.json.packages.find((p: { hallId: string }) => p.hallId === lagos.hallId).packageId, lagosV3.releaseCode);
    expect(oldPaper.paper.questions[0]!.prompt).toBe('Is the heart a muscle?');
    const codes = await as('GET', `/hub/v1/exams/${examId}/release-codes`);
    expect(codes.json.filter((c: { hallId: string }) => c.hallId === lagos.hallId).map((c: { version: number }) => c.version).sort()).toEqual([1, 2, 3]);

    // the hall reports what it holds; the hub's status lists each package's version
    const v1Lagos = v1.json.packages.find((p: { hallId: string }) => p.hallId === lagos.hallId).packageId;
    expect((await lagos.request('POST', '/hub/v1/heartbeat', { inProgress: 0, packages: [{ packageId: v1Lagos, state: 'SUPERSEDED' }, { packageId: lagosV3.packageId, state: 'SEALED' }] })).status).toBe(204);
    const status = await as('GET', '/hub/v1/halls');
    expect(status.json.find((h: { id: string }) => h.id === lagos.hallId).packagesReported).toEqual([
      { packageId: v1Lagos, state: 'SUPERSEDED', examId, version: 1 },
      { packageId: lagosV3.packageId, state: 'SEALED', examId, version: 3 },
    ]);

    // a hall reports the paper released by typed code, with the release proof only the code yields
    // (issue #34: a bare "released" no longer counts): from then on edits are refused, nothing changes
    const kanoV3 = v3.json.packages.find((p: { hallId: string }) => p.hallId === kano.hallId);
    const kanoCode = parseReleaseCode(kanoV3.releaseCode);
    if (!kanoCode.ok) throw new Error('release code does not parse');
    expect((await kano.request('POST', '/hub/v1/heartbeat', { inProgress: 3, packages: [{ packageId: kanoV3.packageId, state: 'RELEASED', releaseProof: releaseProof(kanoCode.code, kano.hallId, kanoV3.packageId) }] })).status).toBe(204);
    const before = await as('GET', `/hub/v1/exams/${examId}`);
    const refused = await as('PATCH', `/hub/v1/exams/${examId}/questions/${added.questions[0].id}`, { prompt: 'Too late' });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'PAPER_RELEASED', halls: [kano.hallId] });
    expect((await as('DELETE', `/hub/v1/exams/${examId}/questions/${added.questions[0].id}`)).status).toBe(409);
    expect((await form(`/hub/v1/exams/${examId}/questions/import`, { text: AIKEN })).status).toBe(409);
    expect((await as('GET', `/hub/v1/exams/${examId}`)).json).toEqual(before.json);
  });

  it('refuses edits once halls may release the paper online, and after an online release', async () => {
    const hall = await enrolledHall('Ibadan centre');
    const soon = new Date(hub.clock.now() + 20 * 60_000).toISOString();
    const examId = await emptyExam('Board Economics', soon);
    const { json: added } = await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [mcq('Is money a medium of exchange?')] });
    const pub = await as('POST', `/hub/v1/exams/${examId}/publish`, { hallIds: [hall.hallId] });
    expect(pub.status).toBe(200);
    hub.clock.advance(16 * 60_000); // 4 minutes before the start
    const late = await as('PATCH', `/hub/v1/exams/${examId}/questions/${added.questions[0].id}`, { prompt: 'Changed' });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('RELEASE_WINDOW_OPEN');
    expect((await hall.request('POST', `/hub/v1/releases/${pub.json.packages[0].packageId}`)).status).toBe(200);
    const released = await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [mcq('Added late?')] });
    expect(released.status).toBe(409);
    expect(released.json.code).toBe('PAPER_RELEASED');
    expect((await questionsOf(examId)).map((q) => q.prompt)).toEqual(['Is money a medium of exchange?']);
  });

  it('changes an exam’s settings and roster with the same version rules; wrong inputs change nothing', async () => {
    const examId = await emptyExam('Board Physics');
    const exam = async () => (await as('GET', `/hub/v1/exams/${examId}`)).json;
    const before = await exam();
    for (const [body, status] of [
      [{}, 400], // nothing to change
      [{ title: 'X', colour: 'red' }, 400], // not a field
      [{ durationMins: 0 }, 400],
      [{ endsAt: '2026-11-30T09:00:00.000Z' }, 400], // before startsAt
      [{ roster: [{ studentId: 'A1', candidateName: 'Ade' }, { studentId: 'A1', candidateName: 'Bola' }] }, 400], // studentId twice
      [{ roster: [{ studentId: 'A1', candidateName: 'Ade', pin: '12' }] }, 400], // PIN too short
    ] as const) {
      const r = await as('PATCH', `/hub/v1/exams/${examId}`, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.json.type, JSON.stringify(body)).toBeTruthy();
    }
    expect((await as('PATCH', '/hub/v1/exams/hex_unknown', { title: 'Y' })).status).toBe(404);
    expect(await exam()).toEqual(before);

    // before the first publication an edit stays in version 1
    const r = await as('PATCH', `/hub/v1/exams/${examId}`, {
      title: 'Board Physics (revised)',
      durationMins: 50,
      shuffleChoices: true,
      roster: [{ studentId: 'CH-001', candidateName: 'Chidi Eze' }, { studentId: 'PH-002', candidateName: 'Ngozi Obi', pin: '8642' }, { studentId: 'PH-003', candidateName: 'Musa Bello' }],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ title: 'Board Physics (revised)', durationMins: 50, version: 1, settings: { shuffleChoices: true, maxTabViolations: 3 } });
    const pins = Object.fromEntries((r.json.roster as { studentId: string; pin: string }[]).map((x) => [x.studentId, x.pin]));
    expect(pins['CH-001']).toBe('1357'); // kept
    expect(pins['PH-002']).toBe('8642'); // given
    expect(pins['PH-003']).toMatch(/^\d{6}$/); // issued

    // after a publication the next edit makes version 2, sealed for the hall at once (issue 38 item 5)
    const hall = await enrolledHall('Enugu centre');
    await as('POST', `/hub/v1/exams/${examId}/questions/bulk`, { questions: [mcq('Is light a wave?')] });
    expect((await as('POST', `/hub/v1/exams/${examId}/publish`, { hallIds: [hall.hallId] })).status).toBe(200);
    const v2 = await as('PATCH', `/hub/v1/exams/${examId}`, { maxTabViolations: 1 });
    expect(v2.json).toMatchObject({ version: 2, publishedVersion: 2, republishNeeded: false, settings: { maxTabViolations: 1, shuffleChoices: true } });
    const republished = await as('POST', `/hub/v1/exams/${examId}/publish`, {});
    expect(republished.status).toBe(200);
    const { paper } = await openedPaper(hall, republished.json.packages[0].packageId, republished.json.packages[0].releaseCode);
    expect(JSON.stringify(paper)).toContain('Board Physics (revised)');
  });

  it('says a malformed multipart form could not be read (not "not valid JSON"), and stores nothing', async () => {
    const examId = await emptyExam('Board Biology');
    const res = await hub.app.request(`/hub/v1/exams/${examId}/questions/import`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'multipart/form-data; boundary=xyz' }, body: '--xyz\r\nnot a part' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { detail: string; errors: unknown };
    expect(body.detail).toMatch(/^The multipart form could not be read: /);
    expect(body.errors).toEqual([{ path: '(body)', message: 'malformed multipart form' }]);
    expect(await questionsOf(examId)).toHaveLength(0);
  });

  it('lists the authoring routes in the hub’s OpenAPI document and /docs', async () => {
    const doc = await (await hub.app.request('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    for (const [path, method] of [
      ['/hub/v1/exams/{id}', 'patch'],
      ['/hub/v1/exams/{id}/questions', 'get'],
      ['/hub/v1/exams/{id}/questions/bulk', 'post'],
      ['/hub/v1/exams/{id}/questions/{questionId}', 'get'],
      ['/hub/v1/exams/{id}/questions/{questionId}', 'patch'],
      ['/hub/v1/exams/{id}/questions/{questionId}', 'delete'],
      ['/hub/v1/exams/{id}/questions/reorder', 'post'],
      ['/hub/v1/exams/{id}/questions/import-excel', 'post'],
      ['/hub/v1/exams/{id}/questions/import', 'post'],
      ['/hub/v1/questions/import-excel/template', 'get'],
      ['/hub/v1/exams/{id}/questions.xlsx', 'get'],
      ['/hub/v1/exams/{id}/questions.gift', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(Object.keys((doc.paths['/hub/v1/exams/{id}/questions/import']!.post as { responses: object }).responses)).toEqual(expect.arrayContaining(['200', '201', '400', '401', '404', '409', '413', '415']));
    expect((await hub.app.request('/docs')).status).toBe(200);
  });
});
