/**
 * Question imports into a hub exam (issue #24 §3): the hall's own readers and rules —
 * a spreadsheet (the hall's template; errors by row and column) or a question bank in
 * Aiken, GIFT, Moodle XML, past-paper Markdown, a pasted paper or QTI 3.0 (an item, or a
 * content package .zip: src/uploads/qti-package.ts) (errors by line; dry run
 * to preview with per-line warnings). Files are read in the hub's job processes
 * (`deps.jobs`), one at a time, with the same size and type checks (src/uploads); storing is the hub's
 * (authoring.ts: all or nothing, under the exam's version rules).
 */
import type { BankFormat } from '../core/formats/types.js';
import type { StoredQuestion } from '../core/questions/schemas.js';
import { checkImportCount, planBankImport, readBankSource, readSheetUpload, relabelItemErrors, requireOneSource, sheetLocator, type BankImport } from '../uploads/import-plan.js';
import type { Upload } from '../uploads/upload-file.js';
import { addHubQuestions, listHubQuestions } from './authoring.js';
import type { HubDeps } from './deps.js';

/**
 * Imports a spreadsheet of questions into the exam.
 * @throws NotFound, UnsupportedMediaType (415), 413s, UnreadableArchive (422), ValidationError (`{row, column, message}`), Conflict
 */
export async function importHubSheet(deps: HubDeps, examinerId: string, examId: string, upload: Upload): Promise<{ questions: StoredQuestion[]; warnings: { message: string }[]; version: number }> {
  await listHubQuestions(deps, examId);
  const sheet = await readSheetUpload(deps.jobs, upload);
  const locate = sheetLocator(sheet);
  checkImportCount(sheet.questions.length);
  try {
    const { questions, version } = await addHubQuestions(deps, examinerId, examId, sheet.questions);
    return { questions, warnings: sheet.warnings, version };
  } catch (e) {
    throw relabelItemErrors(e, locate);
  }
}

/**
 * Imports a question bank (a file or text) into the exam; a dry run stores nothing and says
 * what storing would reject.
 * @throws NotFound, ValidationError (`{index, line, path, message}`), Conflict, upload errors
 */
export async function importHubBank(deps: HubDeps, examinerId: string, examId: string, form: { file?: unknown; text?: string; format?: BankFormat; dryRun: boolean }): Promise<BankImport & { version: number | null }> {
  requireOneSource(form);
  await listHubQuestions(deps, examId);
  const parsed = await readBankSource(deps.jobs, form);
  const plan = planBankImport({ parsed, format: form.format, dryRun: form.dryRun, note: parsed.note });
  if ('dryRun' in plan) return { ...plan.dryRun, version: null };
  try {
    const { questions, version } = await addHubQuestions(deps, examinerId, examId, plan.questions);
    return { format: plan.format, created: questions.length, questions, warnings: plan.warnings, skipped: plan.skipped, version };
  } catch (e) {
    throw relabelItemErrors(e, plan.locate);
  }
}
