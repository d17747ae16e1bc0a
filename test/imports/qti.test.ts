/**
 * QTI 3.0 on the hall (issue 38 item 4), over real HTTP: a content package written in the
 * layout of 1EdTech's public examples imports every type through POST /questions/import
 * (single response, multiple response by the one-key rule, true/false as choice, extended
 * text with scorer rubric blocks, a test with two sections); one item imports alone; the
 * export GET /exams/{id}/questions.qti.zip imports back to the same questions; a DOCTYPE
 * (external entity, entity bomb) in any file, and a zip bomb, are refused and store nothing.
 */
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflatedPayload, zipOf } from '../../scripts/bench/bombs.mjs';
import { addQuestions, api, createExam, registerWorkspace, type TestServer } from '../harness.js';
import { download, startImportServer, upload } from './http.js';
import { ROUND_TRIP_QUESTIONS, comparable, expectFixtureImport, fixturePackage, singleItem } from './qti-fixtures.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
});
afterAll(async () => s?.close());

const newExam = async () => (await createExam(s.baseUrl, ws.apiKey, ws.id)).id;
const stored = (examId: string) => (s.deps.sqlite.prepare('SELECT count(*) AS n FROM questions WHERE exam_id = ?').get(examId) as { n: number }).n;
const importFile = (examId: string, bytes: Uint8Array | string, name: string, extra: Record<string, string> = {}) => upload(s.baseUrl, ws.apiKey, '/questions/import', { file: { bytes, name }, workspaceId: ws.id, examId, ...extra });

describe('QTI 3.0 import on the hall', () => {
  it('imports a content package: every type, two sections, refused items named', async () => {
    const examId = await newExam();
    const r = await importFile(examId, await fixturePackage(), 'mock-science.zip');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expectFixtureImport(r.body);
    expect(stored(examId)).toBe(5);
    const exam = await api(s.baseUrl, ws.apiKey).get(`/exams/${examId}`);
    expect((exam.body.questions as { section: string }[]).map((q) => q.section)).toEqual(['Section A: Objective', 'Section A: Objective', 'Section A: Objective', 'Section B: Theory', 'Section B: Theory']);
  });

  it('reads the package with format=qti, and dry-runs it without storing', async () => {
    const examId = await newExam();
    const r = await importFile(examId, await fixturePackage(), 'mock-science.zip', { format: 'qti', dryRun: 'true' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.questions).toHaveLength(5);
    expect(r.body.errors).toEqual([]);
    expect(stored(examId)).toBe(0);
  });

  it('reads a package zipped with its folder', async () => {
    const examId = await newExam();
    const bytes = await fixturePackage((f) => {
      for (const [p, t] of [...f]) {
        f.delete(p);
        f.set(`mock-science/${p}`, t);
      }
    });
    const r = await importFile(examId, bytes, 'mock-science.zip');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expectFixtureImport(r.body);
  });

  it('imports one item sent alone, as a file or as text, detected without a format', async () => {
    for (const fields of [{ file: { bytes: singleItem(), name: 'quadratic.xml' } }, { text: singleItem() }]) {
      const examId = await newExam();
      const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...fields, workspaceId: ws.id, examId });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.format).toBe('qti');
      expect(r.body.questions[0]).toMatchObject({ type: 'MCQ', marks: 1, prompt: 'Solve $x^2 - 9 = 0$ for *x* > 0.' });
      expect(r.body.questions[0].options.map((o: any) => [o.keyLabel, o.text, o.isCorrect])).toEqual([['A', '2', false], ['B', '3', true], ['C', '9', false]]);
    }
  });

  it('a package whose only item has two keys stores nothing and says why (400)', async () => {
    const examId = await newExam();
    const bytes = await fixturePackage((f) => {
      f.set('assessment-test.xml', f.get('assessment-test.xml')!.replace(/<qti-assessment-item-ref identifier="(?!primes-mr")[^"]+"[^>]*\/>/g, ''));
    });
    const r = await importFile(examId, bytes, 'bank.zip');
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(JSON.stringify(r.body.errors)).toMatch(/primes-mr.*2 correct choices/);
    expect(stored(examId)).toBe(0);
  });
});

