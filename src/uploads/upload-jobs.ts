/**
 * The reading of import uploads, as jobs for the job process (job-pool.ts;
 * issue 22 §1): a spreadsheet of questions, a roster (.xlsx or CSV), a question bank (text
 * or .docx, parsed). Archives are first inflated into nothing with their declared sizes
 * enforced (zip-limits.ts `verifyZipSizes`), so exceljs and mammoth only ever inflate
 * what was judged. Runs inside the job process; results are plain data for the route, which
 * then stores them on the main thread (one transaction, as before).
 */
import { loadMammoth } from '../platform/lazy.js';
import { UnsupportedMediaType, ValidationError } from '../platform/errors.js';
import { parseQuestionBank } from '../core/formats/detect.js';
import { readRosterCsv, readRosterXlsx, type RosterRead } from '../core/formats/roster-io.js';
import { BankFormatError, type BankFormat } from '../core/formats/types.js';
import { decodeText, headOf, requireText, sniff, uploadBytes, type Upload } from './upload-file.js';
import { readQuestionSheet, type SheetRead } from '../core/formats/xlsx/read-questions.js';
import { checkZipSizes, IMPORT_ZIP_LIMITS, verifyZipSizes } from './zip-limits.js';
import type { StreamedBytes } from './lease.js';
import { isQtiPackage, readQtiPackage } from './qti-package.js';

/** A job of the job process (bytes streamed there from the socket, or sent from memory). */
export type UploadJob =
  | { op: 'read-sheet'; bytes: Uint8Array | StreamedBytes }
  | { op: 'read-roster'; bytes: Uint8Array | StreamedBytes; kind: 'xlsx' | 'csv' }
  | { op: 'read-bank'; upload?: Upload; text?: string; format?: BankFormat };

/** A parsed question bank (detect.ts) and how its text was read. */
export type ParsedBank = ReturnType<typeof parseQuestionBank> & { note?: string };

/** A truncated or corrupt workbook is the client's file, not a server fault (415). */
async function workbook<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof BankFormatError) throw new UnsupportedMediaType(e.message);
    throw e;
  }
}

/** Text of an uploaded question bank (.docx through mammoth, else decoded text). @throws UnsupportedMediaType, ArchiveTooLarge, UnreadableArchive */
export async function bankText(u: Upload): Promise<{ text: string; note?: string }> {
  const bytes = uploadBytes(u.bytes);
  if (u.ext === 'docx' || (sniff(bytes) === 'zip' && !u.ext)) {
    if (sniff(bytes) !== 'zip') throw new UnsupportedMediaType('The file is named .docx but is not a Word document (no zip signature).');
    await verifyZipSizes(bytes, IMPORT_ZIP_LIMITS, 'a Word document');
    try {
      const r = await (await loadMammoth()).extractRawText({ buffer: Buffer.from(bytes) });
      return { text: r.value };
    } catch {
      throw new UnsupportedMediaType('The file could not be read as a Word (.docx) document.');
    }
  }
  requireText(u, ['txt', 'text', 'gift', 'xml', 'md', 'markdown', 'aiken']);
  return decodeText(bytes);
}

/**
 * A zip upload that is a QTI 3.0 content package (named .zip, or format=qti, or an
 * unnamed zip holding imsmanifest.xml), read whole; null for any other upload.
 * @throws as readQtiPackage; ValidationError when a .zip is sent with another format
 */
async function qtiUpload(job: Extract<UploadJob, { op: 'read-bank' }>): Promise<ParsedBank | null> {
  const u = job.upload;
  if (!u || sniff(headOf(u)) !== 'zip' || u.ext === 'docx') return null;
  const bytes = uploadBytes(u.bytes);
  if (u.ext === 'zip' && job.format && job.format !== 'qti') throw new ValidationError(`A .zip is read as a QTI 3.0 content package, not as ${job.format}.`, [{ path: 'format', message: 'use format=qti for a .zip' }]);
  if (u.ext !== 'zip' && job.format !== 'qti' && (u.ext || !(await isQtiPackage(bytes)))) return null;
  try {
    return { format: 'qti', result: await readQtiPackage(bytes) };
  } catch (e) {
    if (e instanceof BankFormatError) throw new ValidationError(e.message, [{ ...(e.line ? { line: e.line } : {}), message: e.message }]);
    throw e;
  }
}

/**
 * Runs one job. @returns SheetRead | RosterRead | ParsedBank
 * @throws ArchiveTooLarge (413), UnreadableArchive (422), UnsupportedMediaType (415), ValidationError (400: an unrecognised bank)
 */
export async function runUploadJob(job: UploadJob): Promise<SheetRead | RosterRead | ParsedBank> {
  switch (job.op) {
    case 'read-sheet': {
      const bytes = uploadBytes(job.bytes);
      await verifyZipSizes(bytes, IMPORT_ZIP_LIMITS, 'an .xlsx workbook');
      return workbook(() => readQuestionSheet(bytes));
    }
    case 'read-roster': {
      const bytes = uploadBytes(job.bytes);
      if (job.kind === 'csv') return readRosterCsv(decodeText(bytes).text);
      await verifyZipSizes(bytes, IMPORT_ZIP_LIMITS, 'an .xlsx workbook');
      return workbook(() => readRosterXlsx(bytes));
    }
    case 'read-bank': {
      // an archive's declared sizes first (413 for a bomb, whatever its name), as the route did before
      if (job.upload && (job.upload.ext === 'docx' || sniff(headOf(job.upload)) === 'zip')) await checkZipSizes(uploadBytes(job.upload.bytes), IMPORT_ZIP_LIMITS, job.upload.ext === 'docx' ? 'a Word document' : 'a zip archive');
      const qti = await qtiUpload(job);
      if (qti) return qti;
      const source = job.upload ? await bankText(job.upload) : { text: job.text ?? '' };
      try {
        return { ...parseQuestionBank(source.text, job.format), note: source.note };
      } catch (e) {
        if (e instanceof BankFormatError) throw new ValidationError(e.message, [{ ...(e.line ? { line: e.line } : {}), message: e.message }]);
        throw e;
      }
    }
  }
}
