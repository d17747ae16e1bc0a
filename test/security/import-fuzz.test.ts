/**
 * Property test of every import format and upload route (issue 22 part 4): fast-check
 * generates broken and hostile documents — text banks mixing each format's syntax
 * (Aiken, GIFT, Moodle XML with DOCTYPEs and entities, past-paper Markdown), random
 * bytes, real .xlsx/.docx/.pptx archives with mutated or truncated bytes, zip archives
 * with garbage or DOCTYPE'd XML parts, CSV with stray quotes and BOMs — and sends them to
 * POST /questions/import (file and text, each format and auto-detection),
 * /questions/import-excel, /exams/:id/roster/import and /api/cbt/ai/generate-questions.
 * Every answer must be below 500, and every 4xx a problem document.
 * FUZZ_SEED=<n> replays a run; fast-check prints the seed and the failing input.
 */
import fc from 'fast-check';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createExam, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { upload, type FilePart } from '../imports/http.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
let examId = '';
let template: Buffer;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

beforeAll(async () => {
  s = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 1_000_000 } });
  ws = await registerWorkspace(s.baseUrl);
  examId = (await createExam(s.baseUrl, ws.apiKey, ws.id)).id;
  const res = await fetch(`${s.baseUrl}/questions/import-excel/template`, { headers: { 'x-api-key': ws.apiKey } });
  template = Buffer.from(await res.arrayBuffer());
}, 60_000);
afterAll(() => s.close());

// ---- generators -------------------------------------------------------------------------
const token = (...xs: string[]) => fc.constantFrom(...xs);
const junk = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.integer().map(String), token('', ' ', '\n', '\r\n', '\t', '\u0000', '\uFEFF', '\u202E', '😀', '$$', '\\', '"', "'"));
const linesOf = (piece: fc.Arbitrary<string>) => fc.array(piece, { maxLength: 30 }).map((l) => l.join('\n'));
const aiken = linesOf(fc.oneof(junk, fc.tuple(token('A', 'B', 'Z', '1', 'a'), token('.', ')', ''), junk).map(([l, p, t]) => `${l}${p} ${t}`), fc.tuple(token('ANSWER:', 'ANSWER: ', 'answer:'), junk).map(([a, t]) => `${a}${t}`)));
const gift = linesOf(fc.oneof(junk, token('::', '{', '}', '=', '~', '#', '->', '%50%', '%-100%', '$CATEGORY: x', '{T}', '{FALSE}', '{#1:2}', '\\{', '// comment', '{=a ~b}', '{}', '::t::q{'), fc.tuple(junk, token('{', '}', '=', '~'), junk).map((p) => p.join(''))));
const xmlPiece = fc.oneof(junk, token('<quiz>', '</quiz>', '<question type="multichoice">', '<question type="truefalse">', '<question type="essay">', '<question type="category">', '</question>', '<questiontext format="html"><text>', '</text></questiontext>', '<answer fraction="100">', '<answer fraction="-50">', '<answer fraction="abc">', '</answer>', '<text>', '</text>', '<single>true</single>', '<defaultgrade>1e309</defaultgrade>', '<![CDATA[', ']]>', '&amp;', '&#0;', '&#x110000;', '&undefined;', '<?xml version="1.0"?>', '<!DOCTYPE quiz [<!ENTITY e SYSTEM "file:///etc/passwd">]>', '<!ENTITY x "y">', '<!-- c -->', '<a b="c" b="d">', '</>', '<'));
const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Well-formed Moodle XML with hostile prologs (DOCTYPEs, entities) and odd values. */
const DOCTYPES = ['', '', '<!DOCTYPE quiz [<!ENTITY e SYSTEM "file:///etc/passwd">]>', '<!DOCTYPE quiz [<!ENTITY e SYSTEM "http://169.254.169.254/">]>', '<!DOCTYPE quiz [<!ENTITY e "x"><!ENTITY f "&e;&e;&e;&e;">]>', '<!DOCTYPE quiz SYSTEM "http://example.com/q.dtd">', '<!DOCTYPE quiz [<!ENTITY % p SYSTEM "http://example.com/p"> %p;]>', '<!DOCTYPE quiz>'];
const xmlText = fc.oneof(junk.map(esc), token('&e;', '&f;', '&amp;', '&#65;', '&lt;b onclick=x&gt;', '<![CDATA[<p>x</p>]]>'));
const xmlQuestion = fc
  .record({
    type: token('multichoice', 'truefalse', 'shortanswer', 'essay', 'category', 'description', 'matching', '', 'x"y'),
    text: xmlText,
    grade: fc.oneof(token('1', '0', '-1', '1e309', 'NaN', '', 'x'), fc.double().map(String)),
    single: token('true', 'false', '', 'maybe'),
    answers: fc.array(fc.tuple(token('100', '0', '-100', '50', '33.33333', 'x', '', '1e400'), xmlText), { maxLength: 6 }),
  })
  .map((q) => `<question type="${q.type}"><name><text>${q.text}</text></name><questiontext format="html"><text>${q.text}</text></questiontext><defaultgrade>${q.grade}</defaultgrade><single>${q.single}</single>${q.answers.map(([f, t]) => `<answer fraction="${f}"><text>${t}</text></answer>`).join('')}<category><text>$course$/top/${q.text}</text></category></question>`);
