/**
 * The hub's authoring routes (issue #24 §3), registered on the examiner router (API key):
 * the hall's question API and imports, on a hub exam. Same bodies, answers and status
 * codes as the hall's (/questions/bulk, PATCH/DELETE /questions/:id, reorder, import-excel,
 * import with dryRun, template, rubric templates, questions.xlsx/.gift/.qti.zip); the exam is named in the path rather
 * than in a `workspaceId`/`examId` body field, and answers that change the paper carry
 * `examVersion` (a change after publication makes the next version: docs/hub.md).
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { questionPatchSchema, storedQuestionSchema } from '../../core/questions/schemas.js';
import { RUBRIC_TEMPLATES } from '../../core/questions/rubric-templates.js';
import { templateWorkbook } from '../../core/formats/xlsx/template.js';
import { questionsWorkbook } from '../../core/formats/xlsx/write-questions.js';
import { toGift } from '../../core/formats/gift-export.js';
import { qtiPackageFiles } from '../../core/formats/qti/write.js';
import { zipQtiPackage } from '../../uploads/qti-package.js';
import { bankImportForm, bankImportResponse, download, excelImportForm, excelImportResponse, isTrue, XLSX_TYPE } from '../../core/formats/import-schemas.js';
import { toQuestionInput } from '../../core/formats/question-input.js';
import { uploadErrors } from '../../uploads/http.js';
import { readUpload } from '../../uploads/upload-file.js';
import { errorResponses, jsonBody, jsonResponse, z } from '../../platform/openapi.js';
import type { HubDeps, HubEnv } from '../deps.js';
import { addHubQuestions, deleteHubQuestion, getHubQuestion, hubExamPatchSchema, listHubQuestions, patchHubExam, patchHubQuestion, reorderHubQuestions } from '../authoring.js';
import { getHubExam } from '../exams.js';
import { importHubBank, importHubSheet } from '../question-imports.js';
import { examinerSecurity } from '../router.js';

const tags = ['Hub: authoring'];
const examParams = z.object({ id: z.string().min(1).max(64) });
const questionParams = z.object({ id: z.string().min(1).max(64), questionId: z.string().min(1).max(64) });
const examVersion = z.number().int().openapi({ description: 'The exam’s version after this change (a change after publication makes the next version)' });
const conflict = { 409: { ...errorResponses[400], description: 'The paper has been released at a hall (PAPER_RELEASED) or may be released now (RELEASE_WINDOW_OPEN): it can no longer change' } };
const hubExcelForm = excelImportForm.omit({ workspaceId: true, examId: true }).openapi('HubExcelImportForm');
const hubBankForm = bankImportForm.omit({ workspaceId: true, examId: true }).openapi('HubQuestionBankImportForm');

function file(bytes: Buffer | string, type: string, name: string): Response {
  const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 120);
  return new Response(typeof bytes === 'string' ? bytes : new Uint8Array(bytes), { status: 200, headers: { 'content-type': type, 'content-disposition': `attachment; filename="${safe}"`, 'cache-control': 'no-store' } });
}
const slug = (title: string) => title.trim().replace(/\s+/g, '_') || 'exam';

/** Adds the authoring routes to the examiner router `r` (whose middleware checks the API key). */
export function registerAuthoringRoutes(r: OpenAPIHono<HubEnv>, deps: HubDeps): void {
  r.openapi(
    createRoute({ method: 'patch', path: '/hub/v1/exams/{id}', tags, security: examinerSecurity, summary: 'Change the exam’s settings (title, times, proctoring, shuffling, calculator, sections) and/or replace its roster (with subjects and extra time); the same rules as a question edit', request: { params: examParams, body: jsonBody(hubExamPatchSchema) }, responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), 'The exam after the change (with version)'), ...errorResponses, ...conflict } }),
    async (c) => {
      const id = c.req.valid('param').id;
      await patchHubExam(deps, c.var.examiner.id, id, c.req.valid('json'));
      return c.json(await getHubExam(deps, id), 200);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/questions', tags, security: examinerSecurity, summary: 'The exam’s questions in paper order (answer keys included)', request: { params: examParams }, responses: { 200: jsonResponse(z.array(storedQuestionSchema), 'Questions'), ...errorResponses } }),
    async (c) => c.json(await listHubQuestions(deps, c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/exams/{id}/questions/bulk',
      tags,
      security: examinerSecurity,
      summary: 'Add questions (all-or-nothing, ≤ 500; the hall’s item rules)',
      request: { params: examParams, body: jsonBody(z.object({ questions: z.array(z.unknown()).min(1, 'questions must not be empty').max(500, 'At most 500 questions per request') }), 'questions: array of QuestionInput') },
      responses: { 201: jsonResponse(z.object({ success: z.boolean(), examId: z.string(), created: z.number().int(), questions: z.array(storedQuestionSchema), examVersion }), 'Stored'), ...errorResponses, ...conflict },
    }),
    async (c) => {
      const examId = c.req.valid('param').id;
      const { questions, version } = await addHubQuestions(deps, c.var.examiner.id, examId, c.req.valid('json').questions);
      return c.json({ success: true, examId, created: questions.length, questions, examVersion: version }, 201);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/questions/{questionId}', tags, security: examinerSecurity, summary: 'A question (examiner view)', request: { params: questionParams }, responses: { 200: jsonResponse(storedQuestionSchema, 'Question'), ...errorResponses } }),
    async (c) => c.json(await getHubQuestion(deps, c.req.valid('param').id, c.req.valid('param').questionId), 200),
  );
  r.openapi(
    createRoute({ method: 'patch', path: '/hub/v1/exams/{id}/questions/{questionId}', tags, security: examinerSecurity, summary: 'Edit a question (merged, then the whole item re-validated)', request: { params: questionParams, body: jsonBody(questionPatchSchema) }, responses: { 200: jsonResponse(storedQuestionSchema.extend({ examVersion }), 'Question'), ...errorResponses, ...conflict } }),
    async (c) => {
      const { version, ...question } = await patchHubQuestion(deps, c.var.examiner.id, c.req.valid('param').id, c.req.valid('param').questionId, c.req.valid('json'));
      return c.json({ ...question, examVersion: version }, 200);
    },
  );
  r.openapi(
    createRoute({ method: 'delete', path: '/hub/v1/exams/{id}/questions/{questionId}', tags, security: examinerSecurity, summary: 'Delete a question', request: { params: questionParams }, responses: { 204: { description: 'Deleted' }, ...errorResponses, ...conflict } }),
    async (c) => {
      await deleteHubQuestion(deps, c.var.examiner.id, c.req.valid('param').id, c.req.valid('param').questionId);
      return c.body(null, 204);
    },
  );
  r.openapi(
    createRoute({ method: 'post', path: '/hub/v1/exams/{id}/questions/reorder', tags, security: examinerSecurity, summary: 'Set the order of the exam’s questions', request: { params: examParams, body: jsonBody(z.object({ questionIds: z.array(z.string()).min(1).max(5000) })) }, responses: { 200: jsonResponse(z.object({ questionIds: z.array(z.string()), examVersion }), 'New order'), ...errorResponses, ...conflict } }),
    async (c) => {
      const out = await reorderHubQuestions(deps, c.var.examiner.id, c.req.valid('param').id, c.req.valid('json').questionIds);
      return c.json({ questionIds: out.questionIds, examVersion: out.version }, 200);
    },
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/exams/{id}/questions/import-excel',
      tags,
      security: examinerSecurity,
      summary: 'Import questions from a spreadsheet (the hall’s template; all-or-nothing; errors by row and column)',
      request: { params: examParams, body: { required: true, content: { 'multipart/form-data': { schema: hubExcelForm } } } },
      responses: { 201: jsonResponse(excelImportResponse.extend({ examVersion }), 'Imported'), ...uploadErrors, ...conflict },
    }),
    async (c) => {
      const examId = c.req.valid('param').id;
      const upload = await readUpload(c.req.valid('form').file);
      const { questions, warnings, version } = await importHubSheet(deps, c.var.examiner.id, examId, upload);
      return c.json({ success: true, examId, created: questions.length, questions, warnings, examVersion: version }, 201);
    },
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/hub/v1/exams/{id}/questions/import',
      tags,
      security: examinerSecurity,
      summary: 'Import a question bank: Aiken, GIFT, Moodle XML, past-paper Markdown, a pasted paper or QTI 3.0 (an item, or a content package .zip), as a file or text (dryRun to preview)',
      request: { params: examParams, body: { required: true, content: { 'multipart/form-data': { schema: hubBankForm } } } },
      responses: { 201: jsonResponse(bankImportResponse.extend({ examVersion: examVersion.nullable() }), 'Imported'), 200: jsonResponse(bankImportResponse.extend({ examVersion: examVersion.nullable() }), 'Dry run: nothing stored (examVersion null)'), ...uploadErrors, ...conflict },
    }),
    async (c) => {
      const examId = c.req.valid('param').id;
      const form = c.req.valid('form');
      const dryRun = isTrue(form.dryRun);
      const { version, ...res } = await importHubBank(deps, c.var.examiner.id, examId, { file: form.file, text: form.text, format: form.format, dryRun });
      // parsed (dry-run) questions are QuestionInputs before zod defaults: same wire shape
      const body = { success: !res.errors?.length, examId, dryRun, ...res, examVersion: version } as unknown as z.infer<typeof bankImportResponse> & { examVersion: number | null };
      return dryRun ? c.json(body, 200) : c.json(body, 201);
    },
  );
  r.openapi(
    createRoute({
      method: 'get',
      path: '/hub/v1/questions/rubric-templates',
      tags,
      security: examinerSecurity,
      summary: 'Rubric families WAEC, Cambridge, STEM (the hall’s GET /rubric-templates), for an essay question’s rubric',
      responses: { 200: jsonResponse(z.array(z.object({ family: z.string(), name: z.string(), criteria: z.array(z.object({ title: z.string(), weight: z.number(), description: z.string() })) })), 'Templates'), ...errorResponses },
    }),
    (c) => c.json(RUBRIC_TEMPLATES as unknown as { family: string; name: string; criteria: { title: string; weight: number; description: string }[] }[], 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/questions/import-excel/template', tags, security: examinerSecurity, summary: 'The question spreadsheet template (.xlsx; the hall’s)', responses: { 200: download(XLSX_TYPE, 'Template with one example per question type'), ...errorResponses } }),
    async () => file(await templateWorkbook(), XLSX_TYPE, 'HallCBT_question_template.xlsx'),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/questions.xlsx', tags, security: examinerSecurity, summary: 'The exam’s questions as a re-importable spreadsheet', request: { params: examParams }, responses: { 200: download(XLSX_TYPE, 'Questions in the import layout'), ...errorResponses } }),
    async (c) => {
      const exam = await getHubExam(deps, c.req.valid('param').id);
      return file(await questionsWorkbook(exam.questions.map(toQuestionInput), exam.title), XLSX_TYPE, `${slug(exam.title)}_questions.xlsx`);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/questions.gift', tags, security: examinerSecurity, summary: 'The exam’s questions as GIFT (Moodle; re-importable)', request: { params: examParams }, responses: { 200: download('text/plain', 'GIFT text (UTF-8)'), ...errorResponses } }),
    async (c) => {
      const exam = await getHubExam(deps, c.req.valid('param').id);
      return file(toGift(exam.questions.map(toQuestionInput), exam.title), 'text/plain; charset=utf-8', `${slug(exam.title)}_questions.gift`);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/hub/v1/exams/{id}/questions.qti.zip', tags, security: examinerSecurity, summary: 'The exam’s questions as a QTI 3.0 content package (TAO, Inspera; re-importable; docs/decisions.md, "QTI 3.0 content packages")', request: { params: examParams }, responses: { 200: download('application/zip', 'QTI 3.0 content package'), ...errorResponses } }),
    async (c) => {
      const exam = await getHubExam(deps, c.req.valid('param').id);
      return file(await zipQtiPackage(qtiPackageFiles(exam.questions.map(toQuestionInput), exam.title)), 'application/zip', `${slug(exam.title)}_qti.zip`);
    },
  );
}
