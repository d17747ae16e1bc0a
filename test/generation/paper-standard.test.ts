/**
 * Issue 21 §3, after round 3: what the third judge found below the standard of a WAEC/NECO
 * paper (docs/quality-generation-ratings.md, "Round 3"): multiple-choice items with only three
 * options (items 40, 54, 68); the two-statement true/false form keyed True in 4 of 5 (round 2:
 * 16 of 17 true/false items True); false statements made by an antonym that does not fit
 * (items 11, 23, 52). Generated from the project's own teaching materials
 * (test/fixtures/generation/, paragraphs split at blank lines) and from the real ICAN paper when
 * it is beside the checkout, with the real WordNet reader as the engine's lexicon.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { antonymSwap } from '../../src/core/generation/engine/falsehood.js';
import { kinship } from '../../src/core/generation/engine/lexicon.js';
import type { Passage } from '../../src/core/generation/passage.js';
import type { GeneratedQuestion } from '../../src/core/generation/schemas.js';
import { unescapeMd } from '../../src/core/generation/support.js';
import { normaliseForMatch } from '../../src/core/generation/text/nlp.js';
import { readMaterial } from '../../src/uploads/material/read-material.js';
import { JobPool } from '../../src/uploads/job-pool.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';
import { describeReal, REAL_PAPERS_DIR } from '../real-papers.js';

/** The job processes the material is read in (each program builds its own pool). */
const jobs = new JobPool();
afterAll(() => jobs.close());

afterAll(() => closeWordNet());

const DIR = join(import.meta.dirname, '..', 'fixtures', 'generation');
/** The text materials written for HallCBT (tuning and hold-out sets of rounds 1–3). */
const MATERIALS = [
  'photosynthesis.md',
  'market-economics.md',
  'holdout/banking.md',
  'holdout/digestion.md',
  'holdout/erosion-captions.txt',
  'holdout-2/circuits.md',
  'holdout-2/insurance.md',
  'holdout-2/water-cycle-captions.txt',
  'holdout-3/soil-fertility.md',
  'holdout-3/federal-system.md',
  'holdout-3/cell-organelles-captions.txt',
];

/** A material's paragraphs (split at blank lines) as passages. */
function material(file: string): Passage[] {
  return readFileSync(join(DIR, file), 'utf8')
    .split(/\n\s*\n/)
    .map((text, i) => ({ text: text.trim(), citation: `paragraph ${i + 1}` }))
    .filter((p) => p.text);
}

/** Why an MCQ is not fit for a paper, or null: four options A–D, distinct, exactly one key. */
function mcqFault(q: GeneratedQuestion): string | null {
  const opts = q.options ?? [];
  if (opts.length !== 4) return `${opts.length} options`;
  if (opts.map((o) => o.keyLabel).join('') !== 'ABCD') return `labels ${opts.map((o) => o.keyLabel).join('')}`;
  if (new Set(opts.map((o) => normaliseForMatch(o.text))).size !== 4) return 'options not distinct';
  if (opts.filter((o) => o.isCorrect).length !== 1) return 'not exactly one key';
  return null;
}

describe('multiple-choice items have four options or are not made', () => {
  it('every MCQ generated from the teaching materials has exactly four distinct options and one key, with or without the lexicon', () => {
    let mcqs = 0;
    const faults: string[] = [];
    for (const file of MATERIALS) {
      const passages = material(file);
      for (const difficulty of ['simple', 'intermediate', 'hard', 'balanced'] as const) {
        for (const lexicon of [kindOf, undefined]) {
          for (const q of generateExtractive(passages, { difficulty, count: 20, lexicon }).questions.filter((x) => x.type === 'MCQ')) {
            mcqs++;
            const fault = mcqFault(q);
            if (fault) faults.push(`${file} (${difficulty}${lexicon ? '' : ', no lexicon'}): ${fault}: ${q.prompt.split('\n').pop()}`);
          }
        }
      }
    }
    expect(faults).toEqual([]);
    // the rule drops items, it does not empty the papers
    expect(mcqs).toBeGreaterThan(400);
  });
});

describeReal('four options on the ICAN Foundation paper (real PDF)', () => {
  let ican: Passage[];
  beforeAll(async () => {
    const bytes = new Uint8Array(readFileSync(join(REAL_PAPERS_DIR, 'ICAN_Foundation_Nov_2023.pdf')));
    ican = (await readMaterial(jobs, { file: { bytes, name: 'ICAN_Foundation_Nov_2023.pdf', type: 'application/pdf' } })).passages;
  }, 60_000);

  it('every MCQ of a 36-item paper has exactly four distinct options and one key', () => {
    for (const difficulty of ['balanced', 'intermediate'] as const) {
      const mcqs = generateExtractive(ican, { difficulty, count: 36, lexicon: kindOf }).questions.filter((q) => q.type === 'MCQ');
      expect(mcqs.length).toBeGreaterThan(15);
      for (const q of mcqs) expect(mcqFault(q)).toBeNull();
    }
  }, 60_000);
});

const keyOf = (q: GeneratedQuestion) => q.options!.find((o) => o.isCorrect)!.text;
/** The form of a true/false item: several statements ("Both of these statements are correct …"), a hard combined fact (the engine's only hard true/false form), or one statement. */
const formOf = (q: GeneratedQuestion) => (/^True or false\? (?:Both|All \d+) of these statements/.test(q.prompt) ? 'two statements' : q.difficulty === 'hard' ? 'combined' : 'one statement');