const wellFormedMoodle = fc
  .tuple(token('', '<?xml version="1.0" encoding="UTF-8"?>\n', '\uFEFF<?xml version="1.0"?>'), token(...DOCTYPES), fc.array(xmlQuestion, { maxLength: 5 }))
  .map(([decl, doctype, qs]) => `${decl}${doctype}\n<quiz>${qs.join('')}</quiz>`);
const moodle = fc.oneof({ arbitrary: wellFormedMoodle, weight: 2 }, fc.array(xmlPiece, { maxLength: 60 }).map((p) => p.join('')));
const pastPaper = linesOf(fc.oneof(junk, fc.tuple(fc.integer({ min: -1, max: 1e6 }), junk).map(([n, t]) => `**${n}.** ${t}`), fc.tuple(token('A', 'E', 'Z'), junk).map(([l, t]) => `${l}) ${t}`), fc.tuple(token('A', 'Q', ''), token('**', '')).map(([l, b]) => `**Answer: ${l}${b}`), token('*Explanation: ', '---', '# Heading')));
// Moodle XML weighs more: its parser is the one with a DOCTYPE to get wrong
const bankText = fc.oneof(aiken, gift, { arbitrary: moodle, weight: 3 }, pastPaper);

/** A real archive's bytes with some bytes changed and maybe cut short. */
const mutated = (base: () => Buffer) =>
  fc.record({ flips: fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 20 }), cut: fc.option(fc.nat(), { nil: undefined }) }).map(({ flips, cut }) => {
    const b = Buffer.from(base());
    for (const [i, v] of flips) b[i % b.length] = v;
    return cut === undefined ? b : b.subarray(0, cut % b.length);
  });
/** A zip whose named parts hold generated text (garbage, or XML with DOCTYPEs). */
const zipWith = (parts: string[]) =>
  fc.array(fc.tuple(fc.constantFrom(...parts), fc.oneof(moodle, junk)), { minLength: 1, maxLength: 6 }).map(async (entries) => {
    const zip = new JSZip();
    for (const [name, text] of entries) zip.file(name, text);
    return zip.generateAsync({ type: 'nodebuffer' });
  });
const XLSX_PARTS = ['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/_rels/workbook.xml.rels', '_rels/.rels', 'xl/styles.xml'];
const DOCX_PARTS = ['[Content_Types].xml', 'word/document.xml', '_rels/.rels', 'word/_rels/document.xml.rels'];
const PPTX_PARTS = ['[Content_Types].xml', 'ppt/presentation.xml', 'ppt/_rels/presentation.xml.rels', 'ppt/slides/slide1.xml', 'ppt/slides/_rels/slide1.xml.rels'];
const bytes = fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a));
const csv = linesOf(fc.tuple(fc.array(fc.oneof(junk, token('"', '""', '"a,b"', 'studentId', 'candidateName', 'phone', '=1+1', '\uFEFFstudentId')), { maxLength: 5 }), token(',', ';', '\t')).map(([cells, sep]) => cells.join(sep)));

/** Resolves a generated body (some are promises of zip bytes) into a FilePart. */
async function part(body: Buffer | string | Promise<Buffer>, name: string): Promise<FilePart> {
  return { bytes: await body, name };
}

