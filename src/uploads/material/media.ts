/**
 * ffmpeg steps for audio and video material: the file's own subtitle track (captions
 * beat recognition), and 16 kHz mono 16-bit WAV for the speech recogniser.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool, type ToolEnv } from './tools.js';
import { parseCaptions, type TimedText } from './captions.js';

/** Longest stretch of audio transcribed (CPU budget on a hall server: pocketsphinx runs ~0.5× real time). */
export const MAX_TRANSCRIBED_SECONDS = 20 * 60;

/** Duration of a media file in seconds (ffprobe), or null when unknown. */
export async function mediaDurationSeconds(input: string, env: ToolEnv): Promise<number | null> {
  const { stdout } = await runTool('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', input], env, 30_000);
  const d = Number.parseFloat(stdout.trim());
  return Number.isFinite(d) ? d : null;
}

/**
 * The first subtitle track of a video as cues, or null when it has none.
 * @throws ServiceUnavailable when ffmpeg/ffprobe are missing.
 */
export async function extractSubtitleCues(input: string, workDir: string, env: ToolEnv): Promise<TimedText[] | null> {
  const probe = await runTool('ffprobe', ['-v', 'error', '-select_streams', 's', '-show_entries', 'stream=index', '-of', 'csv=p=0', input], env, 30_000);
  if (!probe.stdout.trim()) return null;
  const out = join(workDir, 'captions.srt');
  await runTool('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-map', '0:s:0', '-c:s', 'srt', out], env, 60_000);
  const cues = parseCaptions(await readFile(out, 'utf8'));
  return cues.length ? cues : null;
}

/**
 * Extracts the first audio stream as 16 kHz mono PCM WAV (the recognisers' input),
 * at most MAX_TRANSCRIBED_SECONDS long.
 * @throws ServiceUnavailable when ffmpeg is missing; UnusableMaterial when there is no decodable audio.
 */
export async function extractSpeechWav(input: string, workDir: string, env: ToolEnv): Promise<string> {
  const out = join(workDir, 'speech-16k.wav');
  await runTool(
    'ffmpeg',
    ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-vn', '-map', '0:a:0', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-t', String(MAX_TRANSCRIBED_SECONDS), out],
    env,
    10 * 60_000,
  );
  return out;
}
