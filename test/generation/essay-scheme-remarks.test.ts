/**
 * Remarks that markers write inside a scheme are guidance, not counts or content
 * (docs/decisions.md, "A scheme's remarks are not its counts"):
 * - "explained 2; stated only 1" gives a point's marks; the count is "the first three";
 * - "(gasping, coughing, sneezing - one point)" lists a point's other names and then says
 *   they count once; the remark does not void the names;
 * - "the same way in other words is credited once" is about a candidate's repeated point, not
 *   "marked on the same basis as the criterion before".
 * Hand-written schemes in the style of WAEC Islamic Studies and Agricultural Science.
 */
import { describe, expect, it } from 'vitest';
import { parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

describe("a scheme's remarks", () => {
  it('"stated only 1" is a mark for a stated point, not a count of one point', () => {
    const g = parseGuidance(
      'Helping the needy; reducing begging; promoting brotherhood; discouraging hoarding. Explained (says how sadaqah brings it about) 2; stated only 1. Only the first three are marked.',
      6,
    );
    expect(g.count).toBe(3);
    expect(g.perPoint).toBe(2);
  });

  it('still reads "only two" as the count where it is one', () => {
    expect(parseGuidance('Credit only two reasons, 2 marks each.', 4).count).toBe(2);
  });

  it('only "on the same basis", "as above" or "marked in the same way" refer to the criterion before', () => {
    const same = (d: string) => parseGuidance(d, 4).sameAsPrevious;
    expect(same('2 marks for the second reason, on the same basis.')).toBe(true);
    expect(same('As above, 1 mark each.')).toBe(true);
    expect(same('Any four, marked in the same way.')).toBe(true);
    expect(same('Boiling; adding washing soda; ion exchange. The same way in other words (boil, heat it) is credited once.')).toBe(false);
    expect(same('Any two: the Levite passed by; the Samaritan helped; go and do likewise.')).toBe(false);
    expect(same('1 for each side; the two sides must be on the same basis.')).toBe(false);
  });

  it("a point's names in brackets count although the bracket ends with 'one point'", () => {
    const grade = (studentResponse: string) =>
      gradeEssayBuiltIn(
        {
          questionPrompt: 'State four signs of Gumboro disease in chickens. [4 marks]',
          modelAnswer: 'Signs: ruffled feathers; whitish watery droppings; trembling and unsteady walking; pecking at the vent.',
          maxMarks: 4,
          rubricCriteria: [
            {
              id: 'a',
              title: 'Signs - any four, 1 mark each',
              description:
                'Any four of: dullness (ruffled feathers, drooping wings, huddling - one point); whitish watery droppings; trembling or unsteady walking; pecking at the vent; sudden death.',
              maxMarks: 4,
            },
          ],
          studentResponse,
        },
        relatedWords,
      ).totalScore;
    expect(grade('1. Huddling together.\n2. Pecking at the vent.')).toBe(2);
  });
});
