/**
 * The built-in engine hallcbt-extractive-1 on real material: grounded keys, distractors
 * of the same kind, no duplicate options, difficulty tiers, determinism, and the ICAN
 * paper checked page by page with an independent PDF extraction.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { readMaterial } from '../../src/uploads/material/read-material.js';
import { JobPool } from '../../src/uploads/job-pool.js';
import { GENERATION_JOB_MODULE, generateInChild } from '../../src/modules/generation/engine-jobs.js';
import type { Passage } from '../../src/core/generation/passage.js';
import type { GeneratedQuestion } from '../../src/core/generation/schemas.js';
import { hasDuplicateOrBannedOptions, keyText, mcqKeyInCitedPassage, unescapeMd } from '../../src/core/generation/support.js';
import { makeDocx, markdownParagraphs } from './helpers/ooxml.js';
import { REAL_PAPERS_DIR, describeReal } from '../real-papers.js';

/** The job processes the material is read in (each program builds its own pool). */
const jobs = new JobPool({ jobModules: [GENERATION_JOB_MODULE] });
afterAll(() => jobs.close());

const ICAN = join(REAL_PAPERS_DIR, 'ICAN_Foundation_Nov_2023.pdf');
const PHOTO = new URL('../fixtures/generation/photosynthesis.md', import.meta.url).pathname;
const norm = (s: string) => unescapeMd(s).toLowerCase().replace(/[\s\u00a0]+/g, ' ').replace(/-\s/g, '-');

let photo: Passage[];
beforeAll(async () => {
  const docx = await makeDocx(markdownParagraphs(readFileSync(PHOTO, 'utf8')));
  photo = (await readMaterial(jobs, { file: { bytes: docx, name: 'photosynthesis.docx', type: '' } })).passages;
});

function checkShape(q: GeneratedQuestion) {
  expect(q.id).toMatch(/^q_[0-9a-f]{12}$/);
  expect(q.prompt.length).toBeGreaterThan(10);
  expect(['simple', 'intermediate', 'hard']).toContain(q.difficulty);
  expect(q.citation).toMatch(/^(?:paragraph \d+|page \d+|slide \d+|\d\d:\d\d)(?:; .+)?$/);
  expect(q.explanation).toContain('“');
  if (q.type === 'SHORT_ESSAY') {
    expect(q.options).toEqual([]);
    expect(q.rubric!.criteria.reduce((s, c) => s + c.maxMarks, 0)).toBe(q.marks);
    expect(q.rubric!.totalMarks).toBe(q.marks);
    expect(q.modelAnswer!.length).toBeGreaterThan(20);
    for (const c of q.rubric!.criteria) expect(c.maxMarks * 2).toBe(Math.round(c.maxMarks * 2));
  } else {
    expect(q.options.filter((o) => o.isCorrect)).toHaveLength(1);
    expect(q.options.map((o) => o.keyLabel)).toEqual(['A', 'B', 'C', 'D', 'E', 'F'].slice(0, q.options.length));
    expect(new Set(q.options.map((o) => o.id)).size).toBe(q.options.length);
    expect(hasDuplicateOrBannedOptions(q)).toBe(false);
  }
  if (q.type === 'TRUE_FALSE') expect(q.options.map((o) => o.text)).toEqual(['True', 'False']);
}

