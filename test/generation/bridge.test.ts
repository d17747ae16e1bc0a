/**
 * Issue 21 §3: a "hard" objective item combines two facts from two places (a definition
 * and a statement about the defined thing), and cites both; it is never two cloze
 * sentences glued together.
 */
import { describe, expect, it } from 'vitest';
import { definitionOf } from '../../src/core/generation/engine/bridge.js';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { keyText } from '../../src/core/generation/support.js';
import { paragraphs } from './helpers/passages.js';

const material = paragraphs(
  'Photosynthesis is the process by which green plants make food from light energy.',
  'Respiration releases energy from glucose in the mitochondria of every living cell.',
  'Photosynthesis takes place in the chloroplasts of the palisade cells of a leaf.',
  'The nucleus controls the activities of the cell and holds its chromosomes.',
  'Water enters the roots by osmosis and moves up the stem in the xylem vessels.',
  'Carbon dioxide diffuses into the leaf through the stomata on its lower surface.',
  'The vacuole stores cell sap, and the cell wall keeps the shape of the cell.',
);

describe('hard items combine two cited facts', () => {
  it('reads definitions in both directions', () => {
    expect(definitionOf('Osmosis is the movement of water through a partially permeable membrane.')).toEqual({ term: 'Osmosis', description: 'the movement of water through a partially permeable membrane' });
    expect(definitionOf('The green pigment that traps light energy is called chlorophyll.')).toEqual({ term: 'chlorophyll', description: 'the green pigment that traps light energy' });
    expect(definitionOf('Plants need light and water to grow well in the garden.')).toBeNull();
  });

  it('states the second fact about the described thing, blanks its predicate and cites both passages', () => {
    const { questions } = generateExtractive(material, { difficulty: 'hard', count: 1, types: ['MCQ'] });
    const q = questions[0]!;
    expect(q.difficulty).toBe('hard');
    expect(q.citation).toBe('paragraph 1; paragraph 3');
    expect(q.prompt).toContain('The process by which green plants make food from light energy takes place in the');
    expect(q.prompt).not.toMatch(/photosynthesis/i);
    expect('chloroplasts of the palisade cells of a leaf').toContain(keyText(q)!);
    expect(q.explanation).toContain('(paragraph 1)');
    expect(q.explanation).toContain('(paragraph 3)');
    expect(q.options!.length).toBeGreaterThanOrEqual(3);
  });

  it('never makes a hard item from glued clozes: without a definition the tier is downgraded and said so', () => {
    const plain = material.filter((_, i) => i !== 0);
    const { questions, warnings } = generateExtractive(plain, { difficulty: 'hard', count: 3, types: ['MCQ', 'TRUE_FALSE'] });
    for (const q of questions) {
      expect(q.difficulty).not.toBe('hard');
      expect(q.prompt).not.toMatch(/missing from each/);
    }
    expect(warnings.join(' ')).toMatch(/easier tier/);
  });
});
