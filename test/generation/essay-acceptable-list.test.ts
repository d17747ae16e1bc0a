/**
 * A scheme's "Acceptable problems: a; b; c" (or "Acceptable lessons include: …") lists the points
 * to find, as "Accept: a; b" does (docs/decisions.md, "'Acceptable …:' opens the list of
 * points"). Hold-out 14's ECOWAS scheme had its thirteen problems read as one point. Text
 * written for this test.
 */
import { describe, expect, it } from 'vitest';
import { parseGuidance } from '../../src/core/grading/essay/guidance.js';

describe('"Acceptable …:" opens the list of points', () => {
  it('reads the items after it, with "include"', () => {
    const g = parseGuidance('Four problems, 2 marks each (explained 2, stated 1). Acceptable problems: poor roads between members; different currencies; language differences (English, French); unpaid levies. Only the first four are marked.', 8);
    expect(g).toMatchObject({ count: 4, perPoint: 2 });
    expect(g.alternatives).toEqual(['poor roads between members', 'different currencies', 'language differences (English, French)', 'unpaid levies']);
    expect(parseGuidance('Any three lessons, 1 mark each. Acceptable lessons include: loyalty to family; hard work; trust in God.', 3).alternatives).toEqual(['loyalty to family', 'hard work', 'trust in God']);
  });
});