describe('hallcbt-extractive-1', () => {
  it('writes well-formed, grounded questions of every type (default mix)', () => {
    const { questions } = generateExtractive(photo, { difficulty: 'balanced', count: 10 });
    expect(questions).toHaveLength(10);
    expect(new Set(questions.map((q) => q.type))).toEqual(new Set(['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY']));
    for (const q of questions) {
      checkShape(q);
      if (q.type === 'MCQ') expect(mcqKeyInCitedPassage(q, photo)).toBe(true);
    }
    expect(new Set(questions.map((q) => q.id)).size).toBe(10);
  });

  it('is deterministic for the same input and changes with it', () => {
    const a = generateExtractive(photo, { difficulty: 'balanced', count: 8 });
    const b = generateExtractive(photo, { difficulty: 'balanced', count: 8 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const c = generateExtractive(photo.slice(1), { difficulty: 'balanced', count: 8 });
    expect(JSON.stringify(c.questions.map((q) => q.id))).not.toBe(JSON.stringify(a.questions.map((q) => q.id)));
  });

  it('keeps tiers: simple recalls one sentence, hard quotes different passages, balanced progresses', () => {
    const simple = generateExtractive(photo, { difficulty: 'simple', count: 6, types: ['MCQ'] }).questions;
    expect(simple.every((q) => q.difficulty === 'simple' && !q.citation.includes(';'))).toBe(true);
    const hard = generateExtractive(photo, { difficulty: 'hard', count: 3, types: ['MCQ'] }).questions.filter((q) => q.difficulty === 'hard');
    expect(hard.length).toBeGreaterThan(0);
    for (const q of hard) expect(q.citation.split('; ').length).toBeGreaterThanOrEqual(2);
    const order = { simple: 0, intermediate: 1, hard: 2 };
    const balanced = generateExtractive(photo, { difficulty: 'balanced', count: 10 }).questions.map((q) => order[q.difficulty]);
    expect(balanced[0]).toBe(0);
    expect(Math.max(...balanced)).toBeGreaterThan(0);
  });

  it('draws numeric distractors for numeric keys, from the material', () => {
    const notes: Passage[] = [
      { text: 'Nigeria became independent in 1960. The country became a republic in 1963.', citation: 'paragraph 1' },
      { text: 'The civil war ended in 1970. A new constitution came into force in 1979.', citation: 'paragraph 2' },
      { text: 'Democratic rule returned in 1999 after a long period of military government.', citation: 'paragraph 3' },
    ];
    const qs = generateExtractive(notes, { difficulty: 'simple', count: 5, types: ['MCQ'] }).questions;
    const numeric = qs.filter((q) => /^\d+$/.test(keyText(q) ?? ''));
    expect(numeric.length).toBeGreaterThan(0);
    const years = new Set(['1960', '1963', '1970', '1979', '1999']);
    for (const q of numeric) for (const o of q.options) expect(years.has(o.text)).toBe(true);
  });

  it('asks no more than the material allows, and says so', () => {
    const tiny: Passage[] = [{ text: 'Water boils at one hundred degrees Celsius at sea level.', citation: 'paragraph 1' }];
    const r = generateExtractive(tiny, { difficulty: 'balanced', count: 10 });
    expect(r.questions.length).toBeLessThan(10);
    expect(r.warnings.join(' ')).toMatch(/Only \d+ of the 10/);
  });
});

describeReal('on the ICAN Foundation paper (real PDF)', () => {
  let bytes: Uint8Array;
  let ican: Passage[];
  beforeAll(async () => {
    bytes = new Uint8Array(readFileSync(ICAN));
    ican = (await readMaterial(jobs, { file: { bytes, name: 'ICAN_Foundation_Nov_2023.pdf', type: 'application/pdf' } })).passages;
  }, 60_000);

  it('generates in the job process: the event loop stays responsive', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const r = await generateInChild(jobs, ican, { difficulty: 'balanced', count: 20 });
    delay.disable();
    expect(r.questions).toHaveLength(20);
    // Inline, the engine blocks the loop for seconds on this paper.
    expect(delay.max / 1e6).toBeLessThan(400);
  }, 60_000);

  it('cites pages whose text contains the correct option', async () => {
    const m = { passages: ican };
    const { questions } = generateExtractive(m.passages, { difficulty: 'balanced', count: 20, types: ['MCQ'] });
    expect(questions.length).toBe(20);
    // Independent extraction of the same PDF, page by page.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    const pages = (await extractText(pdf, { mergePages: false })).text.map(norm);
    for (const q of questions) {
      checkShape(q);
      const key = norm(keyText(q)!);
      const cited = q.citation.split('; ').map((c) => Number(/^page (\d+)$/.exec(c)![1]));
      expect(cited.some((n) => pages[n - 1]!.replace(/-\s/g, '').includes(key.replace(/-\s/g, '')))).toBe(true);
    }
  }, 60_000);
});
