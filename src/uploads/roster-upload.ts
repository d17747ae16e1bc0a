/**
 * A roster file as both programs read it (the hall's POST /exams/:id/roster/import, the
 * hub's POST /hub/v1/exams/:id/roster/import): an .xlsx (sniffed as a zip, or named so) or
 * CSV text, read in the job process (declared sizes first, then the reading, one at a time:
 * docs/design.md §9), with "a header row but no candidates" reported like any row problem.
 */
import type { RosterRead } from '../core/formats/roster-io.js';
import type { JobRunner } from './job-pool.js';
import { headOf, requireText, requireXlsx, sniff, type Upload } from './upload-file.js';

/**
 * Reads the candidates (and each one's `centre` cell) of a roster upload.
 * @returns the rows read, with `errors` ({row, column, message}) for every problem found
 * @throws UnsupportedMediaType / PayloadTooLarge / UnprocessableEntity from the upload checks
 */
export async function readRosterUpload(jobs: JobRunner, upload: Upload): Promise<RosterRead> {
  let read: RosterRead;
  if (sniff(headOf(upload)) === 'zip' || upload.ext === 'xlsx' || upload.ext === 'xls') {
    requireXlsx(upload);
    read = await jobs.runJob<RosterRead>({ op: 'read-roster', bytes: upload.bytes, kind: 'xlsx' });
  } else {
    requireText(upload, ['csv', 'txt', 'tsv']);
    read = await jobs.runJob<RosterRead>({ op: 'read-roster', bytes: upload.bytes, kind: 'csv' });
  }
  if (!read.errors.length && !read.candidates.length) read.errors.push({ row: 2, column: null, message: 'The file has a header row but no candidates.' });
  return read;
}
