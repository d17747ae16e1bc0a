/**
 * Makes the audio and video test material with the Debian tools CI installs: speech
 * synthesised by espeak-ng from a known paragraph (voice en-us+f2, 120 words a minute,
 * 30 ms gaps between words: the settings pocketsphinx recognised best here), and MP4s
 * made by ffmpeg from it (a black 320×240 picture, optionally a mov_text subtitle track).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PARAGRAPH_FILE = new URL('../../fixtures/generation/audio-paragraph.txt', import.meta.url).pathname;

/** The known paragraph the audio says. */
export function knownParagraph(): string {
  return readFileSync(PARAGRAPH_FILE, 'utf8').trim();
}

/** Two sentences of the paragraph (about 9 s of speech): what the tests transcribe, to spare CPU. */
export function shortParagraph(): string {
  const s = knownParagraph().split(/(?<=\.)\s+/);
  return `${s[2]} ${s[0]}`;
}

/** espeak-ng settings used for the test audio. */
export const ESPEAK_ARGS = ['-v', 'en-us+f2', '-s', '120', '-g', '3'];

/** Writes `dir/speech.wav` saying `text`; returns its path. */
export function makeSpeechWav(dir: string, text = knownParagraph()): string {
  const out = join(dir, 'speech.wav');
  execFileSync('espeak-ng', [...ESPEAK_ARGS, '-w', out, text], { stdio: 'ignore' });
  return out;
}

/** Writes an MP4 (H.264 black picture + AAC audio of `wav`), with `srt` as a subtitle track when given. */
export function makeMp4(dir: string, wav: string, name = 'lecture.mp4', srt?: string): string {
  const out = join(dir, name);
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=black:s=320x240:r=5', '-i', wav];
  if (srt) args.push('-i', srt);
  args.push('-map', '0:v', '-map', '1:a');
  if (srt) args.push('-map', '2:s', '-c:s', 'mov_text');
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'stillimage', '-c:a', 'aac', '-shortest', out);
  execFileSync('ffmpeg', args, { stdio: 'ignore' });
  return out;
}

/** Writes a SubRip file with one cue per sentence, 4 s each; returns its path. */
export function makeSrt(dir: string, sentences: string[], name = 'captions.srt'): string {
  const ts = (s: number) => `00:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')},000`;
  const body = sentences.map((t, i) => `${i + 1}\n${ts(i * 4)} --> ${ts(i * 4 + 4)}\n${t}\n`).join('\n');
  const out = join(dir, name);
  writeFileSync(out, body);
  return out;
}