/** Sends one upload and checks the answer: below 500, a problem document when 4xx. */
async function check(path: string, fields: Record<string, string | FilePart>) {
  const r = await upload(s.baseUrl, ws.apiKey, path, fields);
  expect(r.status, `${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
  if (r.status >= 400) expect(r.headers.get('content-type'), path).toContain('application/problem+json');
}

const RUNS = Number(process.env.IMPORT_FUZZ_RUNS ?? 25);
const opts = (runs = RUNS) => ({ numRuns: runs, seed: SEED, endOnFailure: true });

describe(`import formats under generated bad input (seed ${SEED})`, () => {
  it('POST /questions/import: every format as text and as a file, and auto-detected', async () => {
    await fc.assert(
      fc.asyncProperty(bankText, fc.constantFrom('aiken', 'gift', 'moodle-xml', 'past-paper', ''), fc.constantFrom('bank.txt', 'bank.xml', 'bank.gift', 'bank.md'), fc.boolean(), async (text, format, name, asFile) => {
        const f = format ? { format } : {};
        await check('/questions/import', { ...(asFile ? { file: await part(text, name) } : { text: text || ' ' }), workspaceId: ws.id, examId, dryRun: 'true', ...f });
      }),
      opts(RUNS * 4),
    );
  }, 180_000);

  it('POST /questions/import: .docx files (broken archives, garbage document parts)', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(zipWith(DOCX_PARTS), bytes), async (body) => check('/questions/import', { file: await part(body, 'bank.docx'), workspaceId: ws.id, examId, dryRun: 'true' })), opts());
  }, 180_000);

  it('POST /questions/import-excel: mutated templates, zips of garbage parts, random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutated(() => template), zipWith(XLSX_PARTS), bytes), async (body) => check('/questions/import-excel', { file: await part(body, 'questions.xlsx'), workspaceId: ws.id, examId })),
      opts(),
    );
  }, 180_000);

  it('POST /exams/:id/roster/import: CSV and .xlsx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(csv.map((t) => ({ body: t as string | Buffer | Promise<Buffer>, name: 'roster.csv' })), fc.oneof(mutated(() => template), zipWith(XLSX_PARTS)).map((b) => ({ body: b as string | Buffer | Promise<Buffer>, name: 'roster.xlsx' }))), async ({ body, name }) =>
        check(`/exams/${examId}/roster/import`, { file: await part(body, name) })),
      opts(),
    );
  }, 180_000);

  it('POST /api/cbt/ai/generate-questions: broken PDF, DOCX, PPTX, text and captions', async () => {
    const pdf = fc.array(fc.oneof(junk, token('%PDF-1.7\n', '1 0 obj', '<< /Type /Page >>', 'stream\n', 'endstream', 'xref', 'trailer', '%%EOF', '/Length 99999999')), { maxLength: 30 }).map((p) => p.join('\n'));
    const upload = fc.oneof(
      pdf.map((b) => ({ body: b as string | Buffer | Promise<Buffer>, name: 'notes.pdf', field: 'file' })),
      fc.oneof(zipWith(DOCX_PARTS), bytes).map((b) => ({ body: b as string | Buffer | Promise<Buffer>, name: 'notes.docx', field: 'file' })),
      fc.oneof(zipWith(PPTX_PARTS), bytes).map((b) => ({ body: b as string | Buffer | Promise<Buffer>, name: 'slides.pptx', field: 'file' })),
      bankText.map((b) => ({ body: b as string | Buffer | Promise<Buffer>, name: 'notes.txt', field: 'file' })),
      linesOf(fc.oneof(junk, token('WEBVTT', '00:00:01.000 --> 00:00:02.000', '1', '99:99:99,999 --> 00:00:00,000', '-->'))).map((b) => ({ body: b as string | Buffer | Promise<Buffer>, name: 'talk.vtt', field: 'captions' })),
    );
    await fc.assert(
      fc.asyncProperty(upload, fc.constantFrom('simple', 'hard', 'balanced', 'nonsense'), fc.integer({ min: -5, max: 80 }), async (u, difficulty, count) =>
        check('/api/cbt/ai/generate-questions', { [u.field]: await part(u.body, u.name), difficulty, count: String(count) })),
      opts(Math.ceil(RUNS / 2)),
    );
  }, 300_000);

  it('the key is needed even for a bad file (401 before any parsing)', async () => {
    const r = await api(s.baseUrl).post('/questions/import', {});
    expect(r.status).toBe(401);
  });
});
