/**
 * Reads uploaded material and/or pasted notes into passages with provenance (issue 7 §1).
 * Documents go to their readers; audio and video use captions when there are any (an
 * uploaded .srt/.vtt, or the MP4's own subtitle track) and speech recognition otherwise.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PayloadTooLarge, UnsupportedMediaType, ValidationError } from '../../platform/errors.js';
import { UnusableMaterial } from '../errors.js';
import { parseCaptions, timedTextToPassages } from './captions.js';
import { readDocx, readPdf, readPlainText } from './documents.js';
import { extractSpeechWav, extractSubtitleCues, mediaDurationSeconds, MAX_TRANSCRIBED_SECONDS } from './media.js';
import type { Material, Passage } from '../../core/generation/passage.js';
import { readPptx } from './pptx.js';
import { decodeText, resolveFormat, TEXT_SNIFF_BYTES } from './sniff.js';
import { transcribe, type Transcript } from './speech.js';
import { Gate, processToolEnv, type ToolEnv } from './tools.js';
import { checkZipSizes, MATERIAL_ZIP_LIMITS, verifyZipSizes } from '../zip-limits.js';
import type { JobRunner } from '../job-pool.js';
import type { StreamedBytes } from '../lease.js';

/** Upload size limit for generation material (docs/api-overview.md, "Limits": 40 MB). */
export const MAX_MATERIAL_BYTES = 40 * 1024 * 1024;
/**
 * Text kept from the material, characters (about 60,000 words — a 160-page book): the
 * engine's work and memory grow with the text, and a 39 MB .txt once took 20 s and
 * 3 GB (issue 22 §1), and at 1,000,000 the part-of-speech tagging of issue 21 took the hall
 * past its 200 MB bound for uploads. The rest is dropped and the response says so (`truncated`).
 */
export const MAX_MATERIAL_TEXT_CHARS = 400_000;
/** Below this mean word posterior a transcript is reported as low-confidence. */
export const LOW_CONFIDENCE = 0.75;
/**
 * Below this mean word posterior a transcript is too poor for questions: it yields no
 * passages at all (issue 21 §3; see docs/decisions.md for the value). The threshold is
 * stated in the response.
 */
export const MIN_TRANSCRIPT_CONFIDENCE = 0.4;

/**
 * Passages and warnings from a speech-recognition transcript: none below
 * MIN_TRANSCRIPT_CONFIDENCE (with a warning naming the confidence and the threshold), a
 * low-confidence warning below LOW_CONFIDENCE. Pure.
 */
export function transcriptMaterial(transcript: Transcript): { passages: Passage[]; warnings: string[]; rejected: boolean } {
  const c = transcript.confidence;
  if (c !== null && c < MIN_TRANSCRIPT_CONFIDENCE) {
    const warning =
      `No questions were made from the recording: ${transcript.recogniser} recognised the speech with a mean word confidence of ${c.toFixed(2)}, ` +
      `below the threshold of ${MIN_TRANSCRIPT_CONFIDENCE.toFixed(2)} under which a transcript is too poor for questions. Upload captions (.srt/.vtt) with the file, or set CBT_WHISPER_MODEL.`;
    return { passages: [], warnings: [warning], rejected: true };
  }
  const passages = timedTextToPassages(transcript.utterances, { gapSeconds: 1.5, minWords: 8, maxWords: 40 });
  const warnings: string[] = [];
  if (c !== null && c < LOW_CONFIDENCE) {
    warnings.push(
      `Low-confidence transcript: ${transcript.recogniser} recognised the speech with a mean word confidence of ${c.toFixed(2)} ` +
        `(questions are made only at ${MIN_TRANSCRIPT_CONFIDENCE.toFixed(2)} or above). Check every question against the recording before use, or upload captions (.srt/.vtt) with the file for accurate questions.`,
    );
  }
  return { passages, warnings, rejected: false };
}

/**
 * An uploaded file as bytes plus what it claims to be. From the HTTP route its bytes were
 * streamed into the job process (StreamedBytes: the server keeps only `head`, the first
 * 8 KB, and `size`); the job process sees a Uint8Array.
 */
export interface UploadedFile {
  bytes: Uint8Array | StreamedBytes;
  name: string;
  type: string;
  /** the first bytes (at least 16 when the file has them); default: bytes */
  head?: Uint8Array;
  /** default: bytes.length */
  size?: number;
}

/** The bytes of a file in the process that reads it. @throws Error for bytes still in the job process (a programming error) */
function bytesOf(f: UploadedFile): Uint8Array {
  if (!(f.bytes instanceof Uint8Array)) throw new Error('the upload was streamed into the job process; read it there');
  return f.bytes;
}
const headOf = (f: UploadedFile) => f.head ?? bytesOf(f);
const sizeOf = (f: UploadedFile) => f.size ?? bytesOf(f).length;

