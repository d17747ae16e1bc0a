/**
 * Round 25's unusable items (issue 39 §2), on hand-written text: a labelled bullet's rest with no
 * verb, however long, when it opens with no subject ("About 50°–70° north in the interiors of …");
 * and a slide of group tasks, which poses work, not facts ("Grp C: list 4 Ps for a new brand of
 * sachet water" became "Grp C is the list 4 Ps …"). docs/decisions.md, "Round 25: a subject-less
 * rest and a class activity".
 */
import { describe, expect, it } from 'vitest';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';

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
});
