/**
 * The storage-free part of question imports (issue 6; the hall's
 * src/modules/imports/question-import.ts and the hub's src/hub/question-imports.ts store
 * what it plans): a spreadsheet or a question bank (Aiken, GIFT, Moodle XML, the past-paper
 * layout or a pasted paper) is read in a job process, checked against the import's limits,
 * and its questions' `{index, path}` errors are mapped back to where the examiner can find
 * them (`{row, column}` in a sheet, `{line}` in a text). File reading and parsing happen
 * before any transaction.
 */
import { ValidationError, type FieldError } from '../platform/errors.js';
import { questionInputSchema, type StoredQuestion } from '../core/questions/schemas.js';
import { COLUMN_TITLES, OPTION_LETTERS } from '../core/formats/xlsx/columns.js';
import type { SheetRead } from '../core/formats/xlsx/read-questions.js';
import { parseQuestionBank } from '../core/formats/detect.js';
import { BankFormatError, type BankFormat, type ImportWarning, type ImportedQuestion, type SkippedItem } from '../core/formats/types.js';
import type { JobRunner } from './job-pool.js';
import type { ParsedBank, UploadJob } from './upload-jobs.js';
import { readUpload, requireXlsx, type Upload } from './upload-file.js';

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

/** A read spreadsheet's row problems as one 400, or where a question's item errors are (`{row, column}`). @throws ValidationError */
export function sheetLocator(sheet: SheetRead): (e: FieldError) => FieldError {
  if (sheet.errors.length) {
    const rows = new Set(sheet.errors.map((x) => x.row)).size;
    throw new ValidationError(`${rows} row(s) of the spreadsheet have problems; nothing was imported.`, sheet.errors.map((x) => ({ ...x })));
  }
  return (e) => ({ row: sheet.rows[e.index as number] ?? null, column: columnForPath(String(e.path ?? ''), e.message), message: e.message });
}

/** Reads a spreadsheet upload in a job process of `jobs` (its type is checked here from its first bytes; its declared sizes there, before anything is inflated). */
export async function readSheetUpload(jobs: JobRunner, upload: Upload): Promise<SheetRead> {
  requireXlsx(upload);
  return jobs.runJob<SheetRead>({ op: 'read-sheet', bytes: upload.bytes } satisfies UploadJob);
}

/** A bank import names exactly one source: a file or a non-blank text. @throws ValidationError */
export function requireOneSource(form: { file?: unknown; text?: string }): void {
  if ((form.file instanceof Blob) === (typeof form.text === 'string' && form.text.trim() !== '')) {
    throw new ValidationError('Send either a file or text (exactly one).', [{ path: 'file', message: 'give file or text' }]);
  }
}

/**
 * Reads and parses a bank import's file or text in a job process of `jobs` (decoding, mammoth and
 * the parser run there, one at a time).
 * @throws PayloadTooLarge, UnsupportedMediaType, ArchiveTooLarge, ValidationError (unrecognised text)
 */
export async function readBankSource(jobs: JobRunner, form: { file?: unknown; text?: string; format?: BankFormat }): Promise<ParsedBank> {
  const upload = form.file instanceof Blob ? await readUpload(form.file) : undefined;
  // an archive's declared sizes are checked in the job process first (upload-jobs.ts)
  return jobs.runJob<ParsedBank>({ op: 'read-bank', upload, text: upload ? undefined : form.text!, format: form.format } satisfies UploadJob);
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