describe('true/false keys balanced in every form', () => {
  it('over papers from the teaching materials about half the items of each form are False, no form leans True by more than one in any paper, and the same input gives the same paper', () => {
    const tally = new Map<string, { t: number; f: number }>();
    const leads: string[] = [];
    for (const file of MATERIALS) {
      const passages = material(file);
      for (const difficulty of ['simple', 'intermediate', 'balanced'] as const) {
        const opts = { difficulty, count: 20, lexicon: kindOf };
        const { questions } = generateExtractive(passages, opts);
        // deterministic: the keys' order comes from a PRNG seeded by the input, never from Math.random
        expect(generateExtractive(passages, opts).questions).toEqual(questions);
        const paper = new Map<string, { t: number; f: number }>();
        for (const q of questions.filter((x) => x.type === 'TRUE_FALSE')) {
          for (const m of [tally, paper]) {
            const k = m.get(formOf(q)) ?? { t: 0, f: 0 };
            if (keyOf(q) === 'False') k.f++;
            else k.t++;
            m.set(formOf(q), k);
          }
        }
        for (const [form, k] of paper) if (k.t > k.f + 1) leads.push(`${file} (${difficulty}), ${form}: ${k.t} True, ${k.f} False`);
      }
    }
    expect(leads).toEqual([]);
    const all = [...tally.values()].reduce((a, k) => ({ t: a.t + k.t, f: a.f + k.f }), { t: 0, f: 0 });
    const share = (k: { t: number; f: number }) => k.f / (k.t + k.f);
    expect(all.t + all.f).toBeGreaterThan(100);
    expect(share(all)).toBeGreaterThanOrEqual(0.35);
    expect(share(all)).toBeLessThanOrEqual(0.65);
    const two = tally.get('two statements')!;
    expect(two.t + two.f).toBeGreaterThanOrEqual(20);
    expect(share(two), `two statements: ${two.f} False of ${two.t + two.f}`).toBeGreaterThanOrEqual(0.35);
    expect(share(two)).toBeLessThanOrEqual(0.65);
  });
});

describe('false statements a candidate could believe', () => {
  it('no antonym that does not fit: "future" → "past" needs, "managed" → "failed", soils that "lose" → "keep" fertility (round 3, items 11, 23, 52)', () => {
    const material = [
      'In planning, future needs should be estimated over the whole life of the project.',
      'Past sales help the planner.',
      'A budget is the plan within which the spending of each department is controlled and managed.',
      'A project that failed is reviewed.',
      'Soils lose fertility through continuous cropping, removal of crops at harvest, leaching, erosion of the topsoil, bush burning and increase in soil acidity.',
      'Farmers keep their soils fertile by adding manure.',
    ];
    const text = material.join(' ').toLowerCase();
    for (const s of [material[0]!, material[2]!, material[4]!]) expect([s, antonymSwap(s, kindOf)]).toEqual([s, null]);
    // the pairs of direction or degree still make false statements
    expect(antonymSwap('Potassium strengthens the stem and improves resistance to disease.', kindOf)?.replacement).toBe('weakens');
  });

  it('makes false statements from real confusions: a term of the same kind from the same material, or a pair of direction or degree', () => {
    let siblings = 0;
    let falses = 0;
    for (const file of ['holdout-3/soil-fertility.md', 'holdout/digestion.md', 'holdout-2/water-cycle-captions.txt', 'holdout-2/circuits.md']) {
      for (const count of [8, 12]) {
        const { questions } = generateExtractive(material(file), { difficulty: 'simple', count, types: ['TRUE_FALSE'], lexicon: kindOf });
        for (const q of questions.filter((x) => keyOf(x) === 'False')) {
          falses++;
          const m = /the material says “([^”]+)”, not “([^”]+)”/.exec(unescapeMd(q.explanation!));
          if (!m) continue; // a sibling's definition ("the material defines X as …"), tested in definition-items.test.ts
          const [, original, replacement] = m as unknown as [string, string, string];
          const base = (w: string) => w.toLowerCase().replace(/(?:es|s|er|ed|d)$/, '');
          const antonyms = (['verb', 'adj'] as const).flatMap((p) => [...(kindOf(base(original), p)?.antonyms ?? []), ...(kindOf(original.toLowerCase(), p)?.antonyms ?? [])]);
          if (antonyms.some((x) => replacement.toLowerCase().startsWith(x.slice(0, 4)))) continue;
          // not an antonym: then a term of the key's kind (a shared WordNet hypernym), never an unrelated term
          const head = (w: string) => w.toLowerCase().split(/\s+/).pop()!;
          const a = kindOf(head(original), 'noun');
          const b = kindOf(head(replacement), 'noun');
          expect([original, replacement, !!a && !!b && kinship(a, b) === 2]).toEqual([original, replacement, true]);
          siblings++;
        }
      }
    }
    expect(falses).toBeGreaterThan(10);
    // the same-kind swaps the round-3 judge rated usable ("Nucleus is the site of aerobic respiration") are made from the statements too
    expect(siblings).toBeGreaterThanOrEqual(3);
  });
});
