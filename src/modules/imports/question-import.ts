/**
 * Question imports (DESIGN §6, issue 6): a spreadsheet (POST /questions/import-excel)
 * or a question bank in Aiken, GIFT, Moodle XML, the past-paper layout or a pasted paper
 * (POST /questions/import). All-or-nothing by default: the question service inserts every
 * question in one transaction or none (a bank import with `skipInvalid` stores the valid ones); its `{index, path}` errors are mapped back to
 * where the examiner can find them (`{row, column}` in a sheet, `{line}` in a text).
 * File reading and parsing happen before the transaction (STYLE).
 */
import type { HallDeps } from '../../hall/deps.js';
import { ValidationError, type FieldError } from '../../platform/errors.js';
import { getExamInWorkspace } from '../exams/service.js';
import { insertQuestions } from '../questions/service.js';
import { questionInputSchema, type StoredQuestion } from '../../core/questions/schemas.js';
import { COLUMN_TITLES, OPTION_LETTERS } from '../../core/formats/xlsx/columns.js';
import type { SheetRead } from '../../core/formats/xlsx/read-questions.js';
import { parseQuestionBank } from '../../core/formats/detect.js';
import { BankFormatError, type BankFormat, type ImportWarning, type ImportedQuestion, type SkippedItem } from '../../core/formats/types.js';
import { runEngineJob } from '../generation/job-process.js';
import type { ParsedBank } from './upload-jobs.js';
import { readUpload, requireXlsx, type Upload } from './uploads.js';

/** Most questions one import may create (a 10 MB file can hold far more than an exam needs). */
export const MAX_IMPORT_QUESTIONS = 2000;

/** Question-service path (`options.2.text`) → spreadsheet column title. */
export function columnForPath(path: string, message = ''): string | null {
  const p = path.replace(/^questions\.\d+\./, '');
  const opt = /^options\.(\d+)/.exec(p);
  if (opt) return `Option ${OPTION_LETTERS[Number(opt[1])] ?? opt[1]}`;
  if (p === 'options') return /isCorrect|correct/i.test(message) ? COLUMN_TITLES.correct : COLUMN_TITLES.optionA;
  const head = p.split('.')[0]!;
  const known: Record<string, string> = { prompt: 'Prompt', type: 'Type', marks: 'Marks', explanation: 'Explanation', section: 'Section', minWords: 'MinWords', maxWords: 'MaxWords', modelAnswer: 'ModelAnswer', rubric: 'Rubric' };
  return known[head] ?? null;
}

/** At most MAX_IMPORT_QUESTIONS per import. @throws ValidationError */
export function checkImportCount(n: number): void {
  if (n > MAX_IMPORT_QUESTIONS) throw new ValidationError(`The file holds ${n} questions; at most ${MAX_IMPORT_QUESTIONS} can be imported at once. Split it.`, []);
}

/** A question service's ValidationError with its `{index, path}` errors re-labelled by `locate`; any other error as it is. */
export function relabelItemErrors(e: unknown, locate: (e: FieldError) => FieldError): unknown {
  if (!(e instanceof ValidationError)) return e;
  const errors = ((e.extra.errors as FieldError[] | undefined) ?? []).map(locate);
  return new ValidationError(`${e.message}`, errors);
}

/** Runs insertQuestions, re-labelling its item errors with `locate(index, path, message)`. */
function insertMapped(deps: HallDeps, workspaceId: string, examId: string, qs: ImportedQuestion[], locate: (e: FieldError) => FieldError): StoredQuestion[] {
  checkImportCount(qs.length);
  try {
    return insertQuestions(deps, workspaceId, examId, qs);
  } catch (e) {
    throw relabelItemErrors(e, locate);
  }
}

/** A read spreadsheet's row problems as one 400, or where a question's item errors are (`{row, column}`). @throws ValidationError */
export function sheetLocator(sheet: SheetRead): (e: FieldError) => FieldError {
  if (sheet.errors.length) {
    const rows = new Set(sheet.errors.map((x) => x.row)).size;
    throw new ValidationError(`${rows} row(s) of the spreadsheet have problems; nothing was imported.`, sheet.errors.map((x) => ({ ...x })));
  }
  return (e) => ({ row: sheet.rows[e.index as number] ?? null, column: columnForPath(String(e.path ?? ''), e.message), message: e.message });
}

/** Reads a spreadsheet upload in the job process (its type is checked here from its first bytes; its declared sizes there, before anything is inflated). */
export async function readSheetUpload(upload: Upload): Promise<SheetRead> {
  requireXlsx(upload);
  return runEngineJob<SheetRead>({ op: 'read-sheet', bytes: upload.bytes });
}

/**
 * Imports a question spreadsheet into an exam. The workbook is read in the job process.
 * @throws NotFound (exam), UnsupportedMediaType (not an .xlsx), ArchiveTooLarge / TooHeavyToRead (413),
 *   UnreadableArchive (422), ValidationError with `errors: [{row, column, message}]`
 */