/** What the examiner sent. */
export interface MaterialInput {
  file?: UploadedFile;
  /** A .srt/.vtt uploaded with (or instead of) audio or video. */
  captions?: UploadedFile;
  notes?: string;
}

/** How media is handled: where tools are found, the whisper model, the CPU gate. */
export interface MaterialOptions {
  toolEnv?: ToolEnv;
  whisperModel?: string;
  gate?: Gate;
}

const defaultGate = new Gate();

/**
 * Reads the material. Documents, captions and notes are read in a job process of `jobs`
 * (one at a time, capped memory, lower priority: job-pool.ts; an archive's declared sizes
 * are checked there first); audio and video are read here (their work is in ffmpeg and
 * the recogniser, one at a time through the gate: their bytes come back from the job
 * process when they were streamed there).
 * @throws ValidationError (400) with neither file nor notes; PayloadTooLarge (413) over 40 MB;
 *   ArchiveTooLarge / TooHeavyToRead (413); UnreadableArchive (422);
 *   UnsupportedMediaType (415); ServiceUnavailable (503) for a missing tool or a full queue;
 *   UnusableMaterial (422) when nothing readable remains.
 */
export async function readMaterial(jobs: JobRunner, input: MaterialInput, opts: MaterialOptions = {}): Promise<Material> {
  const notes = input.notes?.trim() ? input.notes : undefined;
  if (!input.file && !input.captions && !notes) {
    throw new ValidationError('Send a file (PDF, DOCX, PPTX, TXT, Markdown, MP3, WAV, MP4, SRT/VTT) or notes.', [{ path: 'file', message: 'neither file nor notes' }]);
  }
  for (const f of [input.file, input.captions]) if (f && sizeOf(f) > MAX_MATERIAL_BYTES) throw new PayloadTooLarge(MAX_MATERIAL_BYTES);
  if (input.file && isMediaBytes(headOf(input.file))) {
    const streamed = [input.file, input.captions].some((f) => f && !(f.bytes instanceof Uint8Array));
    return readMaterialHere(streamed ? await jobs.runJob<MaterialInput>({ op: 'echo', input }) : input, opts);
  }
  // the bytes go to the job process through a pipe (not copied here), or are there already
  return jobs.runJob<Material>({ op: 'read-material', input });
}

/**
 * readMaterial's work in the job process: an archive's declared sizes first (no inflating;
 * 413 for a bomb before any reader looks at it), then readMaterialHere.
 */
export async function readMaterialInChild(input: MaterialInput): Promise<Material> {
  if (input.file && isZipBytes(bytesOf(input.file))) await checkZipSizes(bytesOf(input.file), MATERIAL_ZIP_LIMITS, 'a document');
  return readMaterialHere(input);
}

