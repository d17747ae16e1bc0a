/**
 * Writes a judging packet for the built-in question generator (issue 21 §3): for each of
 * at least 60 questions from four materials (the ICAN Foundation PDF, a DOCX, a PPTX and
 * a captioned MP4), the cited source excerpt and the question exactly as an examiner
 * receives it (prompt, options, key, citation) — no engine internals, no scores. A judge
 * who sees only this file rates each item usable as-is / after light edit / unusable.
 *
 * Run: `npx tsx scripts/judging-packet.ts [--tune] [OUT.md]` (default ../packet-21/packet.md,
 * outside the repository because it quotes the ICAN paper, which must not be committed).
 * Default (measurement) set: pages 57–102 of the ICAN PDF and test/fixtures/generation/holdout-2/
 * (never tuned on in round 2); `--tune` writes the tuning set instead (pages 1–56 and the
 * round-1 hold-out set holdout/, judged in round 1 and tuned on since); `--round3` writes
 * round 3's measurement set: test/fixtures/generation/holdout-3/ (written by an independent
 * author on 2026-11-27, never tuned on) and again pages 57–102 (judged in round 2, not
 * tuned on item by item, so reported apart). The engine gets the
 * WordNet lexicon, as in the generation worker. Needs ../shared/fixtures/real/ICAN_Foundation_Nov_2023.pdf and ffmpeg.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateExtractive } from '../src/core/generation/engine/extractive.js';
import type { Passage } from '../src/core/generation/passage.js';
import type { GeneratedQuestion } from '../src/core/generation/schemas.js';
import { unescapeMd } from '../src/core/generation/support.js';
import { readMaterial } from '../src/uploads/material/read-material.js';
import { JobPool } from '../src/uploads/job-pool.js';
import { kindOf } from '../src/modules/generation/index.js';
import { makeMp4, makeSpeechWav, makeSrt } from '../test/generation/helpers/media.js';
import { makeDocx, makePptx, markdownParagraphs, markdownSlides } from '../test/generation/helpers/ooxml.js';

/** The job processes the material is read in. */
const jobs = new JobPool();

const ROOT = new URL('..', import.meta.url).pathname;
const HOLD = join(ROOT, 'test/fixtures/generation/holdout');
const HOLD2 = join(ROOT, 'test/fixtures/generation/holdout-2');
const HOLD3 = join(ROOT, 'test/fixtures/generation/holdout-3');
// (HALLCBT_ICAN_PDF: the paper elsewhere, e.g. from a git worktree that has no ../shared beside it)
const ICAN = process.env.HALLCBT_ICAN_PDF ?? join(ROOT, '../shared/fixtures/real/ICAN_Foundation_Nov_2023.pdf');
const args = process.argv.slice(2);
const SET: 'tune' | 'measure' | 'round3' = args.includes('--tune') ? 'tune' : args.includes('--round3') ? 'round3' : 'measure';
const OUT = args.find((a) => !a.startsWith('--')) ?? join(ROOT, '../packet-21/packet.md');

interface Material {
  name: string;
  passages: Passage[];
  count: number;
}

/** The ICAN paper's pages from `from` to `to` (its four papers: Financial Accounting p. 4–33, Management Information 34–56, Business Management and Finance 57–80, Business Law 81–102). */
function pages(passages: Passage[], from: number, to: number): Passage[] {
  return passages.filter((p) => {
    const n = Number(/^page (\d+)/.exec(p.citation)?.[1] ?? 0);
    return n >= from && n <= to;
  });
}

/**
 * The materials of a set. "measure" (the default): the second half of the ICAN PDF and the
 * round-2 hold-out set (test/fixtures/generation/holdout-2/), never tuned on. "tune": the first
 * half of the ICAN PDF and the round-1 hold-out set (judged in round 1, then tuned on).
 */
async function materials(dir: string, set: 'tune' | 'measure' | 'round3'): Promise<Material[]> {
  const read = async (bytes: Uint8Array, name: string, type = '') => (await readMaterial(jobs, { file: { bytes, name, type } })).passages;
  const src = set === 'round3'
    ? { dir: HOLD3, docx: 'soil-fertility.md', docxName: 'Soil fertility and fertilisers (DOCX)', pptx: 'federal-system.md', pptxName: 'The Nigerian federal system (PPTX)', captions: 'cell-organelles-captions.txt', videoName: 'The cell and its organelles lecture (MP4 with captions)', ican: [57, 102] as const }
    : set === 'measure'
    ? { dir: HOLD2, docx: 'circuits.md', docxName: 'Electric circuits (DOCX)', pptx: 'insurance.md', pptxName: 'Principles of insurance (PPTX)', captions: 'water-cycle-captions.txt', videoName: 'Water cycle lecture (MP4 with captions)', ican: [57, 102] as const }
    : { dir: HOLD, docx: 'banking.md', docxName: 'Money and banking in Nigeria (DOCX)', pptx: 'digestion.md', pptxName: 'The human digestive system (PPTX)', captions: 'erosion-captions.txt', videoName: 'Soil erosion lecture (MP4 with captions)', ican: [1, 56] as const };
  const captions = readFileSync(join(src.dir, src.captions), 'utf8').split('\n').filter(Boolean);
  // The MP4 lasts as long as its audio (-shortest): speak every caption so no cue is cut off.
  const wav = makeSpeechWav(dir, captions.join(' '));
  const mp4 = makeMp4(dir, wav, 'lecture.mp4', makeSrt(dir, captions));
  const ican = pages(await read(new Uint8Array(readFileSync(ICAN)), 'ican.pdf', 'application/pdf'), src.ican[0], src.ican[1]);
  return [
    { name: `ICAN Foundation Nov 2023 (PDF, pages ${src.ican[0]}–${src.ican[1]})`, passages: ican, count: 36 },
    { name: src.docxName, passages: await read(await makeDocx(markdownParagraphs(readFileSync(join(src.dir, src.docx), 'utf8'))), 'notes.docx'), count: 20 },
    { name: src.pptxName, passages: await read(await makePptx(markdownSlides(readFileSync(join(src.dir, src.pptx), 'utf8'))), 'slides.pptx'), count: 20 },
    { name: src.videoName, passages: await read(new Uint8Array(readFileSync(mp4)), 'lecture.mp4', 'video/mp4'), count: 14 },
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
  // an essay comes to the examiner with its model answer and rubric: the judge sees them too
  const guide = q.modelAnswer || q.rubric
    ? ['Model answer:', '', unescapeMd(q.modelAnswer ?? '(none)'), '', 'Rubric:', '', ...(q.rubric?.criteria ?? []).map((c) => `- ${c.title} (${c.maxMarks} marks)${c.description ? `: ${c.description}` : ''}`), '']
    : [];
  return [`### Item ${n} (${q.type}, ${q.difficulty}; cites ${q.citation})`, '', 'Source excerpt cited:', '', excerpt(q, passages), '', 'Question:', '', unescapeMd(q.prompt), '', options || '(essay: no options)', '', ...guide].join('\n');
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
    for (const m of await materials(dir, SET)) {
      const { questions } = generateExtractive(m.passages, { difficulty: 'balanced', count: m.count, lexicon: kindOf });
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
