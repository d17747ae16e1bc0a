/**
 * Issue 21 §3: one confidence threshold under which a speech transcript produces no
 * questions at all, stated in the response. The recogniser here is a stand-in script on
 * PATH that prints pocketsphinx 5 JSON with a chosen word confidence; ffmpeg is real.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { MIN_TRANSCRIPT_CONFIDENCE, readMaterial, transcriptMaterial } from '../../src/uploads/material/read-material.js';
import { JobPool } from '../../src/uploads/job-pool.js';
import { parsePocketsphinx5, wordsToTranscript } from '../../src/uploads/material/speech.js';
import { ApiError } from '../../src/platform/errors.js';
import { makeSpeechWav } from './helpers/media.js';

/** The job processes the material is read in (each program builds its own pool). */
const jobs = new JobPool();
afterAll(() => jobs.close());

const SPEECH = [
  'the market opened early in the morning and farmers brought maize from the villages',
  'the price of rice went up by ten percent last year because the harvest was poor',
  'traders said the new road made business easier for farmers and for buyers',
  'the cooperative bought a truck to carry yams and cassava to the city market',
];

/** pocketsphinx 5 JSON lines: one utterance per sentence, every word with posterior `p`. */
function sphinxJson(p: number): string {
  let t = 0;
  return SPEECH.map((s) => {
    const w = s.split(' ').map((word) => ({ b: (t += 0.4), d: 0.35, p, t: word }));
    t += 2;
    return JSON.stringify({ b: w[0]!.b, d: t - w[0]!.b, p, t: s, w });
  }).join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'hallcbt-threshold-'));
let wav: Uint8Array;
beforeAll(() => {
  wav = new Uint8Array(readFileSync(makeSpeechWav(dir, 'The market opens at eight.')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PATH whose pocketsphinx prints `sphinxJson(p)`; ffmpeg and the rest from /usr/bin. */
function fakeSphinxPath(p: number): string {
  const bin = mkdtempSync(join(dir, 'bin-'));
  writeFileSync(join(bin, 'out.json'), sphinxJson(p));
  writeFileSync(join(bin, 'pocketsphinx'), `#!/bin/sh\ncat "${join(bin, 'out.json')}"\n`);
  chmodSync(join(bin, 'pocketsphinx'), 0o755);
  return `${bin}:/usr/bin:/bin`;
}

describe('transcript confidence threshold', () => {
  it('is one stated number: below it no passages, at or above it passages', () => {
    const low = transcriptMaterial(wordsToTranscript(parsePocketsphinx5(sphinxJson(0.34)), 'pocketsphinx'));
    expect(low.passages).toEqual([]);
    expect(low.warnings.join(' ')).toContain(`threshold of ${MIN_TRANSCRIPT_CONFIDENCE.toFixed(2)}`);
    expect(low.warnings.join(' ')).toContain('0.34');
    const ok = transcriptMaterial(wordsToTranscript(parsePocketsphinx5(sphinxJson(MIN_TRANSCRIPT_CONFIDENCE + 0.01)), 'pocketsphinx'));
    expect(ok.passages.length).toBeGreaterThan(0);
    expect(ok.warnings.join(' ')).toMatch(/Low-confidence transcript/);
  });

  it('a recording transcribed at 0.34 gives a 422 naming the threshold, not questions', async () => {
    const err = await readMaterial(jobs, { file: { bytes: wav, name: 'lesson.wav', type: 'audio/wav' } }, { toolEnv: { path: fakeSphinxPath(0.34) } }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toContain('below the threshold of 0.40');
    expect((err as ApiError).extra).toMatchObject({ minTranscriptConfidence: 0.4 });
  }, 60_000);

  it('with notes as well, the notes give questions and the response says the recording gave none', async () => {
    const notes = 'Cassava is a root crop grown widely in southern Nigeria for garri and flour. Yams are stored in barns after the harvest to keep them dry.';
    const m = await readMaterial(jobs, { file: { bytes: wav, name: 'lesson.wav', type: 'audio/wav' }, notes }, { toolEnv: { path: fakeSphinxPath(0.34) } });
    expect(m.passages.every((p) => p.citation.startsWith('paragraph'))).toBe(true);
    expect(m.warnings.join(' ')).toMatch(/No questions were made from the recording.*0\.34.*threshold of 0\.40/);
  }, 60_000);

  it('a recording transcribed at 0.47 (above the threshold) gives questions citing timestamps', async () => {
    const m = await readMaterial(jobs, { file: { bytes: wav, name: 'lesson.wav', type: 'audio/wav' } }, { toolEnv: { path: fakeSphinxPath(0.47) } });
    const { questions } = generateExtractive(m.passages, { difficulty: 'simple', count: 3 });
    expect(questions.length).toBeGreaterThan(0);
    for (const q of questions) expect(q.citation).toMatch(/^\d\d:\d\d/);
  }, 60_000);
});
