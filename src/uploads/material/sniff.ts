/**
 * Decides what an uploaded file is from its bytes (magic numbers), and checks that this
 * agrees with what it claims to be (its extension, or its MIME type when it has none).
 * Unsupported kinds and files whose bytes contradict their claim → 415 (issue 7).
 */
import { loadJsZip } from '../../platform/lazy.js';
import { UnsupportedMediaType, ValidationError } from '../../platform/errors.js';

/** Formats the readers understand. */
export type MaterialFormat = 'pdf' | 'docx' | 'pptx' | 'txt' | 'md' | 'srt' | 'vtt' | 'mp3' | 'wav' | 'mp4';

const BY_EXTENSION: Record<string, MaterialFormat> = {
  pdf: 'pdf', docx: 'docx', pptx: 'pptx', txt: 'txt', text: 'txt', md: 'md', markdown: 'md',
  srt: 'srt', vtt: 'vtt', mp3: 'mp3', wav: 'wav', mp4: 'mp4', m4v: 'mp4',
};
const BY_MIME: Record<string, MaterialFormat> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt', 'text/markdown': 'md', 'text/x-markdown': 'md', 'text/vtt': 'vtt',
  'application/x-subrip': 'srt', 'text/srt': 'srt', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3',
  'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'video/mp4': 'mp4',
};
/** Formats whose bytes are the same family (plain text may carry Markdown, captions are text). */
const FAMILY: Record<MaterialFormat, string> = {
  pdf: 'pdf', docx: 'docx', pptx: 'pptx', txt: 'text', md: 'text', srt: 'srt', vtt: 'vtt', mp3: 'mp3', wav: 'wav', mp4: 'mp4',
};
const SUPPORTED = 'PDF, DOCX, PPTX, TXT, Markdown, SRT/VTT captions, MP3, WAV or MP4';

/** The format a file claims: by extension, else by MIME type; null when it claims nothing useful. */
export function claimedFormat(filename: string, mimeType: string): MaterialFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext) {
    const f = BY_EXTENSION[ext];
    if (!f) {
      const hint = ext === 'doc' || ext === 'ppt' ? ' Save it as .docx/.pptx first.' : '';
      throw new UnsupportedMediaType(`Files of type .${ext} are not supported; upload ${SUPPORTED}.${hint}`);
    }
    return f;
  }
  return BY_MIME[mimeType.split(';')[0]!.trim().toLowerCase()] ?? null;
}

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** Bytes looked at to tell text from binary: 4 MB holds more than read-material's text cap (1 M characters, ≤ 4 bytes each). */
export const TEXT_SNIFF_BYTES = 4 * 1024 * 1024;

/**
 * Decodes bytes as UTF-8 text, or null when they are not text (invalid UTF-8, NULs, control bytes).
 * @param maxBytes decode only the first maxBytes (a character cut at the end is left out)
 */
export function decodeText(bytes: Uint8Array, maxBytes = Infinity): string | null {
  const part = bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(part, { stream: part !== bytes });
  } catch {
    return null;
  }
  const controls = (text.match(/[\u0000-\u0008\u000e-\u001f]/g) ?? []).length;
  return controls > 0 ? null : text.replace(/^\ufeff/, '');
}

/** The format the bytes actually have, or null when unrecognised. DOCX/PPTX are told apart by their zip parts. */
export async function sniffFormat(bytes: Uint8Array): Promise<MaterialFormat | null> {
  const head = ascii(bytes, 0, Math.min(bytes.length, 1024));
  if (head.includes('%PDF-')) return 'pdf';
  if (head.startsWith('PK\u0003\u0004')) {
    try {
      const zip = await (await loadJsZip()).loadAsync(bytes);
      if (zip.file('word/document.xml')) return 'docx';
      if (zip.file('ppt/presentation.xml')) return 'pptx';
    } catch {
      return null;
    }
    return null;
  }
  if (head.startsWith('RIFF') && ascii(bytes, 8, 12) === 'WAVE') return 'wav';
  if (ascii(bytes, 4, 8) === 'ftyp') return 'mp4';
  if (head.startsWith('ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  const text = decodeText(bytes, TEXT_SNIFF_BYTES);
  if (text === null) return null;
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(text)) return 'vtt';
  if (/^\s*\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->/.test(text)) return 'srt';
  return 'txt';
}

/**
 * Resolves the format of an upload.
 * @throws ValidationError (400) for an empty file; UnsupportedMediaType (415) for an
 *   unsupported claim, unrecognised bytes, or bytes that contradict the claim.
 */
export async function resolveFormat(bytes: Uint8Array, filename: string, mimeType: string): Promise<MaterialFormat> {
  if (bytes.length === 0) throw new ValidationError('The uploaded file is empty.', [{ path: 'file', message: 'empty file' }]);
  const claimed = claimedFormat(filename, mimeType);
  const actual = await sniffFormat(bytes);
  if (!actual) {
    throw new UnsupportedMediaType(`The file's contents are not a format we read (${SUPPORTED})${claimed ? `; it claims to be ${claimed.toUpperCase()}` : ''}.`);
  }
  if (!claimed) return actual;
  if (FAMILY[claimed] === FAMILY[actual]) return claimed;
  // A text claim holding captions is still text we can read as captions.
  if (FAMILY[claimed] === 'text' && (actual === 'srt' || actual === 'vtt')) return actual;
  throw new UnsupportedMediaType(`The file claims to be ${claimed.toUpperCase()} but its contents are ${actual.toUpperCase()}.`);
}
