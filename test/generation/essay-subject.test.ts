/**
 * "Define X and explain N other points about X" takes its further points from sentences about
 * X, not from any sentence that has X's word in it (issue 39 §2, round 10: "layer", the bird,
 * joined to "a thick layer of litter" on the floor; then "Layer's mash", which is a feed).
 * Hand-written material.
 */
import { describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs } from './helpers/passages.js';

const notes: Passage[] = paragraphs(
  'A layer is a hen that is kept mainly for the production of table eggs.',
  'In the deep litter system the floor of the house is covered with a thick layer of wood shavings or rice husks.',
  'Layers usually begin to lay eggs when they are about twenty weeks old.',
  'A broiler is a young chicken that is raised mainly for the production of meat.',
  'Broilers are usually ready for the market when they are about eight weeks old.',
  'Layers need a diet that is rich in calcium so that their egg shells are strong.',
  "Layer's mash is a feed with extra calcium that is given to birds in lay.",
);

describe('the further points of a defined-term essay are about the term', () => {
  it('asks about layers with sentences whose subject is layers (plural too), never the litter "layer" of the floor', () => {
    const essays = (['simple', 'intermediate'] as const).flatMap((difficulty) => generateExtractive(notes, { difficulty, count: 4, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions);
    const onLayer = essays.filter((q) => /^Define (?:a )?layer\b/.test(q.prompt));
    expect(onLayer.length).toBeGreaterThan(0);
    for (const q of onLayer) {
      expect(q.modelAnswer).not.toMatch(/layer of wood shavings|Layer's mash/);
      expect(q.modelAnswer).toMatch(/Layers usually begin to lay eggs/);
    }
  });
});
