/**
 * Item analysis against values computed by hand for a small designed data set:
 * 10 candidates (C1…C10), 4 one-mark MCQs with keys I1=A, I2=B, I3=C, I4=D.
 *
 * Item scores (1 = right)      total   choices (I1 I2 I3 I4; "-" = omitted)
 *   C1   1 1 1 1                 4      A B C D
 *   C2   1 1 1 0                 3      A B C A
 *   C3   1 1 0 1                 3      A B D D
 *   C4   1 0 1 0                 2      A A C A
 *   C5   1 1 0 0                 2      A B D B
 *   C6   0 1 1 0                 2      B B C C
 *   C7   1 0 0 1                 2      A C D D
 *   C8   0 0 1 0                 1      B A C A
 *   C9   1 0 0 0                 1      A - D -
 *   C10  0 0 0 0                 0      - D A A
 *
 * Exam: totals 4,3,3,2,2,2,2,1,1,0; Σ = 20, mean = 2.0.
 *   deviations² 4,1,1,0,0,0,0,1,1,4 → Σ = 12 → σ² = 12/10 = 1.2 → SD = √1.2 = 1.095445.
 * Facility p: I1 7/10 = 0.7, I2 5/10 = 0.5, I3 5/10 = 0.5, I4 3/10 = 0.3.
 *   Σpq = 0.21 + 0.25 + 0.25 + 0.21 = 0.92.
 *   KR-20 = 4/3 × (1 − 0.92/1.2) = 4/3 × 0.233333 = 0.311111.
 * Groups: 27% of 10 = 2.7 → 3. Upper = C1,C2,C3 (4,3,3); lower = C8,C9,C10 (1,1,0);
 *   no ties at either boundary (4th highest is 2, 7th is 2 while 8th is 1).
 *   D(I1) = 3/3 − 1/3 = 0.666667 (lower: only C9 right)
 *   D(I2) = 3/3 − 0/3 = 1
 *   D(I3) = 2/3 − 1/3 = 0.333333 (upper C1,C2; lower C8)
 *   D(I4) = 2/3 − 0/3 = 0.666667 (upper C1,C3)
 * Corrected point-biserial r = cov(x, rest)/(σx σrest), rest = total − item score:
 *   I1: rest 3,2,2,1,1,2,1,1,0,0 (mean 1.3); mean(x·rest) = 10/10 = 1.0;
 *       cov = 1.0 − 0.7×1.3 = 0.09; σx² = 0.21; σrest² = 25/10 − 1.69 = 0.81 (σ = 0.9)
 *       r = 0.09/(√0.21 × 0.9) = 0.09/0.412432 = 0.218218
 *   I2: rest 3,2,2,2,1,1,2,1,1,0 (mean 1.5); mean(x·rest) = 9/10 = 0.9;
 *       cov = 0.9 − 0.5×1.5 = 0.15; σx = 0.5; σrest² = 29/10 − 2.25 = 0.65 (σ = 0.806226)
 *       r = 0.15/(0.5 × 0.806226) = 0.372104
 *   I3: rest 3,2,3,1,2,1,2,0,1,0 (mean 1.5); mean(x·rest) = 7/10 = 0.7;
 *       cov = 0.7 − 0.75 = −0.05; σrest² = 33/10 − 2.25 = 1.05 (σ = 1.024695)
 *       r = −0.05/(0.5 × 1.024695) = −0.097590
 *   I4: rest 3,3,2,2,2,2,1,1,1,0 (mean 1.7); mean(x·rest) = 6/10 = 0.6;
 *       cov = 0.6 − 0.3×1.7 = 0.09; σrest² = 37/10 − 2.89 = 0.81 (σ = 0.9)
 *       r = 0.09/(√0.21 × 0.9) = 0.218218
 * Option shares (of 10): I1 A .7 B .2 C 0 D 0, omitted .1;
 *   I2 A .2 B .5 C .1 D .1, omitted .1; I3 A .1 B 0 C .5 D .4; I4 A .4 B .1 C .1 D .3, omitted .1.
 */
import { describe, expect, it } from 'vitest';
import { analyseMatrix, type ResponseMatrix } from '../../src/core/analysis/item-analysis.js';
import { kr20, pearson, upperLowerGroups, variance } from '../../src/core/analysis/statistics.js';

const KEYS = ['A', 'B', 'C', 'D'];
const CHOICES = ['ABCD', 'ABCA', 'ABDD', 'AACA', 'ABDB', 'BBCC', 'ACDD', 'BACA', 'A-D-', '-DAA'];

