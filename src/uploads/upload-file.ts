/**
 * Uploaded files of the import routes: size limit (413), and "is it what it claims to
 * be" by magic bytes (415, issue 6 §6): an .xlsx/.docx is a zip (`PK\x03\x04`), a text
 * question bank or CSV is text (no NUL bytes, not a zip, PDF or old binary Office
 * file). Text is decoded as UTF-8, UTF-16 (with a BOM), or else Windows-1252 (what
 * Word's "Plain text" save often produces), with a warning.
 */
import { PayloadTooLarge, UnsupportedMediaType, ValidationError } from '../platform/errors.js';
import type { StreamedBytes } from './lease.js';
import { streamedUpload } from './streamed-upload.js';

/** 10 MB: the import limit (app.ts applies the same limit to the whole body). */
export const IMPORT_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * An uploaded file. Through the HTTP routes its bytes were streamed into the job process
 * (StreamedBytes: the server has `head` only); in the job process, and where a file came
 * as a Blob (the hub, app.request), `bytes` is the Uint8Array.
 */
export interface Upload {
  bytes: Uint8Array | StreamedBytes;
  /** the first bytes (up to 8 KB), what `sniff` reads; default: bytes */
  head?: Uint8Array;
  /** default: bytes.length */
  size?: number;
  /** file name as sent (may be '') */
  name: string;
  /** lower-case extension without the dot, '' when none */
  ext: string;
}

/** The File of a multipart field. @throws ValidationError when absent, PayloadTooLarge over the limit */
export async function readUpload(value: unknown, field = 'file', limitBytes = IMPORT_LIMIT_BYTES): Promise<Upload> {
  if (!(value instanceof Blob)) throw new ValidationError(`Attach the file in the multipart field "${field}".`, [{ path: field, message: 'file is required' }]);
  const streamed = streamedUpload(value);
  if ((streamed?.size ?? value.size) > limitBytes) throw new PayloadTooLarge(limitBytes);
  const name = value instanceof File ? value.name : '';
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  const ext = m ? m[1]!.toLowerCase() : '';
  if (streamed) return { bytes: streamed, head: streamed.head, size: streamed.size, name, ext };
  const bytes = new Uint8Array(await value.arrayBuffer());
  return { bytes, head: bytes.subarray(0, 8192), size: bytes.length, name, ext };
}

/** The first bytes of an upload (for `sniff`). */
export const headOf = (u: Upload): Uint8Array => u.head ?? uploadBytes(u.bytes);

/** The bytes of an upload in the process that reads it. @throws Error for bytes still in the job process (a programming error) */
export function uploadBytes(b: Uint8Array | StreamedBytes): Uint8Array {
  if (!(b instanceof Uint8Array)) throw new Error('the upload was streamed into the job process; read it there');
  return b;
}

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/** What the bytes are, by their first bytes. */
export function sniff(b: Uint8Array): 'zip' | 'pdf' | 'ole' | 'binary' | 'text' {
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46])) return 'pdf';
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0])) return 'ole';
  const utf16 = startsWith(b, [0xff, 0xfe]) || startsWith(b, [0xfe, 0xff]);
  if (!utf16 && b.subarray(0, 8192).includes(0)) return 'binary';
  return 'text';
}

/** Requires an .xlsx: zip bytes and no contradicting extension. @throws UnsupportedMediaType */
export function requireXlsx(u: Upload): void {
  const kind = sniff(headOf(u));
  if (kind === 'ole' || u.ext === 'xls') throw new UnsupportedMediaType('This is an old binary Excel (.xls) file; save it as an Excel Workbook (.xlsx) and upload that.');
  if (kind !== 'zip') throw new UnsupportedMediaType(`The file ${u.name ? `"${u.name}" ` : ''}is not an .xlsx workbook (it does not start with the zip signature PK\\x03\\x04).`);
  if (u.ext && !['xlsx', 'xlsm'].includes(u.ext)) throw new UnsupportedMediaType(`The file is named .${u.ext} but its bytes are a zip/.xlsx; rename it or upload the right file.`);
}

/**
 * Requires text; the claimed extension must not say otherwise.
 * @param allowed extensions accepted for text ('' = no extension is always fine)
 * @throws UnsupportedMediaType
 */
export function requireText(u: Upload, allowed: string[]): void {
  const kind = sniff(headOf(u));
  if (kind !== 'text') {
    const what = kind === 'zip' ? 'a zip file (an .xlsx or .docx?)' : kind === 'pdf' ? 'a PDF' : kind === 'ole' ? 'an old binary Office file' : 'binary data';
    throw new UnsupportedMediaType(`The file ${u.name ? `"${u.name}" ` : ''}is ${what}, not text.`);
  }
  if (u.ext && !allowed.includes(u.ext)) throw new UnsupportedMediaType(`Files named .${u.ext} are not accepted here; accepted: ${allowed.map((e) => `.${e}`).join(', ')}.`);
}

/** Windows-1252 characters at 0x80–0x9F (elsewhere it equals Latin-1); some Node builds decode the label as Latin-1. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** Decodes Windows-1252 bytes. */
export function decodeWindows1252(b: Uint8Array): string {
  let out = '';
  for (const byte of b) out += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

/** Decodes text bytes. @returns the text and, when it was not UTF-8, a note saying how it was read */
export function decodeText(b: Uint8Array): { text: string; note?: string } {
  if (startsWith(b, [0xff, 0xfe])) return { text: new TextDecoder('utf-16le').decode(b.subarray(2)) };
  if (startsWith(b, [0xfe, 0xff])) return { text: new TextDecoder('utf-16be').decode(b.subarray(2)) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(b).replace(/^\uFEFF/, '') };
  } catch {
    return { text: decodeWindows1252(b), note: 'The file is not UTF-8; it was read as Windows-1252. Check accented letters and symbols.' };
  }
}
