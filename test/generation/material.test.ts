/**
 * Material readers: provenance (page / slide / paragraph / mm:ss), magic-byte checks and
 * the problems for bad input (400, 413, 415, 422, 503).
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/platform/errors.js';
import { readMaterial, MAX_MATERIAL_BYTES } from '../../src/uploads/material/read-material.js';
import { JobPool } from '../../src/uploads/job-pool.js';
import { formatTimestamp, linesToParagraphs } from '../../src/core/generation/passage.js';
import { parseCaptions, timedTextToPassages } from '../../src/uploads/material/captions.js';
import { resolveFormat } from '../../src/uploads/material/sniff.js';
import { parsePocketsphinx5, parsePocketsphinxContinuous, wordsToTranscript } from '../../src/uploads/material/speech.js';
import { makeDocx, makePptx } from './helpers/ooxml.js';
import { REAL_PAPERS_DIR, describeReal } from '../real-papers.js';

/** The job processes the material is read in (each program builds its own pool). */
const jobs = new JobPool();
afterAll(() => jobs.close());

const ICAN = join(REAL_PAPERS_DIR, 'ICAN_Foundation_Nov_2023.pdf');
const file = (bytes: Uint8Array, name: string, type = '') => ({ bytes, name, type });
const text = (s: string) => new TextEncoder().encode(s);

/** The status of the ApiError `p` rejects with. */
async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
  throw new Error('expected a problem');
}

describeReal('document readers', () => {
  it('reads the ICAN PDF page by page with "page N" citations', async () => {
    const m = await readMaterial(jobs, { file: file(readFileSync(ICAN), 'ICAN_Foundation_Nov_2023.pdf', 'application/pdf') });
    expect(m.source).toBe('pdf');
    expect(m.passages.length).toBeGreaterThan(90);
    const p6 = m.passages.find((p) => p.citation === 'page 6')!;
    expect(p6.text).toContain('N2,076,500');
    expect(m.passages[0]!.citation).toBe('page 1');
  }, 30_000);
});

describe('document readers', () => {

  it('reads DOCX paragraphs and PPTX slides in show order', async () => {
    const docx = await readMaterial(jobs, { file: file(await makeDocx(['Heading', 'First point about soil.', '', 'Second point about water.']), 'notes.docx') });
    expect(docx.passages.map((p) => p.citation)).toEqual(['paragraph 1', 'paragraph 2', 'paragraph 3']);
    expect(docx.passages[2]!.text).toBe('Second point about water.');
    // makePptx stores slides in reverse file order: the reader must follow the slide list.
    const pptx = await readMaterial(jobs, { file: file(await makePptx([['Intro', 'Alpha line.'], ['Middle', 'Beta line.'], ['End', 'Gamma line.']]), 'deck.pptx') });
    expect(pptx.passages.map((p) => p.citation)).toEqual(['slide 1', 'slide 2', 'slide 3']);
    expect(pptx.passages[0]!.text).toBe('Intro\nAlpha line.');
    expect(pptx.passages[2]!.text).toContain('Gamma');
  });

  it('reads Markdown and notes as paragraphs, both together', async () => {
    const m = await readMaterial(jobs, { file: file(text('# Title\n\nSome **bold** text.\n\n- item one\n- item two'), 'a.md'), notes: 'Extra note here.' });
    expect(m.passages.map((p) => p.citation)).toEqual(['paragraph 1', 'paragraph 2', 'paragraph 3', 'notes, paragraph 1']);
    expect(m.passages[1]!.text).toBe('Some bold text.');
  });

  it('joins hard-wrapped lines but keeps headings and bullets apart', () => {
    expect(linesToParagraphs('Outsourcing\nOutsourcing is the practice of con-\ntracting work out.\n• A bullet\n• Another')).toEqual([
      'Outsourcing',
      'Outsourcing is the practice of contracting work out.',
      '• A bullet',
      '• Another',
    ]);
  });
});

