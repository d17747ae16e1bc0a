/**
 * QTI 3.0 content packages as zip files (docs/decisions.md, "QTI 3.0 content packages"):
 * reading an uploaded package in the job process — its declared and real sizes are checked
 * first (zip-limits.ts, as for every archive upload), then its XML files are handed to the
 * core's reader — and writing the exports' package.
 */
import { loadJsZip } from '../platform/lazy.js';
import { parseQtiPackage } from '../core/formats/qti/read-package.js';
import type { ParseResult } from '../core/formats/types.js';
import { UnsupportedMediaType } from '../platform/errors.js';
import { IMPORT_ZIP_LIMITS, verifyZipSizes } from './zip-limits.js';

/** The zip's XML files by path (UTF-8), after its sizes were verified. @throws ArchiveTooLarge (413), UnreadableArchive (422), UnsupportedMediaType (415) */
async function xmlFiles(bytes: Uint8Array): Promise<Map<string, string>> {
  await verifyZipSizes(bytes, IMPORT_ZIP_LIMITS, 'a QTI content package');
  const JSZip = await loadJsZip();
  let zip: Awaited<ReturnType<typeof JSZip.loadAsync>>;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new UnsupportedMediaType('The file could not be read as a zip archive (a QTI content package).');
  }
  const files = new Map<string, string>();
  for (const entry of Object.values(zip.files)) {
    if (entry.dir || !/\.xml$/i.test(entry.name)) continue;
    files.set(entry.name.replace(/^\.\//, ''), new TextDecoder('utf-8').decode(await entry.async('uint8array')).replace(/^\uFEFF/, ''));
  }
  return files;
}

/** True when a (size-verified) zip holds `imsmanifest.xml` at its top level. */
export async function isQtiPackage(bytes: Uint8Array): Promise<boolean> {
  await verifyZipSizes(bytes, IMPORT_ZIP_LIMITS, 'a zip archive');
  const JSZip = await loadJsZip();
  try {
    return (await JSZip.loadAsync(bytes)).file('imsmanifest.xml') !== null;
  } catch {
    return false;
  }
}

/**
 * Reads an uploaded content package (run in the job process).
 * @throws ArchiveTooLarge (413), UnreadableArchive (422), UnsupportedMediaType (415), BankFormatError (no manifest, DOCTYPE, malformed XML)
 */
export async function readQtiPackage(bytes: Uint8Array): Promise<ParseResult> {
  return parseQtiPackage(await xmlFiles(bytes));
}

/** Zips a package's files (path → XML text), deflated. */
export async function zipQtiPackage(files: Map<string, string>): Promise<Buffer> {
  const JSZip = await loadJsZip();
  const zip = new JSZip();
  for (const [path, text] of files) zip.file(path, text);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}