export async function importQuestionSheet(deps: HallDeps, workspaceId: string, examId: string, upload: Upload) {
  getExamInWorkspace(deps, workspaceId, examId);
  const sheet = await readSheetUpload(upload);
  const questions = insertMapped(deps, workspaceId, examId, sheet.questions, sheetLocator(sheet));
  return { questions, warnings: sheet.warnings };
}

export { bankText } from './upload-jobs.js';

/** A bank import names exactly one source: a file or a non-blank text. @throws ValidationError */
export function requireOneSource(form: { file?: unknown; text?: string }): void {
  if ((form.file instanceof Blob) === (typeof form.text === 'string' && form.text.trim() !== '')) {
    throw new ValidationError('Send either a file or text (exactly one).', [{ path: 'file', message: 'give file or text' }]);
  }
}

/**
 * Reads and parses a bank import's file or text in the job process (decoding, mammoth and
 * the parser run there, one at a time).
 * @throws PayloadTooLarge, UnsupportedMediaType, ArchiveTooLarge, ValidationError (unrecognised text)
 */
export async function readBankSource(form: { file?: unknown; text?: string; format?: BankFormat }): Promise<ParsedBank> {
  const upload = form.file instanceof Blob ? await readUpload(form.file) : undefined;
  // an archive's declared sizes are checked in the job process first (upload-jobs.ts)
  return runEngineJob<ParsedBank>({ op: 'read-bank', upload, text: upload ? undefined : form.text!, format: form.format });
}

export interface BankImport {
  format: BankFormat;
  created: number;
  questions: (StoredQuestion | ImportedQuestion)[];
  warnings: ImportWarning[];
  skipped: SkippedItem[];
  /** dry run only: what storing would reject, by question index and line */
  errors?: FieldError[];
}

/**
 * Parses a question bank (or takes one the job process parsed) and (unless `dryRun`)
 * stores its questions in the exam. A dry run lists in `errors` what the import would
 * reject, including "no importable questions".
 * @throws NotFound, ValidationError (unreadable or nothing importable; item errors with `{index, line, path, message}`)
 */
export function importQuestionBank(deps: HallDeps, workspaceId: string, examId: string, input: { text?: string; parsed?: ParsedBank; format?: BankFormat; dryRun: boolean; skipInvalid?: boolean; note?: string }): BankImport {
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

/** What a bank import will store (and how to place its item errors), or a dry run's whole answer. */
export type BankImportPlan =
  | { dryRun: BankImport }
  | { format: BankFormat; questions: ImportedQuestion[]; locate: (e: FieldError) => FieldError; warnings: ImportWarning[]; skipped: SkippedItem[] };

/**
 * The storage-free part of a bank import, shared by the hall and the hub: parse (unless the
 * job process did), then either the dry run's answer (with the errors storing would give,
 * by question index and line) or the questions to store and where their errors are.
 * @throws ValidationError (unreadable, or nothing importable)
 */
export function planBankImport(input: { text?: string; parsed?: ParsedBank; format?: BankFormat; dryRun: boolean; note?: string }): BankImportPlan {
  let parsed = input.parsed;
  if (!parsed) {
    try {
      parsed = parseQuestionBank(input.text ?? '', input.format);
    } catch (e) {
      if (e instanceof BankFormatError) throw new ValidationError(e.message, [{ ...(e.line ? { line: e.line } : {}), message: e.message }]);
      throw e;
    }
  }
  const { format, result } = parsed;
  const warnings = input.note ? [{ message: input.note }, ...result.warnings] : result.warnings;
  const locate = (e: FieldError): FieldError => ({ index: e.index, line: result.lines[e.index as number] ?? null, path: e.path, message: e.message });
  const nothing = `No importable questions were found in the ${format} text.`;
  const skippedErrors: FieldError[] = result.skipped.map((s) => ({ ...(s.line ? { line: s.line } : {}), message: s.reason }));
  if (input.dryRun) {
    // a dry run says what the import would reject: with nothing importable, that rejection
    const errors: FieldError[] = result.questions.length ? [] : [{ message: nothing }, ...skippedErrors];
    result.questions.forEach((q, index) => {
      const r = questionInputSchema.safeParse(q);
      if (!r.success) for (const i of r.error.issues) errors.push(locate({ index, path: i.path.map(String).join('.'), message: i.message }));
    });
    return { dryRun: { format, created: 0, questions: result.questions, warnings, skipped: result.skipped, errors } };
  }
  if (!result.questions.length) throw new ValidationError(nothing, skippedErrors, { format, warnings });
  checkImportCount(result.questions.length);
  return { format, questions: result.questions, locate, warnings, skipped: result.skipped };
}
