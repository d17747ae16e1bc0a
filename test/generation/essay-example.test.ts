/**
 * A defined-term essay whose one further point is an example asks for an example ("Define a
 * niche and give one example of a niche.") and its rubric accepts any correct one (issue 39 §2,
 * round 20: "explain one other important point" beside an "E.g." sentence, which the judge asked
 * to be "give one example"). Hand-written material.
 */
import { describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs } from './helpers/passages.js';

const notes: Passage[] = paragraphs(
  'A niche is the role an organism plays in its community, including what it eats and what eats it.',
  'E.g. the niche of the earthworm is to feed on dead leaves in the soil and aerate it.',
  'A predator is an animal that hunts, kills and eats other animals for food.',
  'The lion hunts zebras and antelopes on the open grassland of the savanna.',
);

describe('a defined-term essay whose further point is an example', () => {
  it('asks for one example, and the rubric takes the material\'s or any other correct one', () => {
    const q = generateExtractive(notes, { difficulty: 'simple', count: 3, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions.find((x) => /^Define a niche/.test(x.prompt));
    expect(q?.prompt).toBe('Define a niche and give one example of a niche. Write 20–100 words.');
    const c2 = q!.rubric!.criteria[1]!;
    expect(c2.title).toBe('An example of a niche');
    expect(c2.description).toMatch(/^Any one of: the niche of the earthworm is to feed on dead leaves in the soil and aerate it\. Accept any other correct example of a niche/);
    expect(parseGuidance(c2.description, c2.maxMarks).count).toBe(1);
    expect(q!.rubric!.criteria.reduce((a, c) => a + c.maxMarks, 0)).toBe(q!.marks);
  });
});
