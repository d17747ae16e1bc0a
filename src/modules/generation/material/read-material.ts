/**
 * Reads uploaded material and/or pasted notes into passages with provenance (issue 7 §1).
 * Documents go to their readers; audio and video use captions when there are any (an
 * uploaded .srt/.vtt, or the MP4's own subtitle track) and speech recognition otherwise.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PayloadTooLarge, UnsupportedMediaType, ValidationError } from '../../../platform/errors.js';
import { UnusableMaterial } from '../errors.js';
import { parseCaptions, timedTextToPassages } from './captions.js';
import { readDocx, readPdf, readPlainText } from './documents.js';
import { extractSpeechWav, extractSubtitleCues, mediaDurationSeconds, MAX_TRANSCRIBED_SECONDS } from './media.js';
import type { Material, Passage } from '../../../core/generation/passage.js';
import { readPptx } from './pptx.js';
import { decodeText, resolveFormat } from './sniff.js';
import { transcribe, type Transcript } from './speech.js';
import { Gate, processToolEnv, type ToolEnv } from './tools.js';

/** Upload size limit for generation material (spec "Limits": 40 MB). */
export const MAX_MATERIAL_BYTES = 40 * 1024 * 1024;
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

/** An uploaded file as bytes plus what it claims to be. */
export interface UploadedFile {
  bytes: Uint8Array;
  name: string;
  type: string;
}

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
 * Reads the material.
 * @throws ValidationError (400) with neither file nor notes; PayloadTooLarge (413) over 40 MB;
 *   UnsupportedMediaType (415); ServiceUnavailable (503) for a missing tool;
 *   UnusableMaterial (422) when nothing readable remains.
 */
export async function readMaterial(input: MaterialInput, opts: MaterialOptions = {}): Promise<Material> {
  const notes = input.notes?.trim() ? input.notes : undefined;
  if (!input.file && !input.captions && !notes) {
    throw new ValidationError('Send a file (PDF, DOCX, PPTX, TXT, Markdown, MP3, WAV, MP4, SRT/VTT) or notes.', [{ path: 'file', message: 'neither file nor notes' }]);
  }
  for (const f of [input.file, input.captions]) if (f && f.bytes.length > MAX_MATERIAL_BYTES) throw new PayloadTooLarge(MAX_MATERIAL_BYTES);
  const result: Material = { passages: [], warnings: [], source: 'notes' };
  if (input.file || input.captions) Object.assign(result, await readUpload(input.file, input.captions, opts));
  if (notes) {
    const notePassages = readPlainText(notes);
    const prefix = result.passages.length ? 'notes, ' : '';
    result.passages.push(...notePassages.map((p) => ({ ...p, citation: prefix + p.citation })));
  }
  result.passages = result.passages.filter((p) => /[\p{L}]{2,}/u.test(p.text));
  const tooPoor = result.warnings.find((w) => w.startsWith('No questions were made from the recording'));
  if (!result.passages.length && tooPoor) throw new UnusableMaterial(tooPoor, { minTranscriptConfidence: MIN_TRANSCRIPT_CONFIDENCE });
  if (!result.passages.length) throw new UnusableMaterial('No readable text was found in the material (a scanned PDF without a text layer, an empty document, or silent audio?).');
  return result;
}

async function readUpload(file: UploadedFile | undefined, captions: UploadedFile | undefined, opts: MaterialOptions): Promise<Material> {
  const captionCues = captions ? await readCaptionFile(captions) : null;
  if (!file) return { passages: timedTextToPassages(captionCues!), warnings: [], source: 'captions' };
  const format = await resolveFormat(file.bytes, file.name, file.type);
  switch (format) {
    case 'pdf':
      return { passages: await readPdf(file.bytes), warnings: [], source: 'pdf' };
    case 'docx':
      return { passages: await readDocx(file.bytes), warnings: [], source: 'docx' };
    case 'pptx':
      return { passages: await readPptx(file.bytes), warnings: [], source: 'pptx' };
    case 'txt':
    case 'md':
      return { passages: readPlainText(decodeText(file.bytes) ?? ''), warnings: [], source: 'text' };
    case 'srt':
    case 'vtt':
      return { passages: timedTextToPassages(parseCaptions(decodeText(file.bytes) ?? '')), warnings: [], source: 'captions' };
    default:
      if (captionCues) return { passages: timedTextToPassages(captionCues), warnings: [], source: 'captions' };
      return (opts.gate ?? defaultGate).run(() => readMedia(file, format === 'mp4', opts));
  }
}

async function readCaptionFile(f: UploadedFile) {
  const format = await resolveFormat(f.bytes, f.name, f.type);
  if (format !== 'srt' && format !== 'vtt') throw new UnsupportedMediaType('The captions field must be a SubRip (.srt) or WebVTT (.vtt) file.');
  const cues = parseCaptions(decodeText(f.bytes) ?? '');
  if (!cues.length) throw new UnusableMaterial('The captions file has no cues.');
  return cues;
}

/** Audio/video: subtitle track first (MP4), else speech recognition. */
async function readMedia(file: UploadedFile, isVideo: boolean, opts: MaterialOptions): Promise<Material> {
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