describe('captions and transcripts', () => {
  it('parses SRT and VTT cues and cites mm:ss', () => {
    const srt = '1\n00:00:01,000 --> 00:00:04,000\nThe price of rice rose.\n\n2\n00:03:15,500 --> 00:03:18,000\n<i>Farmers</i> came to town.\n';
    const vtt = 'WEBVTT\n\n00:01.000 --> 00:04.000 align:start\nThe price of rice rose.\n';
    expect(parseCaptions(srt)).toEqual([
      { start: 1, end: 4, text: 'The price of rice rose.' },
      { start: 195.5, end: 198, text: 'Farmers came to town.' },
    ]);
    expect(parseCaptions(vtt)[0]!.start).toBe(1);
    expect(timedTextToPassages(parseCaptions(srt)).map((p) => p.citation)).toEqual(['00:01', '03:15']);
    expect(formatTimestamp(3725)).toBe('1:02:05');
  });

  it('parses both pocketsphinx output formats and the mean confidence', () => {
    const v5 = '{"b":0.0,"d":2.0,"p":0.9,"t":"rice went up","w":[{"b":0.0,"d":0.1,"p":1,"t":"<s>"},{"b":0.1,"d":0.5,"p":0.8,"t":"rice"},{"b":0.6,"d":0.4,"p":0.6,"t":"went(2)"},{"b":1.0,"d":0.5,"p":1.0,"t":"up"}]}';
    const t5 = wordsToTranscript(parsePocketsphinx5(v5), 'pocketsphinx');
    expect(t5.utterances).toEqual([{ start: 0.1, end: 1.5, text: 'rice went up.' }]);
    expect(t5.confidence).toBeCloseTo(0.8);
    const cont = 'rice went up\n<s> 0.000 0.020 0.99\nrice 0.030 0.500 0.5\n<sil> 0.51 0.6 0.9\nup 0.610 0.900 0.3\n</s> 0.9 1.0 1.0\n';
    const tc = wordsToTranscript(parsePocketsphinxContinuous(cont), 'pocketsphinx');
    expect(tc.utterances).toEqual([{ start: 0.03, end: 0.9, text: 'rice up.' }]);
    expect(tc.confidence).toBeCloseTo(0.4);
  });
});

describe('problems for bad input', () => {
  it('400 with neither file nor notes, or an empty file', async () => {
    expect(await statusOf(readMaterial(jobs, {}))).toBe(400);
    expect(await statusOf(readMaterial(jobs, { notes: '   ' }))).toBe(400);
    expect(await statusOf(readMaterial(jobs, { file: file(new Uint8Array(), 'a.pdf') }))).toBe(400);
  });

  it('413 above 40 MB', async () => {
    expect(await statusOf(readMaterial(jobs, { file: file(new Uint8Array(MAX_MATERIAL_BYTES + 1), 'big.txt') }))).toBe(413);
  });

  it('415 for unsupported types and lying files', async () => {
    const docx = await makeDocx(['Hello world paragraph.']);
    expect(await statusOf(resolveFormat(text('%PDF-1.5 fake'), 'slides.pptx', ''))).toBe(415);
    expect(await statusOf(resolveFormat(docx, 'deck.pptx', ''))).toBe(415);
    expect(await statusOf(resolveFormat(text('just text'), 'lecture.mp3', 'audio/mpeg'))).toBe(415);
    expect(await statusOf(resolveFormat(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 1]), 'old.doc', ''))).toBe(415);
    expect(await statusOf(resolveFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'photo.png', 'image/png'))).toBe(415);
    expect(await statusOf(resolveFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), 'upload', 'application/octet-stream'))).toBe(415);
    // Right bytes, no extension: the bytes decide.
    expect(await resolveFormat(docx, 'upload', 'application/octet-stream')).toBe('docx');
    expect(await resolveFormat(text('1\n00:00:01,000 --> 00:00:02,000\nHi\n'), 'notes.txt', '')).toBe('srt');
  });

  it('422 for a PDF without text', async () => {
    expect(await statusOf(readMaterial(jobs, { file: file(text('%PDF-1.4\n%%EOF\n'), 'scan.pdf') }))).toBe(422);
  });

  it('503 naming the Debian package when a media tool is missing', async () => {
    const wav = new Uint8Array(44 + 3200);
    wav.set(text('RIFF'), 0);
    wav.set(text('WAVE'), 8);
    const empty = mkdtempSync(join(tmpdir(), 'no-tools-'));
    const err = await readMaterial(jobs, { file: file(wav, 'a.wav') }, { toolEnv: { path: empty } }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/apt-get install ffmpeg/);
  });
});