describe('QTI 3.0 export on the hall', () => {
  it('GET /exams/{id}/questions.qti.zip imports back to the same questions (every type)', async () => {
    const source = await newExam();
    const original = await addQuestions(s.baseUrl, ws.apiKey, ws.id, source, ROUND_TRIP_QUESTIONS);
    const got = await download(s.baseUrl, ws.apiKey, `/exams/${source}/questions.qti.zip`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/zip');
    expect(got.headers.get('content-disposition')).toMatch(/_qti\.zip"/);
    const zip = await JSZip.loadAsync(got.bytes);
    const manifest = await zip.file('imsmanifest.xml')!.async('string');
    expect(manifest).toContain('type="imsqti_test_xmlv3p0"');
    expect(manifest.match(/type="imsqti_item_xmlv3p0"/g)).toHaveLength(5);
    const test = await zip.file('assessment-test.xml')!.async('string');
    expect(test.match(/<qti-assessment-section /g)).toHaveLength(3);
    const essay = await zip.file('items/Q005.xml')!.async('string');
    expect(essay).toContain('<qti-extended-text-interaction');
    expect(essay).toContain('<qti-rubric-block view="scorer"');
    expect(essay).toContain('data-max-words="600"');

    const target = await newExam();
    const r = await importFile(target, got.bytes, 'roundtrip.zip');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.skipped).toEqual([]);
    expect(r.body.questions.map(comparable)).toEqual(original.map(comparable));
    expect(r.body.questions.map(comparable)).toEqual((await api(s.baseUrl, ws.apiKey).get(`/exams/${source}`)).body.questions.map(comparable));
  });

  it('maths leaves as MathML carrying its TeX', async () => {
    const examId = await newExam();
    await addQuestions(s.baseUrl, ws.apiKey, ws.id, examId, [ROUND_TRIP_QUESTIONS[0]]);
    const zip = await JSZip.loadAsync((await download(s.baseUrl, ws.apiKey, `/exams/${examId}/questions.qti.zip`)).bytes);
    const item = await zip.file('items/Q001.xml')!.async('string');
    expect(item).toMatch(/<math xmlns="http:\/\/www\.w3\.org\/1998\/Math\/MathML"/);
    expect(item).toContain('<annotation encoding="application/x-tex">\\frac{6x^2}{3x}</annotation>');
    expect(item).toContain('<qti-correct-response><qti-value>A</qti-value></qti-correct-response>');
  });
});

describe('hostile QTI uploads', () => {
  const ITEM = singleItem().replace('<p>Solve', '<p>&xxe; Solve');
  const HOSTILE = {
    'external entity': singleItem().replace('<qti-assessment-item', '<!DOCTYPE qti-assessment-item [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<qti-assessment-item').replace('<p>Solve', '<p>&xxe; Solve'),
    'entity expansion bomb': ITEM.replace('<qti-assessment-item', '<!DOCTYPE qti-assessment-item [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY xxe "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>\n<qti-assessment-item'),
  };
  for (const [name, xml] of Object.entries(HOSTILE)) {
    it(`${name}: refused (400) as one item, as text, and inside a package's item or manifest; nothing stored`, async () => {
      const examId = await newExam();
      const attempts = [
        await importFile(examId, xml, 'item.xml', { format: 'qti' }),
        await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: xml, workspaceId: ws.id, examId }),
        await importFile(examId, await fixturePackage((f) => f.set('items/osmosis.xml', xml)), 'bank.zip'),
        await importFile(examId, await fixturePackage((f) => f.set('imsmanifest.xml', f.get('imsmanifest.xml')!.replace('<manifest', '<!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<manifest'))), 'bank.zip'),
      ];
      for (const r of attempts) {
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(r.body.detail).toMatch(/DOCTYPE/);
        expect(JSON.stringify(r.body)).not.toMatch(/root:/);
      }
      expect(stored(examId)).toBe(0);
    });
  }

  it('a package that would unpack too far is refused like every archive upload (413, 422)', async () => {
    const examId = await newExam();
    const manifest = { name: 'imsmanifest.xml', text: '<manifest><resources/></manifest>' };
    const bomb = zipOf([manifest, { name: 'items/bomb.xml', payload: await deflatedPayload(60) }]);
    const big = await importFile(examId, bomb, 'bomb.zip');
    expect(big.status, JSON.stringify(big.body)).toBe(413);
    expect(big.body.code).toBe('ARCHIVE_TOO_LARGE');
    const liar = zipOf([manifest, { name: 'items/liar.xml', payload: await deflatedPayload(8), declare: 1024 }]);
    const lied = await importFile(examId, liar, 'liar.zip');
    expect(lied.status, JSON.stringify(lied.body)).toBe(422);
    expect(stored(examId)).toBe(0);
  });
});
