/**
 * Calibrated essay marking, its parts (issue 39 §1): the monotone fit (pool-adjacent-
 * violators) of the examiner's marks on the engine's evidence, and teacher-style mark
 * allocation ("1 for stating the point, 2 for clear explanation", "max 4", "Award 1/2 mark
 * each for any 4 … listed") read as how to award marks, never as the content to find.
 */
import { describe, expect, it } from 'vitest';
import { isotonicBlocks, predictMonotone } from '../../src/core/grading/essay/monotone.js';
import { fitMarks } from '../../src/core/grading/essay/calibrate.js';
import { isAllocation, parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

describe('isotonic fit (pool-adjacent-violators)', () => {
  it('pools neighbours whose marks decrease, weighted, so the fit never decreases', () => {
    const blocks = isotonicBlocks([
      { x: 0.1, y: 1 },
      { x: 0.3, y: 5 },
      { x: 0.4, y: 3, w: 3 },
      { x: 0.8, y: 9 },
    ]);
    expect(blocks).toHaveLength(3);
    expect(blocks[1]!.y).toBeCloseTo((5 + 9) / 4);
    expect(blocks[1]!.x).toBeCloseTo((0.3 + 1.2) / 4);
    expect(blocks[1]!.w).toBe(4);
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]!.y).toBeGreaterThanOrEqual(blocks[i - 1]!.y);
  });

  it('pools equal evidence at once and takes points in any order', () => {
    expect(isotonicBlocks([{ x: 0.5, y: 4 }, { x: 0.2, y: 2 }, { x: 0.5, y: 6 }])).toEqual([
      { x: 0.2, y: 2, w: 1 },
      { x: 0.5, y: 5, w: 2 },
    ]);
    expect(isotonicBlocks([])).toEqual([]);
  });

  it('predicts linearly between blocks, flat beyond the ends', () => {
    const blocks = isotonicBlocks([{ x: 0.2, y: 2 }, { x: 0.6, y: 10 }]);
    expect(predictMonotone(blocks, 0.4)).toBeCloseTo(6);
    expect(predictMonotone(blocks, 0)).toBe(2);
    expect(predictMonotone(blocks, 1)).toBe(10);
    expect(predictMonotone([], 0.5)).toBeNaN();
  });

  it("fitMarks: the examiner's scale, monotone and within [0, max], even from marks that disagree with the evidence", () => {
    // An engine that squeezes: the examiner gave 20/20 where the evidence is 0.2.
    const fit = fitMarks([{ x: 0.2, y: 20 }, { x: 0.1, y: 9 }, { x: 0.05, y: 2 }], 20);
    expect(fit(0.2)).toBeGreaterThan(15);
    const xs = Array.from({ length: 21 }, (_, i) => i / 20);
    const ys = xs.map(fit);
    for (let i = 1; i < ys.length; i++) expect(ys[i]!).toBeGreaterThanOrEqual(ys[i - 1]! - 1e-9);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ys)).toBeLessThanOrEqual(20);
    // Inverted marks are pooled, never followed downwards.
    const inverted = fitMarks([{ x: 0.2, y: 8 }, { x: 0.6, y: 2 }], 10);
    expect(inverted(0.6)).toBeGreaterThanOrEqual(inverted(0.2));
  });
});

describe('teacher-style mark allocation is guidance, not content', () => {
  it('"3 marks each: 1 for stating the point, 2 for clear explanation" (15 marks) is five points of 3, a third for stating', () => {
    const g = parseGuidance('3 marks each: 1 for stating the point, 2 for clear explanation', 15);
    expect(g).toMatchObject({ count: 5, perPoint: 3, alternatives: [], marked: [] });
    expect(g.statedShare).toBeCloseTo(1 / 3);
  });

  it('"1 for stating, 2 for explanation" is how a point divides, not two items to find', () => {
    const g = parseGuidance('1 for stating, 2 for explanation', 9);
    expect(g).toMatchObject({ count: 3, perPoint: 3, alternatives: [], marked: [] });
  });

  it('"Any four, 2 marks each: 1 mark for stating, 1 for explanation" and "max 4"', () => {
    expect(parseGuidance('Any four, 2 marks each: 1 mark for stating, 1 for explanation', 8)).toMatchObject({ count: 4, perPoint: 2, statedShare: 0.5, alternatives: [], marked: [] });
    expect(parseGuidance('max 4', 4)).toMatchObject({ count: 4, perPoint: 1, alternatives: [], marked: [] });
  });

  it('ICAN\'s "Award 1/2 Mark each for any 4 techniques listed …; Award 1 1/2 Marks each for any 4 techniques explained" is 4 points of 2', () => {
    const g = parseGuidance('Award 1/2 Mark each for any 4 techniques listed (1/2 x 4) 2; Award 1 1/2 Marks each for any 4 techniques explained (1 1/2 x 4) 6', 8);
    expect(g).toMatchObject({ count: 4, perPoint: 2, statedShare: 0.25, alternatives: [], marked: [] });
    expect(parseGuidance('Award 1/2 mark each for any 4 techniques stated', 2)).toMatchObject({ count: 4, perPoint: 0.5, alternatives: [] });
  });

  it('isAllocation: marking words only; a named point is content', () => {
    for (const t of ['1 for stating the point', '2 for clear explanation', '1/2 mark each', 'max 4', '1 mark for explaining it']) expect(isAllocation(t)).toBe(true);
    for (const t of ['medium of exchange', '1 for naming the store of value', 'double coincidence of wants']) expect(isAllocation(t)).toBe(false);
  });

  it('an excellent script under "3 marks each: 1 for stating the point, 2 for clear explanation" gets full marks (was 0.5 of 15)', () => {
    const ev = gradeEssayBuiltIn(
      {
        questionPrompt: 'Explain five functions of money.',
        modelAnswer:
          'Medium of exchange: money is accepted in payment for goods and services, removing the double coincidence of wants of barter. Measure of value (unit of account): prices of goods are expressed in money, so values can be compared. Store of value: money can be saved and keeps its value for future use. Standard of deferred payment: debts and credit are settled in money at a future date. Means of transfer of value: money moves purchasing power from one person or place to another.',
        rubricCriteria: [{ id: 'c1', title: 'Functions of money', maxMarks: 15, description: '3 marks each: 1 for stating the point, 2 for clear explanation' }],
        maxMarks: 15,
        studentResponse:
          'Money is a medium of exchange. People accept money in payment for goods and services, so the problem of double coincidence of wants under barter is removed. Secondly money is a measure of value or unit of account: the prices of all goods are expressed in money so their values can be compared easily. Thirdly money is a store of value; a person can save money and it keeps its value for future use. Fourth, money is a standard of deferred payment because debts and credit are settled in money at a future date. Lastly money is a means of transfer of value, it moves purchasing power from one person or place to another.',
      },
      relatedWords,
    );
    expect(ev.totalScore).toBeGreaterThanOrEqual(13.5);
    expect(ev.criteriaScores[0]!.feedback).not.toMatch(/stating the point|clear explanation/);
  });
});
