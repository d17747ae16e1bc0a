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
 * tuned on item by item, so reported apart). `--round4 DIR OUT.md` writes round 4's packet (issue 39 §2)
 * from the three new materials in DIR — its `.md` of notes uploaded as a DOCX, its `.md` of slides
 * (separated by `---` lines) as a PPTX, its captions `.txt` as a lecture video (MP4 with a subtitle
 * track), as round 3 did with holdout-3 — 20 items asked of each, difficulty "balanced", all three
 * types, through the engine with its quality model as the product returns them (no ICAN part;
 * no scores shown). The engine gets the WordNet lexicon, as in the generation worker. Needs ../shared/fixtures/real/ICAN_Foundation_Nov_2023.pdf and ffmpeg.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateExtractive } from '../src/core/generation/engine/extractive.js';
import { generateQuestions } from '../src/core/generation/quality/select.js';
import { readdirSync } from 'node:fs';
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
const SET: 'tune' | 'measure' | 'round3' | 'round4' = args.includes('--tune') ? 'tune' : args.includes('--round3') ? 'round3' : args.includes('--round4') ? 'round4' : 'measure';
const positional = args.filter((a) => !a.startsWith('--'));
/** round 4: the directory of new materials, then the packet's path */
const ROUND4_DIR = SET === 'round4' ? positional.shift() : undefined;
if (SET === 'round4' && (!ROUND4_DIR || !positional[0])) throw new Error('usage: judging-packet.ts --round4 DIR OUT.md');
const OUT = positional[0] ?? join(ROOT, '../packet-21/packet.md');

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
async function materials(dir: string, set: 'tune' | 'measure' | 'round3' | 'round4'): Promise<Material[]> {
  const read = async (bytes: Uint8Array, name: string, type = '') => (await readMaterial(jobs, { file: { bytes, name, type } })).passages;
  if (set === 'round4') return round4Materials(dir, ROUND4_DIR!, read);
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

/**
 * Round 4's materials (issue 39 §2): in `from`, the notes `.md` (uploaded as a DOCX), the slides `.md`
 * (`---` lines between slides; uploaded as a PPTX) and the captions `.txt` (a lecture MP4 with a
 * subtitle track); 20 items asked of each. Named by their first heading or file name.
 */
async function round4Materials(dir: string, from: string, read: (bytes: Uint8Array, name: string, type?: string) => Promise<Passage[]>): Promise<Material[]> {
  const files = readdirSync(from).filter((f) => !/^readme/i.test(f)).sort();
  const text = (f: string) => readFileSync(join(from, f), 'utf8');
  // (the slides are the .md with the most "---" lines: notes may have a rule or two)
  const rules = (f: string) => text(f).match(/^\s*---\s*$/gm)?.length ?? 0;
  const mds = files.filter((f) => f.endsWith('.md')).sort((a, b) => rules(b) - rules(a));
  const slides = mds.length === 2 && rules(mds[0]!) > rules(mds[1]!) ? mds[0] : undefined;
  const notes = slides ? mds[1] : undefined;
  const captionsFile = files.find((f) => f.endsWith('.txt'));
  if (!notes || !slides || !captionsFile) throw new Error(`${from} must hold a notes .md, a slides .md (with --- lines) and a captions .txt`);
  const title = (f: string) => /^#\s+(.+)$/m.exec(text(f))?.[1]?.trim() ?? f.replace(/\.\w+$/, '');
  const captions = text(captionsFile).split('\n').filter(Boolean);
  const wav = makeSpeechWav(dir, captions.join(' '));
  const mp4 = makeMp4(dir, wav, 'lecture.mp4', makeSrt(dir, captions));
  return [
    { name: `${title(notes)} (DOCX)`, passages: await read(await makeDocx(markdownParagraphs(text(notes))), 'notes.docx'), count: 20 },
    { name: `${title(slides)} (PPTX)`, passages: await read(await makePptx(markdownSlides(text(slides))), 'slides.pptx'), count: 20 },
    { name: `${captionsFile.replace(/\.\w+$/, '')} (MP4 with captions)`, passages: await read(new Uint8Array(readFileSync(mp4)), 'lecture.mp4', 'video/mp4'), count: 20 },
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
    ? ['Model answer:', '', unescapeMd(q.modelAnswer ?? '(none)'), '', 'Rubric:', '', ...(q.rubric?.criteria ?? []).map((c) => `- ${c.title} (${c.maxMarks} mark${c.maxMarks === 1 ? '' : 's'})${c.description ? `: ${c.description}` : ''}`), '']
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
      // round 4 judges what the product returns: the engine with its quality model (issue 39 §2), all three types
      const result = SET === 'round4'
        ? generateQuestions(m.passages, { difficulty: 'balanced', count: m.count, types: ['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY'], lexicon: kindOf })
        : generateExtractive(m.passages, { difficulty: 'balanced', count: m.count, lexicon: kindOf });
      const { questions } = result;
      // (the packet itself stays blind to this: the developer's console shows what the quality model withheld and why)
      if ('withheld' in result) console.log(`${m.name}: ${questions.length} returned; withheld ${JSON.stringify(result.withheld)}`);
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
