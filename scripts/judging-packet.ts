/**
 * Writes a judging packet for the built-in question generator (issue 21 §3): for each of
 * at least 60 questions from four materials (the ICAN Foundation PDF, a DOCX, a PPTX and
 * a captioned MP4), the cited source excerpt and the question exactly as an examiner
 * receives it (prompt, options, key, citation) — no engine internals, no scores. A judge
 * who sees only this file rates each item usable as-is / after light edit / unusable.
 *
 * Run: `npx tsx scripts/judging-packet.ts [OUT.md]` (default ../w21c-judging/generation-packet.md,
 * outside the repository because it quotes the ICAN paper, which must not be committed).
 * The DOCX, PPTX and video come from test/fixtures/generation/holdout/ (never tuned on).
 * Needs ../shared/fixtures/real/ICAN_Foundation_Nov_2023.pdf and ffmpeg.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateExtractive } from '../src/core/generation/engine/extractive.js';
import type { Passage } from '../src/core/generation/passage.js';
import type { GeneratedQuestion } from '../src/core/generation/schemas.js';
import { unescapeMd } from '../src/core/generation/support.js';
import { readMaterial } from '../src/modules/generation/material/read-material.js';
import { makeMp4, makeSpeechWav, makeSrt } from '../test/generation/helpers/media.js';
import { makeDocx, makePptx, markdownParagraphs, markdownSlides } from '../test/generation/helpers/ooxml.js';

const ROOT = new URL('..', import.meta.url).pathname;
const HOLD = join(ROOT, 'test/fixtures/generation/holdout');
const ICAN = join(ROOT, '../shared/fixtures/real/ICAN_Foundation_Nov_2023.pdf');
const OUT = process.argv[2] ?? join(ROOT, '../w21c-judging/generation-packet.md');

interface Material {
  name: string;
  passages: Passage[];
  count: number;
}

async function materials(dir: string): Promise<Material[]> {
  const read = async (bytes: Uint8Array, name: string, type = '') => (await readMaterial({ file: { bytes, name, type } })).passages;
  const captions = readFileSync(join(HOLD, 'erosion-captions.txt'), 'utf8').split('\n').filter(Boolean);
  // The MP4 lasts as long as its audio (-shortest): speak every caption so no cue is cut off.
  const wav = makeSpeechWav(dir, captions.join(' '));
  const mp4 = makeMp4(dir, wav, 'erosion.mp4', makeSrt(dir, captions));
  return [
    { name: 'ICAN Foundation Nov 2023 (PDF)', passages: await read(new Uint8Array(readFileSync(ICAN)), 'ican.pdf', 'application/pdf'), count: 30 },
    { name: 'Money and banking in Nigeria (DOCX, hold-out)', passages: await read(await makeDocx(markdownParagraphs(readFileSync(join(HOLD, 'banking.md'), 'utf8'))), 'banking.docx'), count: 14 },
    { name: 'The human digestive system (PPTX, hold-out)', passages: await read(await makePptx(markdownSlides(readFileSync(join(HOLD, 'digestion.md'), 'utf8'))), 'digestion.pptx'), count: 14 },
    { name: 'Soil erosion lecture (MP4 with captions, hold-out)', passages: await read(new Uint8Array(readFileSync(mp4)), 'erosion.mp4', 'video/mp4'), count: 12 },
  ];
}

/** Where in `text` the question's wording is found (a fragment of 15+ characters of the prompt), or 0. */
function anchor(text: string, q: GeneratedQuestion): number {
  const fragments = unescapeMd(q.prompt).split(/_{3,}|\n/).map((f) => f.replace(/^\d+\.\s*/, '').trim()).filter((f) => f.length >= 15);
  for (const f of fragments) {
    const at = text.indexOf(f.slice(0, 40));
    if (at >= 0) return at;
  }
  return 0;
}

/** The cited passages' text: at most 2,500 characters each, around the question's wording. */
function excerpt(q: GeneratedQuestion, passages: Passage[]): string {
  return q.citation
    .split('; ')
    .map((c) => {
      const text = passages.filter((p) => p.citation === c).map((p) => p.text).join('\n').replace(/[ \t]+/g, ' ');
      const from = text.length > 2500 ? Math.max(0, Math.min(anchor(text, q) - 1000, text.length - 2500)) : 0;
      const shown = text.slice(from, from + 2500);
      return `> **${c}**\n>\n${from > 0 ? '> […]\n' : ''}${shown.split('\n').map((l) => `> ${l}`).join('\n')}${from + 2500 < text.length ? '\n> […]' : ''}`;
    })
    .join('\n>\n');
}

function item(n: number, q: GeneratedQuestion, passages: Passage[]): string {
  const options = (q.options ?? []).map((o) => `- ${o.keyLabel}. ${unescapeMd(o.text)}${o.isCorrect ? '  ← key' : ''}`).join('\n');
  return [`### Item ${n} (${q.type}, ${q.difficulty}; cites ${q.citation})`, '', 'Source excerpt cited:', '', excerpt(q, passages), '', 'Question:', '', unescapeMd(q.prompt), '', options || '(essay: no options)', ''].join('\n');
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'hallcbt-packet-'));
  try {
    const parts: string[] = [
      '# Judging packet: built-in question generation (issue 21 §3)',
      '',
      'Rate every item from the source excerpt and the question only: **A** usable as-is, **B** usable after a light edit, **C** unusable. Record ratings in the table at the end.',
      '',
    ];
    let n = 0;
    const rows: string[] = [];
    for (const m of await materials(dir)) {
      const { questions } = generateExtractive(m.passages, { difficulty: 'balanced', count: m.count });
      parts.push(`## ${m.name}`, '');
      for (const q of questions) {
        parts.push(item(++n, q, m.passages));
        rows.push(`| ${n} | ${m.name.split(' (')[0]} | | |`);
      }
    }
    parts.push('## Ratings', '', '| Item | Material | Rating (A/B/C) | Note |', '|---|---|---|---|', ...rows, '');
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, parts.join('\n'));
    console.log(`${n} items written to ${OUT}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
