/**
 * Question imports into a hall exam (issue 6): a spreadsheet (POST /questions/import-excel)
 * or a question bank in Aiken, GIFT, Moodle XML, the past-paper layout or a pasted paper
 * (POST /questions/import). Files are read and planned by the shared upload machinery
 * (src/uploads/import-plan.ts) before the transaction; storing is all-or-nothing: the
 * question service inserts every question in one transaction or none, and its
 * `{index, path}` errors are mapped back to where the examiner can find them.
 */
import type { HallDeps } from '../../hall/deps.js';
import type { FieldError } from '../../platform/errors.js';
import { getExamInWorkspace } from '../exams/service.js';
import { insertQuestions } from '../questions/service.js';
import type { StoredQuestion } from '../../core/questions/schemas.js';
import type { ImportedQuestion } from '../../core/formats/types.js';
import { checkImportCount, planBankImport, readSheetUpload, relabelItemErrors, sheetLocator, type BankImport } from '../../uploads/import-plan.js';
import type { Upload } from '../../uploads/upload-file.js';

/** Runs insertQuestions, re-labelling its item errors with `locate(index, path, message)`. */
function insertMapped(deps: HallDeps, workspaceId: string, examId: string, qs: ImportedQuestion[], locate: (e: FieldError) => FieldError): StoredQuestion[] {
  checkImportCount(qs.length);
  try {
    return insertQuestions(deps, workspaceId, examId, qs);
  } catch (e) {
    throw relabelItemErrors(e, locate);
  }
}

/**
 * Imports a question spreadsheet into an exam. The workbook is read in the job process.
 * @throws NotFound (exam), UnsupportedMediaType (not an .xlsx), ArchiveTooLarge / TooHeavyToRead (413),
 *   UnreadableArchive (422), ValidationError with `errors: [{row, column, message}]`
 */
export async function importQuestionSheet(deps: HallDeps, workspaceId: string, examId: string, upload: Upload) {
  getExamInWorkspace(deps, workspaceId, examId);
  const sheet = await readSheetUpload(deps.jobs, upload);
  const questions = insertMapped(deps, workspaceId, examId, sheet.questions, sheetLocator(sheet));
  return { questions, warnings: sheet.warnings };
}

/**
 * Parses a question bank (or takes one the job process parsed) and (unless `dryRun`)
 * stores its questions in the exam. A dry run lists in `errors` what the import would
 * reject, including "no importable questions".
 * @throws NotFound, ValidationError (unreadable or nothing importable; item errors with `{index, line, path, message}`)
 */
export function importQuestionBank(deps: HallDeps, workspaceId: string, examId: string, input: Parameters<typeof planBankImport>[0]): BankImport {
  getExamInWorkspace(deps, workspaceId, examId);
  const plan = planBankImport(input);
  if ('dryRun' in plan) return plan.dryRun;
  const questions = insertMapped(deps, workspaceId, examId, plan.questions, plan.locate);
  return { format: plan.format, created: questions.length, questions, warnings: plan.warnings, skipped: plan.skipped };
}
