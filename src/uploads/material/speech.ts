/**
 * Offline speech recognition of a 16 kHz mono WAV into timed utterances: whisper.cpp when
 * CBT_WHISPER_MODEL names a model file, otherwise Debian's pocketsphinx with its US
 * English model (`pocketsphinx live` of pocketsphinx 5, or `pocketsphinx_continuous` of
 * the 5prealpha package in Debian 12). Returns a mean word confidence so the caller can
 * warn about weak transcripts.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceUnavailable } from '../../platform/errors.js';
import { toolMissing } from '../errors.js';
import { parseCaptions, type TimedText } from './captions.js';
import { findOnPath, runTool, type ToolEnv } from './tools.js';

/** A transcript: utterances with times, the recogniser's name and its mean word posterior (null if unknown). */
export interface Transcript {
  utterances: TimedText[];
  recogniser: string;
  confidence: number | null;
}

interface Word {
  text: string;
  start: number;
  end: number;
  p: number;
}

const FILLER = /^(?:<.*>|\[.*\]|\+\+.*\+\+)$/;
const PS_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/** Parses `pocketsphinx live` JSON lines (pocketsphinx 5): {b, d, p, t, w: [{b, d, p, t}]}. */
export function parsePocketsphinx5(stdout: string): Word[][] {
  const utterances: Word[][] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    const seg = JSON.parse(line) as { w?: { b: number; d: number; p: number; t: string }[] };
    utterances.push((seg.w ?? []).map((w) => ({ text: w.t, start: w.b, end: w.b + w.d, p: w.p })));
  }
  return utterances;
}

/** Parses `pocketsphinx_continuous -time yes` word lines ("word start end posterior"), split at <s>. */
export function parsePocketsphinxContinuous(stdout: string): Word[][] {
  const utterances: Word[][] = [];
  let current: Word[] | null = null;
  for (const line of stdout.split('\n')) {
    const m = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === '<s>' || !current) {
      current = [];
      utterances.push(current);
    }
    current.push({ text: m[1]!, start: Number(m[2]), end: Number(m[3]), p: Number(m[4]) });
  }
  return utterances;
}

/** Word runs → utterances (fillers and alternate-pronunciation marks removed) plus mean posterior. */
export function wordsToTranscript(utterances: Word[][], recogniser: string): Transcript {
  const out: TimedText[] = [];
  let sum = 0;
  let n = 0;
  for (const u of utterances) {
    const real = u.filter((w) => !FILLER.test(w.text)).map((w) => ({ ...w, text: w.text.replace(/\(\d+\)$/, '') }));
    if (!real.length) continue;
    for (const w of real) {
      sum += Math.min(1, Math.max(0, w.p));
      n++;
    }
    // The recogniser gives no punctuation: an utterance (speech between pauses) ends a sentence.
    out.push({ start: real[0]!.start, end: real[real.length - 1]!.end, text: `${real.map((w) => w.text).join(' ')}.` });
  }
  return { utterances: out, recogniser, confidence: n ? sum / n : null };
}

/**
 * Transcribes `wav`.
 * @throws ServiceUnavailable (503) when the recogniser or its model is missing.
 */
export async function transcribe(wav: string, workDir: string, env: ToolEnv, whisperModel?: string): Promise<Transcript> {
  if (whisperModel) return transcribeWhisper(wav, workDir, env, whisperModel);
  if (findOnPath('pocketsphinx', env)) {
    const { stdout } = await runSphinx('pocketsphinx', ['live', wav], env);
    return wordsToTranscript(parsePocketsphinx5(stdout), 'pocketsphinx');
  }
  if (findOnPath('pocketsphinx_continuous', env)) {
    const { stdout } = await runSphinx('pocketsphinx_continuous', ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null'], env);
    return wordsToTranscript(parsePocketsphinxContinuous(stdout), 'pocketsphinx');
  }
  throw toolMissing('pocketsphinx');
}

async function runSphinx(name: string, args: string[], env: ToolEnv) {
  try {
    return await runTool(name, args, env, 15 * 60_000);
  } catch (err) {
    if (!existsSync(PS_MODEL_DIR)) throw toolMissing(name, 'has no English model');
    throw err;
  }
}

/** whisper.cpp: `whisper-cli -m model -f wav -osrt -of base`, then the SRT is read back. */
async function transcribeWhisper(wav: string, workDir: string, env: ToolEnv, model: string): Promise<Transcript> {
  if (!existsSync(model)) {
    throw new ServiceUnavailable(`CBT_WHISPER_MODEL points to ${model}, which does not exist. Fix the path or unset it to use pocketsphinx.`, { code: 'WHISPER_MODEL_MISSING' });
  }
  const bin = findOnPath('whisper-cli', env) ? 'whisper-cli' : findOnPath('whisper-cpp', env) ? 'whisper-cpp' : null;
  if (!bin) throw toolMissing('whisper-cli', 'is not on PATH although CBT_WHISPER_MODEL is set');
  const base = join(workDir, 'whisper');
  await runTool(bin, ['-m', model, '-f', wav, '-osrt', '-of', base, '-np'], env, 30 * 60_000);
  const cues = parseCaptions(await readFile(`${base}.srt`, 'utf8'));
  return { utterances: cues, recogniser: 'whisper.cpp', confidence: null };
}
