/**
 * HTTP routes of question imports and exports (docs/design.md §6, issue 6). All need the API
 * key. Uploads are multipart (≤ 10 MB → else 413; bytes must match the claimed type →
 * else 415; an archive that would unpack to more than zip-limits.ts allows → 413);
 * a file part streams from the socket into the job process as it arrives
 * (src/uploads/streamed-upload.ts) and is read there, one at a time (src/uploads/job-pool.ts);
 * nothing is stored when anything fails.
 *   POST /questions/import-excel            spreadsheet → 201 {success, examId, created, questions, warnings}
 *   GET  /questions/import-excel/template   ready-to-fill .xlsx
 *   POST /questions/import                  Aiken | GIFT | Moodle XML | past paper | pasted paper | QTI 3.0 → 201 (200 on dryRun)
 *   GET  /exams/:id/questions.xlsx          re-importable spreadsheet
 *   GET  /exams/:id/questions.gift          GIFT (re-importable, Moodle-readable)
 *   GET  /exams/:id/questions.qti.zip       QTI 3.0 content package (re-importable; TAO, Inspera)
 * Results and roster files are in export-routes.ts, registered on the same router.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { NotFound, ValidationError } from '../../platform/errors.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, z } from '../../platform/openapi.js';
import { requireApiKey } from '../../hall/auth.js';
import { importQuestionBank, importQuestionSheet } from './question-import.js';
import { readBankSource, requireOneSource } from '../../uploads/import-plan.js';
import { IMPORT_LIMIT_BYTES, readUpload } from '../../uploads/upload-file.js';
import { streamedForm } from '../../uploads/streamed-upload.js';
import { getExamInWorkspace } from '../exams/index.js';
import { templateWorkbook } from '../../core/formats/xlsx/template.js';
import { questionsWorkbook } from '../../core/formats/xlsx/write-questions.js';
import { toGift } from '../../core/formats/gift-export.js';
import { qtiPackageFiles } from '../../core/formats/qti/write.js';
import { zipQtiPackage } from '../../uploads/qti-package.js';
import { examWithQuestions } from './exam-data.js';
import { toQuestionInput } from '../../core/formats/question-input.js';
import { registerExportRoutes } from './export-routes.js';
import { fileName, sendFile, uploadErrors } from '../../uploads/http.js';
import { XLSX_TYPE, bankImportForm, bankImportResponse, download, examIdParams, excelImportForm, excelImportResponse, isTrue } from '../../core/formats/import-schemas.js';

/** Import/export router: questions and (via export-routes.ts) results and rosters. */
export function importRoutes(deps: HallDeps) {
  const r = createRouter();
  const auth = requireApiKey(deps);
  const ownWorkspace = (c: Context<AppEnv>, workspaceId: string) => {
    if (workspaceId !== c.var.workspace.id) throw new NotFound('Workspace');
  };

  r.openapi(
    createRoute({
      method: 'post',
      path: '/questions/import-excel',
      tags: ['Questions'],
      security: keySecurity,
      middleware: [auth, streamedForm(deps.jobs, IMPORT_LIMIT_BYTES, { smallLane: true })] as const,
      summary: 'Import questions from a spreadsheet (all-or-nothing; errors by row and column)',
      request: { body: { required: true, content: { 'multipart/form-data': { schema: excelImportForm } } } },
      responses: { 201: jsonResponse(excelImportResponse, 'Imported'), ...uploadErrors },
    }),
    async (c) => {
      const form = c.req.valid('form');
      ownWorkspace(c, form.workspaceId);
      const upload = await readUpload(form.file);
      const { questions, warnings } = await importQuestionSheet(deps, c.var.workspace.id, form.examId, upload);
      return c.json({ success: true, examId: form.examId, created: questions.length, questions, warnings }, 201);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/questions/import-excel/template',
      tags: ['Questions'],
      security: keySecurity,
      middleware: [auth] as const,
      summary: 'The question spreadsheet template (.xlsx)',
      responses: { 200: download(XLSX_TYPE, 'Template with one example per question type, drop-down lists and an Instructions sheet'), ...errorResponses },
    }),
    async (c) => sendFile(c, await templateWorkbook(), XLSX_TYPE, 'HallCBT_question_template.xlsx'),
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/questions/import',
      tags: ['Questions'],
      security: keySecurity,
      middleware: [auth, streamedForm(deps.jobs, IMPORT_LIMIT_BYTES, { smallLane: true })] as const,
      summary: 'Import a question bank: Aiken, GIFT, Moodle XML, past-paper Markdown, a pasted paper or QTI 3.0 (an item, or a content package .zip) (dryRun to preview; all-or-nothing unless skipInvalid=true)',
      request: { body: { required: true, content: { 'multipart/form-data': { schema: bankImportForm } } } },
      responses: { 201: jsonResponse(bankImportResponse, 'Imported'), 200: jsonResponse(bankImportResponse, 'Dry run: nothing stored'), ...uploadErrors },
    }),
    async (c) => {
      const form = c.req.valid('form');
      ownWorkspace(c, form.workspaceId);
      requireOneSource(form);
      getExamInWorkspace(deps, c.var.workspace.id, form.examId);
      const parsed = await readBankSource(deps.jobs, form);
      const dryRun = isTrue(form.dryRun);
      const skipInvalid = form.skipInvalid === 'true';
      const res = importQuestionBank(deps, c.var.workspace.id, form.examId, { parsed, format: form.format, dryRun, skipInvalid, note: parsed.note });
      // parsed (dry-run) questions are QuestionInputs before zod defaults: same wire shape
      const body = { success: dryRun ? !res.errors?.length : true, examId: form.examId, dryRun, ...res } as unknown as z.infer<typeof bankImportResponse>;
      return dryRun ? c.json(body, 200) : c.json(body, 201);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/questions.xlsx',
      tags: ['Questions'],
      security: keySecurity,
      middleware: [auth] as const,
      summary: 'An exam’s questions as a re-importable spreadsheet',
      request: { params: examIdParams },
      responses: { 200: download(XLSX_TYPE, 'Questions in the import layout'), ...errorResponses },
    }),
    async (c) => {
      const { exam, questions } = examWithQuestions(deps, c.var.workspace.id, c.req.valid('param').id);
      return sendFile(c, await questionsWorkbook(questions.map(toQuestionInput), exam.title), XLSX_TYPE, fileName(exam.title, 'questions.xlsx'));
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/questions.gift',
      tags: ['Questions'],
      security: keySecurity,
      middleware: [auth] as const,
      summary: 'An exam’s questions as GIFT (Moodle; re-importable)',
      request: { params: examIdParams },
      responses: { 200: download('text/plain', 'GIFT text (UTF-8)'), ...errorResponses },
    }),
    (c) => {
      const { exam, questions } = examWithQuestions(deps, c.var.workspace.id, c.req.valid('param').id);
      return sendFile(c, toGift(questions.map(toQuestionInput), exam.title), 'text/plain; charset=utf-8', fileName(exam.title, 'questions.gift'));
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/questions.qti.zip',
      tags: ['Questions'],
      security: keySecurity,
      middleware: [auth] as const,
      summary: 'An exam’s questions as a QTI 3.0 content package (TAO, Inspera; re-importable)',
      description: 'imsmanifest.xml, assessment-test.xml (a section per run of questions with one section name) and items/Qnnn.xml: MCQ and TRUE_FALSE as choice items, essays as extended-text items with the rubric and model answer in scorer rubric blocks; marks as MAXSCORE. See docs/decisions.md, "QTI 3.0 content packages".',
      request: { params: examIdParams },
      responses: { 200: download('application/zip', 'QTI 3.0 content package'), ...errorResponses },
    }),
    async (c) => {
      const { exam, questions } = examWithQuestions(deps, c.var.workspace.id, c.req.valid('param').id);
      return sendFile(c, await zipQtiPackage(qtiPackageFiles(questions.map(toQuestionInput), exam.title)), 'application/zip', fileName(exam.title, 'qti.zip'));
    },
  );

  registerExportRoutes(r, deps, auth);
  return r;
}
