/**
 * Round 25's unusable items (issue 39 §2), on hand-written text: a labelled bullet's rest with no
 * verb, however long, when it opens with no subject ("About 50°–70° north in the interiors of …");
 * and a slide of group tasks, which poses work, not facts ("Grp C: list 4 Ps for a new brand of
 * sachet water" became "Grp C is the list 4 Ps …"). docs/decisions.md, "Round 25: a subject-less
 * rest and a class activity".
 */
import { describe, expect, it } from 'vitest';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import { paragraphs } from './helpers/passages.js';

const usable = (...texts: string[]) => indexMaterial(paragraphs(...texts)).sentences.filter((s) => s.usable).map((s) => s.text);

describe('round 25', () => {
  it('refuses a long verbless rest that opens with a preposition, an adverb or a figure', () => {
    expect(rejectReason('About 40°–60° south along the western coasts of the continents, e.g. southern Chile and the south island of New Zealand.', false)).toBe('not a sentence (no verb)');
    // a long statement the tagger reads without a verb but that has its subject is left to the other rules
    expect(rejectReason('The taiga forest of Canada and Siberia is a major source of softwood for timber and paper in the world.', false)).toBeNull();
  });

  it('states nothing from a class-activity slide', () => {
    const slide = { text: 'Class Activity\n- Grp A: name three functions of marketing for a local bakery\n- Grp C: list 4 Ps for a new brand of sachet water\n- 10 mins, then present to class', citation: 'slide 20' };
    const facts = { text: 'Marketing\n- Marketing: all the activities involved in moving goods from producers to consumers', citation: 'slide 3' };
    const index = indexMaterial([facts, slide], 'Commerce');
    const fromSlide = index.sentences.filter((s) => s.citation === 'slide 20');
    expect(fromSlide.length).toBeGreaterThan(0);
    expect(fromSlide.filter((s) => s.usable)).toEqual([]);
  });

  // items 4 and 9, left after round 25 and mended before round 26
  it('drops a "therefore" that points at the sentence before, as it drops "also"', () => {
    const got = usable(
      'Places near the equator receive the sun’s rays almost vertically all year, so temperatures are high there.',
      'Temperature therefore decreases from the equator towards the poles.',
      'Relief thus affects rainfall on the windward side of a mountain range.',
    );
    expect(got).toContain('Temperature decreases from the equator towards the poles.');
    expect(got.some((s) => /\b(?:therefore|thus)\b/.test(s))).toBe(false);
  });

  it('refuses an object pronoun straight after the subject’s verb: it cannot be the subject, so it is in the sentence before', () => {
    expect(rejectReason('The spindle fibres pull them to opposite poles of the cell.', false)).toBe('refers to something outside the sentence');
    expect(rejectReason('The enzyme amylase digests it into maltose in the mouth.', false)).toBe('refers to something outside the sentence');
    // a pronoun with its noun earlier in the sentence stays
    expect(rejectReason('Farmers harvest the crops in November and sell them in the market.', false)).toBeNull();
    expect(rejectReason('Green plants absorb water from the soil and use it to make food.', false)).toBeNull();
    // an "it" that stands for what follows
    expect(rejectReason('Irrigation makes it possible to grow crops in the dry season.', false)).toBeNull();
    expect(rejectReason('The spindle fibres pull the chromatids to opposite poles of the cell.', false)).toBeNull();
  });
});