const isZipBytes = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
/** WAV, MP4 or MP3 by their first bytes (sniff.ts has the same rules). */
function isMediaBytes(b: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  return (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') || ascii(4, 8) === 'ftyp' || ascii(0, 3) === 'ID3' || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0);
}

/** Keeps passages up to MAX_MATERIAL_TEXT_CHARS in all, cutting the last one. */
function capPassages(m: Material): Material {
  let left = MAX_MATERIAL_TEXT_CHARS;
  const kept: Passage[] = [];
  for (const p of m.passages) {
    if (left <= 0) {
      m.truncated = true;
      break;
    }
    if (p.text.length > left) {
      kept.push({ ...p, text: p.text.slice(0, left) });
      m.truncated = true;
    } else kept.push(p);
    left -= p.text.length;
  }
  m.passages = kept;
  return m;
}

/**
 * readMaterial's work, in the calling process (the job process, or the server for media).
 * Archives are inflated into nothing first with their sizes enforced (zip-limits.ts).
 */
export async function readMaterialHere(input: MaterialInput, opts: MaterialOptions = {}): Promise<Material> {
  const notes = input.notes?.trim() ? input.notes : undefined;
  const result: Material = { passages: [], warnings: [], source: 'notes' };
  if (input.file || input.captions) Object.assign(result, await readUpload(input.file, input.captions, opts));
  if (notes) {
    const notePassages = readPlainText(notes.slice(0, MAX_MATERIAL_TEXT_CHARS));
    const prefix = result.passages.length ? 'notes, ' : '';
    result.passages.push(...notePassages.map((p) => ({ ...p, citation: prefix + p.citation })));
  }
  result.passages = result.passages.filter((p) => /[\p{L}]{2,}/u.test(p.text));
  capPassages(result);
  if (result.truncated) result.warnings.unshift(`The material holds more text than is read for one request; only its first ${MAX_MATERIAL_TEXT_CHARS.toLocaleString('en')} characters were used. Split it to generate from the rest.`);
  const tooPoor = result.warnings.find((w) => w.startsWith('No questions were made from the recording'));
  if (!result.passages.length && tooPoor) throw new UnusableMaterial(tooPoor, { minTranscriptConfidence: MIN_TRANSCRIPT_CONFIDENCE });
  if (!result.passages.length) throw new UnusableMaterial('No readable text was found in the material (a scanned PDF without a text layer, an empty document, or silent audio?).');
  return result;
}

async function readUpload(upload: UploadedFile | undefined, captions: UploadedFile | undefined, opts: MaterialOptions): Promise<Material> {
  const captionCues = captions ? await readCaptionFile({ ...captions, bytes: bytesOf(captions) }) : null;
  if (!upload) return { passages: timedTextToPassages(captionCues!), warnings: [], source: 'captions' };
  const file = { ...upload, bytes: bytesOf(upload) };
  const format = await resolveFormat(file.bytes, file.name, file.type);
  switch (format) {
    case 'pdf':
      return { passages: await readPdf(file.bytes), warnings: [], source: 'pdf' };
    case 'docx':
      await verifyZipSizes(file.bytes, MATERIAL_ZIP_LIMITS, 'a Word document');
      return { passages: await readDocx(file.bytes), warnings: [], source: 'docx' };
    case 'pptx':
      await verifyZipSizes(file.bytes, MATERIAL_ZIP_LIMITS, 'a PowerPoint presentation');
      return { passages: await readPptx(file.bytes), warnings: [], source: 'pptx' };
    case 'txt':
    case 'md': {
      // cut before decoding and splitting into passages (a 39 MB .txt: 40 M characters)
      const text = decodeText(file.bytes, TEXT_SNIFF_BYTES) ?? '';
      const cut = text.length > MAX_MATERIAL_TEXT_CHARS || file.bytes.length > TEXT_SNIFF_BYTES;
      return { passages: readPlainText(cut ? text.slice(0, MAX_MATERIAL_TEXT_CHARS + 1) : text), warnings: [], source: 'text', truncated: cut };
    }
    case 'srt':
    case 'vtt':
      return { passages: timedTextToPassages(parseCaptions(decodeText(file.bytes) ?? '')), warnings: [], source: 'captions' };
    default:
      if (captionCues) return { passages: timedTextToPassages(captionCues), warnings: [], source: 'captions' };
      return (opts.gate ?? defaultGate).run(() => readMedia(file, format === 'mp4', opts));
  }
}

async function readCaptionFile(f: UploadedFile & { bytes: Uint8Array }) {
  const format = await resolveFormat(f.bytes, f.name, f.type);
  if (format !== 'srt' && format !== 'vtt') throw new UnsupportedMediaType('The captions field must be a SubRip (.srt) or WebVTT (.vtt) file.');
  const cues = parseCaptions(decodeText(f.bytes) ?? '');
  if (!cues.length) throw new UnusableMaterial('The captions file has no cues.');
  return cues;
}

/** Audio/video: subtitle track first (MP4), else speech recognition. */
async function readMedia(file: UploadedFile & { bytes: Uint8Array }, isVideo: boolean, opts: MaterialOptions): Promise<Material> {
  const env = opts.toolEnv ?? processToolEnv();
  const dir = await mkdtemp(join(tmpdir(), 'hallcbt-media-'));
  try {
    const input = join(dir, isVideo ? 'input.mp4' : 'input.media');
    await writeFile(input, file.bytes);
    if (isVideo) {
      const cues = await extractSubtitleCues(input, dir, env);
      if (cues) return { passages: timedTextToPassages(cues), warnings: [], source: 'subtitle-track' };
    }
    const warnings: string[] = [];
    const duration = await mediaDurationSeconds(input, env);
    if (duration !== null && duration > MAX_TRANSCRIBED_SECONDS) {
      warnings.push(`Only the first ${MAX_TRANSCRIBED_SECONDS / 60} minutes of the recording were transcribed; upload captions (.srt/.vtt) for the rest.`);
    }
    const wav = await extractSpeechWav(input, dir, env);
    const transcript = await transcribe(wav, dir, env, opts.whisperModel);
    const gated = transcriptMaterial(transcript);
    warnings.push(...gated.warnings);
    const passages: Passage[] = gated.passages;
    return { passages, warnings, source: transcript.recogniser };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
