/**
 * Result and roster files (issue 6 §3 and §5), registered on the import router:
 *   GET  /exams/:id/results.xlsx      one row per attempt, an ABSENT row per roster candidate without one, + "Item analysis" sheet
 *   GET  /exams/:id/results.csv       the same rows as CSV (UTF-8, hall time with the UTC offset)
 *   POST /exams/:id/roster/import     CSV or .xlsx (studentId, candidateName, phone, extraTimePercent?, extraTimeMins?, subjects?) → 201 {created, candidates}
 *   GET  /exams/:id/roster.xlsx       roster with PINs, for printing
 * Results are read from the database: answers of attempts still in progress may lag
 * the live buffer by up to the flush interval; completed attempts are complete.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { ValidationError } from '../../platform/errors.js';
import { jsonResponse, keySecurity, z, errorResponses } from '../../platform/openapi.js';
import { getExamInWorkspace } from '../exams/index.js';
import { addToRoster, listRoster } from '../roster/index.js';
import { examAnalysis } from '../analysis/index.js';
import { examAnswerRecords, examAttemptRecords, examWithQuestions, listRosterNames } from './exam-data.js';
import { resultsCsv, resultsTable, resultsWorkbook } from '../../core/formats/results-export.js';
import { rosterWorkbook } from '../../core/formats/roster-io.js';
import { parseSections } from '../../core/exams/sections.js';
import { IMPORT_LIMIT_BYTES, readUpload } from '../../uploads/upload-file.js';
import { readRosterUpload } from '../../uploads/roster-upload.js';
import { streamedForm } from '../../uploads/streamed-upload.js';
import { XLSX_TYPE, download, examIdParams, rosterImportForm } from '../../core/formats/import-schemas.js';
import { fileName, sendFile, uploadErrors } from '../../uploads/http.js';

const FLUSH_NOTE = 'One row per attempt, then one row with status ABSENT for every roster candidate who never started. Times are the hall’s local time (the zone of the machine running the hall server), the zone named in the Started/Completed headers — e.g. "Started (hall time, Africa/Lagos)" — and, in the CSV, the UTC offset in each cell: "2026-11-27 14:05:09 (UTC+01:00)"; the .xlsx holds real dates showing that wall-clock time. Read from the database: answers of attempts still in progress may lag the live answer buffer by up to the flush interval (CBT_FLUSH_INTERVAL_MS); completed attempts are always complete. Question columns hold the examiner’s key label of the chosen option (not the shuffled label the candidate saw); essays show approved marks or "pending". An exam with sections adds one column per section, "<name> (section score)", before the question columns; a question a candidate was not given (a section’s draw, or a subject they do not take) is empty.';

const rosterEntry = z.object({ id: z.string(), studentId: z.string(), candidateName: z.string(), phone: z.string().nullable(), subjects: z.array(z.string()), pin: z.string(), extraTimePercent: z.number().int(), extraTimeMins: z.number().int(), smsLink: z.string(), whatsappLink: z.string(), createdAt: z.string() });

/** Adds the results and roster file routes to `r`. */
export function registerExportRoutes(r: OpenAPIHono<AppEnv>, deps: HallDeps, auth: MiddlewareHandler<AppEnv>): void {
  const results = (workspaceId: string, examId: string) => {
    const { exam, questions } = examWithQuestions(deps, workspaceId, examId);
    const roster = listRosterNames(deps, workspaceId, exam.id);
    const sections = (parseSections(exam.sections_json) ?? []).map((x) => x.name);
    const table = resultsTable(questions, examAttemptRecords(deps, workspaceId, exam.id), examAnswerRecords(deps, workspaceId, exam.id), roster, undefined, sections);
    return { exam, table };
  };

  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/results.xlsx',
      tags: ['Results'],
      security: keySecurity,
      middleware: [auth] as const,
      summary: 'Results workbook: one row per attempt, one column per question, and an Item analysis sheet',
      description: FLUSH_NOTE,
      request: { params: examIdParams },
      responses: { 200: download(XLSX_TYPE, 'Results'), ...errorResponses },
    }),
    async (c) => {
      const ws = c.var.workspace.id;
      const { exam, table } = results(ws, c.req.valid('param').id);
      const bytes = await resultsWorkbook(exam.title, table, examAnalysis(deps, ws, exam.id));
      return sendFile(c, bytes, XLSX_TYPE, fileName(exam.title, 'results.xlsx'));
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/results.csv',
      tags: ['Results'],
      security: keySecurity,
      middleware: [auth] as const,
      summary: 'Results as CSV (one row per attempt, an ABSENT row per roster candidate without one)',
      description: `${FLUSH_NOTE} Text cells starting with = + - @ are prefixed with an apostrophe (CSV injection guard).`,
      request: { params: examIdParams },
      responses: { 200: download('text/csv', 'Results CSV (UTF-8 with BOM)'), ...errorResponses },
    }),
    (c) => {
      const { exam, table } = results(c.var.workspace.id, c.req.valid('param').id);
      return sendFile(c, resultsCsv(table), 'text/csv; charset=utf-8', fileName(exam.title, 'results.csv'));
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/exams/{id}/roster/import',
      tags: ['Roster'],
      security: keySecurity,
      middleware: [auth, streamedForm(deps.jobs, IMPORT_LIMIT_BYTES, { smallLane: true })] as const,
      summary: 'Add candidates from a CSV or .xlsx (all-or-nothing; errors by row and column)',
      request: { params: examIdParams, body: { required: true, content: { 'multipart/form-data': { schema: rosterImportForm } } } },
      responses: { 201: jsonResponse(z.object({ created: z.number().int(), candidates: z.array(rosterEntry) }), 'Added'), ...uploadErrors },
    }),
    async (c) => {
      const ws = c.var.workspace.id;
      const exam = getExamInWorkspace(deps, ws, c.req.valid('param').id);
      const upload = await readUpload(c.req.valid('form').file);
      const read = await readRosterUpload(deps.jobs, upload);
      if (read.errors.length) throw new ValidationError(`${new Set(read.errors.map((e) => e.row)).size} row(s) of the roster file have problems; nothing was added.`, read.errors.map((e) => ({ ...e })));
      let candidates;
      try {
        candidates = addToRoster(deps, ws, exam.id, read.candidates);
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        const errors = ((e.extra.errors as { index: number; path?: string; message: string }[] | undefined) ?? []).map((x) => ({ row: read.rows[x.index] ?? null, column: x.path ?? null, message: x.message }));
        throw new ValidationError(e.message, errors);
      }
      return c.json({ created: candidates.length, candidates }, 201);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/exams/{id}/roster.xlsx',
      tags: ['Roster'],
      security: keySecurity,
      middleware: [auth] as const,
      summary: 'Roster with PINs as .xlsx (for printing PIN slips)',
      request: { params: examIdParams },
      responses: { 200: download(XLSX_TYPE, 'Roster'), ...errorResponses },
    }),
    async (c) => {
      const ws = c.var.workspace.id;
      const exam = getExamInWorkspace(deps, ws, c.req.valid('param').id);
      const bytes = await rosterWorkbook({ title: exam.title, accessCode: exam.access_code }, listRoster(deps, ws, exam.id));
      return sendFile(c, bytes, XLSX_TYPE, fileName(exam.title, 'roster.xlsx'));
    },
  );
}