function designedMatrix(): ResponseMatrix {
  const items = KEYS.map((key, j) => ({
    questionId: `q${j + 1}`,
    type: 'MCQ',
    marks: 1,
    options: KEYS.map((l) => ({ optionId: `q${j + 1}_${l}`, keyLabel: l, isCorrect: l === key })),
  }));
  const candidates = CHOICES.map((row, c) => ({
    attemptId: `C${c + 1}`,
    choices: [...row].map((ch, j) => (ch === '-' ? null : `q${j + 1}_${ch}`)),
    scores: [...row].map((ch, j) => (ch === KEYS[j] ? 1 : 0)),
  }));
  return { items, candidates };
}

describe('item analysis of the designed data set', () => {
  const a = analyseMatrix(designedMatrix());

  it('computes the exam mean, standard deviation and KR-20', () => {
    expect(a.candidates).toBe(10);
    expect(a.maxScore).toBe(4);
    expect(a.mean).toBeCloseTo(2.0, 4);
    expect(a.standardDeviation).toBeCloseTo(1.095445, 4);
    expect(a.kr20).toBeCloseTo(0.311111, 4);
    expect(a.groupSize).toBe(3);
  });

  it('computes facility, discrimination and corrected point-biserial per question', () => {
    const q = a.questions;
    expect(q.map((x) => x.facilityIndex)).toEqual([0.7, 0.5, 0.5, 0.3]);
    const d = [0.666667, 1, 0.333333, 0.666667];
    const r = [0.218218, 0.372104, -0.09759, 0.218218];
    q.forEach((x, j) => {
      expect(x.discriminationIndex).toBeCloseTo(d[j]!, 4);
      expect(x.pointBiserial).toBeCloseTo(r[j]!, 4);
    });
  });

  it('reports the share choosing each option and omitting', () => {
    const shares = a.questions.map((x) => x.options.map((o) => o.share));
    expect(shares).toEqual([
      [0.7, 0.2, 0, 0],
      [0.2, 0.5, 0.1, 0.1],
      [0.1, 0, 0.5, 0.4],
      [0.4, 0.1, 0.1, 0.3],
    ]);
    expect(a.questions.map((x) => x.omitted.share)).toEqual([0.1, 0.1, 0, 0.1]);
  });

  it('flags a distractor chosen more often than the key, and unchosen distractors', () => {
    expect(a.questions[3]!.flags).toContain('option A was chosen more often than the key D: check the key');
    expect(a.questions[0]!.flags).toContain('distractors C, D chosen by nobody');
    expect(a.questions[1]!.flags.some((f) => f.includes('check the key'))).toBe(false);
  });
});

describe('statistics edge cases', () => {
  it('uses population variance and returns null where a statistic is undefined', () => {
    expect(variance([1, 2, 3, 4])).toBeCloseTo(1.25, 10);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(kr20([[1, 0]], [1, 0])).toBeNull(); // one item
    expect(kr20([[1, 1], [0, 0]], [1, 1])).toBeNull(); // totals do not vary
    expect(upperLowerGroups([5])).toBeNull();
  });

  it('breaks ties at a group boundary by input order', () => {
    // totals 3,1,1,1: group size round(1.08) = 1; lower group is the last of the tied 1s.
    expect(upperLowerGroups([3, 1, 1, 1])).toEqual({ upper: [0], lower: [3], size: 1 });
  });

  it('treats multi-mark items as shares of their marks', () => {
    const m: ResponseMatrix = {
      items: [
        { questionId: 'e1', type: 'LONG_ESSAY', marks: 10, options: [] },
        { questionId: 'e2', type: 'SHORT_ESSAY', marks: 4, options: [] },
      ],
      candidates: [
        { attemptId: 'x', scores: [8, 4], choices: [null, null] },
        { attemptId: 'y', scores: [4, 0], choices: [null, null] },
      ],
    };
    const a = analyseMatrix(m);
    // facility = mean/marks: (8+4)/2/10 = 0.6 and (4+0)/2/4 = 0.5; groups of 1: D = (8−4)/10 = 0.4, (4−0)/4 = 1
    expect(a.questions.map((q) => q.facilityIndex)).toEqual([0.6, 0.5]);
    expect(a.questions.map((q) => q.discriminationIndex)).toEqual([0.4, 1]);
    expect(a.questions[0]!.omitted.count).toBe(0);
    // alpha = 2/1 × (1 − (4 + 4)/16) = 1 (σ² of items 4 and 4; totals 12, 4 → σ² 16)
    expect(a.kr20).toBeCloseTo(1, 6);
  });
});
