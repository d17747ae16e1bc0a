/**
 * Audio and video material with the real tools: espeak-ng speech transcribed by
 * pocketsphinx (questions cite mm:ss), an MP4 made from it, and captions beating
 * recognition (an MP4 subtitle track, an uploaded .srt). Short audio: CPU is scarce.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { ApiError } from '../../src/platform/errors.js';
import { MIN_TRANSCRIPT_CONFIDENCE, readMaterial } from '../../src/uploads/material/read-material.js';
import { JobPool } from '../../src/uploads/job-pool.js';
import { citedPassages, keyText, occursIn } from '../../src/core/generation/support.js';
import { makeMp4, makeSpeechWav, makeSrt, shortParagraph } from './helpers/media.js';

/** The job processes the material is read in (each program builds its own pool). */
const jobs = new JobPool();
afterAll(() => jobs.close());

const dir = mkdtempSync(join(tmpdir(), 'hallcbt-media-test-'));
const sentences = shortParagraph().split(/(?<=\.)\s+/);
let wav: string;
let srt: string;
beforeAll(() => {
  wav = makeSpeechWav(dir, shortParagraph());
  srt = makeSrt(dir, sentences);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const upload = (path: string, name: string, type: string) => ({ bytes: new Uint8Array(readFileSync(path)), name, type });

describe('audio and video', () => {
  it('transcribes espeak speech with pocketsphinx; questions cite timestamps', async () => {
    const m = await readMaterial(jobs, { file: upload(wav, 'lesson.wav', 'audio/wav') });
    expect(m.source).toBe('pocketsphinx');
    expect(m.passages.length).toBeGreaterThan(0);
    for (const p of m.passages) expect(p.citation).toMatch(/^\d\d:\d\d$/);
    const words = m.passages.map((p) => p.text).join(' ');
    // The recogniser is weak but not deaf: some of the known words come through.
    expect(['price', 'rice', 'percent', 'market', 'morning', 'year'].filter((w) => words.includes(w)).length).toBeGreaterThanOrEqual(2);
    expect(m.warnings.join(' ')).toMatch(/Low-confidence transcript/);
    const { questions } = generateExtractive(m.passages, { difficulty: 'simple', count: 3 });
    expect(questions.length).toBeGreaterThan(0);
    for (const q of questions) {
      expect(q.citation).toMatch(/^\d\d:\d\d$/);
      if (q.type === 'MCQ') expect(occursIn(keyText(q)!, citedPassages(q.citation, m.passages))).toBe(true);
    }
  }, 120_000);

  it('transcribes the audio track of an MP4 made from it', async () => {
    const mp4 = makeMp4(dir, wav);
    // Issue 21: the AAC round trip costs the recogniser confidence (about 0.33 here); below
    // MIN_TRANSCRIPT_CONFIDENCE the recording gives no passages, so notes come along.
    const m = await readMaterial(jobs, { file: upload(mp4, 'lesson.mp4', 'video/mp4'), notes: 'Rice is the staple food of many households in Nigeria and across West Africa.' });
    expect(m.source).toBe('pocketsphinx');
    const confidence = Number(/mean word confidence of (\d\.\d\d)/.exec(m.warnings.join(' '))?.[1]);
    expect(confidence).toBeGreaterThan(0);
    const timed = m.passages.filter((p) => /^\d\d:\d\d$/.test(p.citation));
    if (confidence < MIN_TRANSCRIPT_CONFIDENCE) expect(timed).toEqual([]);
    else expect(timed.length).toBeGreaterThan(0);
  }, 120_000);

  it('uses the MP4 subtitle track instead of recognition', async () => {
    const mp4 = makeMp4(dir, wav, 'subtitled.mp4', srt);
    const m = await readMaterial(jobs, { file: upload(mp4, 'subtitled.mp4', 'video/mp4') });
    expect(m.source).toBe('subtitle-track');
    expect(m.warnings).toEqual([]);
    expect(m.passages.map((p) => p.text).join(' ')).toBe(sentences.join(' '));
    expect(m.passages[0]!.citation).toBe('00:00');
  }, 60_000);

  it('uses uploaded captions with audio, or alone', async () => {
    const withAudio = await readMaterial(jobs, { file: upload(wav, 'lesson.wav', 'audio/wav'), captions: upload(srt, 'lesson.srt', 'application/x-subrip') });
    expect(withAudio.source).toBe('captions');
    expect(withAudio.passages.map((p) => p.text).join(' ')).toBe(sentences.join(' '));
    const alone = await readMaterial(jobs, { file: upload(srt, 'lesson.srt', '') });
    expect(alone.source).toBe('captions');
    expect(alone.passages[0]!.citation).toBe('00:00');
  });

  it('with CBT_WHISPER_MODEL set, a missing model or whisper binary is a 503 naming the fix', async () => {
    const audio = upload(wav, 'lesson.wav', 'audio/wav');
    const noModel = await readMaterial(jobs, { file: audio }, { whisperModel: join(dir, 'missing.bin') }).catch((e) => e);
    expect(noModel).toBeInstanceOf(ApiError);
    expect(noModel.status).toBe(503);
    expect(noModel.message).toMatch(/CBT_WHISPER_MODEL points to/);
    const noBinary = await readMaterial(jobs, { file: audio }, { whisperModel: srt, toolEnv: { path: '/usr/bin:/bin' } }).catch((e) => e);
    expect(noBinary.status).toBe(503);
    expect(noBinary.message).toMatch(/whisper-cli is not on PATH .*Install whisper\.cpp/);
  });
});

