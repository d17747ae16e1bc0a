/**
 * Archive uploads (.xlsx, .docx, .pptx) against zip bombs (issue 22 §1): a 1 MB .xlsx
 * that inflates to 1 GB took the server from 127 MB to 1.24 GB of memory.
 *
 * Two steps, both with yauzl (which reads the central directory and, while inflating,
 * refuses an entry that yields more bytes than it declares):
 * - `checkZipSizes` reads only the central directory — nothing is inflated — and refuses
 *   (413) an archive whose entries, one or together, declare more than the limits;
 * - `verifyZipSizes` then inflates every entry as a stream into nothing (constant
 *   memory; run it in the job process), so an archive that lies about its sizes is
 *   refused (422) before exceljs, mammoth or JSZip inflate it whole.
 * Limits are in bytes of inflated data.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ApiError, UnsupportedMediaType } from '../platform/errors.js';

/** How much an archive may unpack to. */
export interface ZipLimits {
  maxEntries: number;
  /** largest single entry, inflated */
  maxEntryBytes: number;
  /** all entries together, inflated */
  maxTotalBytes: number;
}

const MB = 1024 * 1024;
/** Imports (10 MB uploads): a 2,000-question workbook unpacks to a few MB. */
export const IMPORT_ZIP_LIMITS: ZipLimits = { maxEntries: 5000, maxEntryBytes: 50 * MB, maxTotalBytes: 100 * MB };
/** Generation material (40 MB uploads): room for stored pictures in a slide deck. */
export const MATERIAL_ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxEntryBytes: 64 * MB, maxTotalBytes: 160 * MB };

/** 413: the archive would unpack to more than the limits allow. */
export class ArchiveTooLarge extends ApiError {
  constructor(detail: string, extra: Record<string, unknown> = {}) {
    super(413, 'archive-too-large', 'Archive too large when unpacked', detail, { code: 'ARCHIVE_TOO_LARGE', ...extra });
  }
}

/** 422: the archive cannot be read safely (damaged, or its sizes are false). */
export class UnreadableArchive extends ApiError {
  constructor(detail: string) {
    super(422, 'unreadable-archive', 'Unreadable archive', detail, { code: 'UNREADABLE_ARCHIVE' });
  }
}

const mb = (n: number) => `${(n / MB).toFixed(n < 10 * MB ? 1 : 0)} MB`;

function open(bytes: Uint8Array): Promise<yauzl.ZipFile> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) => (err ? reject(err) : resolve(zip!))),
  );
}

/** Calls `each` for every entry (in central-directory order), awaiting it before the next. */
async function forEachEntry(zip: yauzl.ZipFile, each: (e: yauzl.Entry) => Promise<void> | void): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (e: yauzl.Entry) => {
      Promise.resolve().then(() => each(e)).then(() => zip.readEntry(), (err) => {
        zip.close();
        reject(err);
      });
    });
    zip.readEntry();
  });
}

/**
 * Reads the central directory of `bytes` and refuses an archive that declares too much.
 * @param kind what the file should be, for messages, e.g. "an .xlsx workbook"
 * @throws ArchiveTooLarge (413) over a limit; UnsupportedMediaType (415) when it is not a readable zip
 */
export async function checkZipSizes(bytes: Uint8Array, limits: ZipLimits, kind = 'a zip archive'): Promise<{ entries: number; totalBytes: number }> {
  const what = 'The file';
  let zip: yauzl.ZipFile;
  try {
    zip = await open(bytes);
  } catch (e) {
    // as before these checks: a truncated or damaged zip is not what it claims to be
    throw new UnsupportedMediaType(`The file could not be read as ${kind} (not a readable zip archive: ${(e as Error).message}).`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ArchiveTooLarge(`${what} holds ${zip.entryCount} files; at most ${limits.maxEntries} are accepted.`, { entries: zip.entryCount, maxEntries: limits.maxEntries });
  }
  let total = 0;
  try {
    await forEachEntry(zip, (e) => {
      total += e.uncompressedSize;
      if (e.uncompressedSize > limits.maxEntryBytes) {
        throw new ArchiveTooLarge(`${what} would unpack ${e.fileName} to ${mb(e.uncompressedSize)}; one part may unpack to at most ${mb(limits.maxEntryBytes)}. Is it a zip bomb?`, { entry: e.fileName, entryBytes: e.uncompressedSize, maxEntryBytes: limits.maxEntryBytes });
      }
      if (total > limits.maxTotalBytes) {
        throw new ArchiveTooLarge(`${what} would unpack to more than ${mb(limits.maxTotalBytes)} (the limit); save it smaller or split it.`, { maxTotalBytes: limits.maxTotalBytes });
      }
    });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new UnsupportedMediaType(`The file could not be read as ${kind} (not a readable zip archive: ${(e as Error).message}).`);
  }
  return { entries: zip.entryCount, totalBytes: total };
}

/**
 * Inflates every entry into nothing, checking that none yields more than it declares
 * (so the declared sizes `checkZipSizes` judged are the real ones). Memory stays
 * constant; CPU is that of inflating the archive once.
 * @throws as checkZipSizes, and UnreadableArchive (422) when an entry is damaged or lies about its size
 */
export async function verifyZipSizes(bytes: Uint8Array, limits: ZipLimits, kind = 'a zip archive'): Promise<void> {
  await checkZipSizes(bytes, limits, kind);
  const zip = await open(bytes);
  try {
    await forEachEntry(zip, async (e) => {
      if (e.fileName.endsWith('/')) return;
      const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(e, (err, s) => (err ? reject(err) : resolve(s!))));
      await new Promise<void>((resolve, reject) => {
        stream.on('error', reject);
        stream.on('end', resolve);
        stream.resume();
      });
    });
  } catch (e) {
    throw new UnreadableArchive(`The file (${kind}) cannot be read safely: ${(e as Error).message}. Is it damaged, or a zip bomb?`);
  }
}
