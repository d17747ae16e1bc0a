/**
 * Candidates sit a paper without the teaching material, so no objective item's stem may refer
 * to it (issue 39 §2, round 8: every stem said "According to the material:" or "agree with the
 * material", and the judge would give none an A for it). The material is the project's own
 * development notes (test/fixtures/generation) and hand-written slides of levies, every objective form and tier.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { textToParagraphPassages, type Passage } from '../../src/core/generation/passage.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

const notes = ['photosynthesis.md', 'market-economics.md', 'holdout-7/acids-bases-salts.md'].map((f) => textToParagraphPassages(readFileSync(new URL(`../fixtures/generation/${f}`, import.meta.url), 'utf8')));
/** Slides of levies, each defined: what the definition-matching MCQs are made of. */
const levies: Passage[] = [
  'Direct taxes\nIncome tax is a levy charged on the earnings of individuals and companies.\nIncome tax is collected by the state revenue service.',
  'Indirect taxes\nA tariff is a levy charged on goods brought into the country from abroad.\nExcise duty is a levy charged on goods made and sold within the country.',
  'Other levies\nA toll is a fee paid for the use of a road or bridge.\nA stamp duty is a levy charged on legal documents such as deeds and agreements.',
].map((text, i) => ({ text, citation: `slide ${i + 1}` }));

describe('objective stems a candidate can read without the notes', () => {
  it('no MCQ or true/false stem mentions "the material" (every tier, single and two-statement forms)', () => {
    const stems: string[] = [];
    for (const passages of [...notes, levies]) {
      for (const difficulty of ['simple', 'intermediate', 'hard', 'balanced'] as const) {
        const { questions } = generateExtractive(passages, { difficulty, count: 20, types: ['MCQ', 'TRUE_FALSE'], lexicon: kindOf });
        stems.push(...questions.map((q) => q.prompt));
      }
    }
    // all the forms were made: one statement, two statements, a definition, a cloze
    expect(stems.some((p) => /^True or false\? Both of these statements are correct\./.test(p))).toBe(true);
    expect(stems.some((p) => /^True or false\? [^\n]+$/.test(p))).toBe(true);
    expect(stems.some((p) => /^Which (?:of the following best describes|term is defined as)/.test(p))).toBe(true);
    expect(stems.some((p) => /^Which option completes/.test(p))).toBe(true);
    expect(stems.filter((p) => /\bmaterial\b/i.test(p))).toEqual([]);
  }, 60_000);
});
