/**
 * Question imports into a hall exam (issue 6): a spreadsheet (POST /questions/import-excel)
 * or a question bank in Aiken, GIFT, Moodle XML, the past-paper layout or a pasted paper
 * (POST /questions/import). Files are read and planned by the shared upload machinery
 * (src/uploads/import-plan.ts) before the transaction; storing is all-or-nothing: the
 * question service inserts every question in one transaction or none (a bank import with
 * `skipInvalid` stores the valid ones), and its
 * `{index, path}` errors are mapped back to where the examiner can find them.
 */
import type { HallDeps } from '../../hall/deps.js';
import { ValidationError, type FieldError } from '../../platform/errors.js';
import { getExamInWorkspace } from '../exams/index.js';
import { insertQuestions } from '../questions/index.js';
import { questionInputSchema, type StoredQuestion } from '../../core/questions/schemas.js';
import type { ImportedQuestion, SkippedItem } from '../../core/formats/types.js';
import { checkImportCount, planBankImport, readSheetUpload, relabelItemErrors, sheetLocator, type BankImport, type BankImportPlan } from '../../uploads/import-plan.js';
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
export function importQuestionBank(deps: HallDeps, workspaceId: string, examId: string, input: Parameters<typeof planBankImport>[0] & { skipInvalid?: boolean }): BankImport {
  getExamInWorkspace(deps, workspaceId, examId);
  const plan = planBankImport(input);
  if ('dryRun' in plan) return plan.dryRun;
  if (input.skipInvalid) return importValidOnes(deps, workspaceId, examId, plan);
  const questions = insertMapped(deps, workspaceId, examId, plan.questions, plan.locate);
  return { format: plan.format, created: questions.length, questions, warnings: plan.warnings, skipped: plan.skipped };
}

/**
 * `skipInvalid=true` (docs/decisions.md, "Imports keep what is good, when asked"): stores
 * the questions that pass the question rules, in one transaction, and answers with the
 * others in `skipped` ({index, line, reason}) and their problems in `errors`
 * ({index, line, path, message}). A paper size limit still refuses the whole import.
 * @throws ValidationError when no question is valid (nothing stored)
 */
function importValidOnes(deps: HallDeps, workspaceId: string, examId: string, plan: Exclude<BankImportPlan, { dryRun: BankImport }>): BankImport {
  const errors: FieldError[] = [];
  const keep: ImportedQuestion[] = [];
  const keptIndex: number[] = [];
  const skipped: SkippedItem[] = [];
  plan.questions.forEach((q, index) => {
    const r = questionInputSchema.safeParse(q);
    if (r.success) {
      keep.push(q);
      keptIndex.push(index);
      return;
    }
    const mine = r.error.issues.map((i) => plan.locate({ index, path: i.path.map(String).join('.') || '(item)', message: i.message }));
    errors.push(...mine);
    const line = mine[0]?.line;
    skipped.push({ index, ...(typeof line === 'number' ? { line } : {}), reason: `Question ${index + 1} not stored: ${[...new Set(mine.map((e) => e.message))].join('; ')}.` });
  });
  if (!keep.length) throw new ValidationError(`None of the ${plan.questions.length} question(s) is valid; nothing was stored.`, errors);
  // item errors of the kept ones (e.g. a paper limit) are placed by their index in the file
  const questions = insertMapped(deps, workspaceId, examId, keep, (e) => plan.locate({ ...e, index: keptIndex[e.index as number] }));
  return { format: plan.format, created: questions.length, questions, warnings: plan.warnings, skipped: [...plan.skipped, ...skipped], errors };
}
