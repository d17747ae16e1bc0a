/**
 * A marking scheme that numbers a narrative's points, "(1) … ; (2) … ; (3) …", lists the
 * points to find (docs/decisions.md, "A numbered list of points is a list, not marks"): the
 * numbers are not marks, and the count is read from the scheme's own words, never from a
 * point's content ("only one little ewe lamb"). Hand-written scheme in the style of a WAEC
 * CRS question.
 */
import { describe, expect, it } from 'vitest';
import { numberedPoints, parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

const story =
  'Points of Luke 15: (1) a man had two sons; (2) the younger son asked for his share of the property; (3) he went to a far country and wasted it in riotous living; ' +
  '(4) a famine came and he fed pigs, wishing to eat their pods; (5) he came to himself and returned to confess to his father; ' +
  '(6) the father saw him afar off, ran and embraced him; (7) the father gave him the best robe, a ring and shoes and killed the fatted calf; ' +
  '(8) the elder son was angry and would not go in. 1 mark per point, maximum 6. A point said again in other words is credited once.';
const parable = "(1) Jesus told a parable; (2) a rich man had many sheep, the poor man only one little lamb; (3) the rich man took the poor man's lamb; (4) the listener was angry. Any three, 1 each.";

describe('a numbered list of points', () => {
  it('is read as the points to find, the count from the scheme, no item as marks', () => {
    const g = parseGuidance(story, 6);
    expect(g.alternatives).toHaveLength(8);
    expect(g.alternatives[0]).toBe('a man had two sons');
    expect(g.alternatives[7]).toBe('the elder son was angry and would not go in');
    expect(g.count).toBe(6);
    expect(g.perPoint).toBe(1);
    expect(g.marked).toEqual([]);
  });

  it('"only one little lamb" inside a point is content, not the count', () => {
    const g = parseGuidance(parable, 3);
    expect(g.alternatives).toHaveLength(4);
    expect(g.count).toBe(3);
    expect(g.perPoint).toBe(1);
  });

  it('marks written after phrases are not a numbered list', () => {
    expect(numberedPoints('Quantity of heat required to raise the temperature of unit mass (1) by one kelvin (1).')).toBeNull();
    expect(numberedPoints('(1) a; (3) b; (4) c')).toBeNull();
  });

  it('a one-line answer earns its one point, not the number in front of it', () => {
    const e = gradeEssayBuiltIn(
      {
        questionPrompt: 'Narrate the parable of the prodigal son. [6 marks]',
        modelAnswer: 'A man had two sons. The younger asked for his share, wasted it in a far country, fed pigs in a famine, came to himself and returned; the father ran to embrace him and held a feast; the elder son was angry.',
        maxMarks: 6,
        rubricCriteria: [{ id: 'a', title: '(a) Narration - any six points, 1 mark each', description: story, maxMarks: 6 }],
        studentResponse: 'He fed pigs in the famine.',
      },
      relatedWords,
    );
    expect(e.totalScore).toBe(1);
  });
});
