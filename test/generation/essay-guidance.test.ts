/**
 * Marking guidance as teachers write it (issue 21 §2): counts, marks per point, the
 * stated/explained split, listed alternatives and per-item marks are read from a
 * criterion's description; an on-topic answer is never recommended 0, and every score is
 * explained by the points found and missing.
 */
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import type { GradeEssayRequest } from '../../src/core/generation/schemas.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';
import { parseGuidance } from '../../src/core/grading/essay/guidance.js';

/** The grader as the hall runs it, with WordNet. */
const gradeWithWordNet = (r: GradeEssayRequest) => gradeEssayBuiltIn(r, relatedWords);

describe('parseGuidance', () => {
  it('reads "Four valid causes, each stated and explained (2 marks each)"', () => {
    expect(parseGuidance('Four valid causes, each stated and explained (2 marks each)', 8)).toMatchObject({ count: 4, perPoint: 2, statedShare: 0.5 });
  });
  it('reads "Award 1 mark for each correct point up to 5"', () => {
    expect(parseGuidance('Award 1 mark for each correct point up to 5', 5)).toMatchObject({ count: 5, perPoint: 1 });
  });
  it('reads "any four of: a, b, c, d, e" as alternatives', () => {
    const g = parseGuidance('any four of: excess money supply, increase in wages, shortage of goods, high import prices, budget deficit', 4);
    expect(g).toMatchObject({ count: 4, perPoint: 1 });
    expect(g.alternatives).toEqual(['excess money supply', 'increase in wages', 'shortage of goods', 'high import prices', 'budget deficit']);
  });
  it('reads a "5 x 2 = 10" scheme with "stated - 1 mark; discussed - 1 mark"', () => {
    const g = parseGuidance('Any five of: bad roads; accidents; congestion; insecurity; flooding. Problem stated - 1 mark; problem discussed (cause or effect explained) - 1 mark. 5 x 2 = 10.', 10);
    expect(g).toMatchObject({ count: 5, perPoint: 2, statedShare: 0.5 });
    expect(g.alternatives).toHaveLength(5);
  });
  it('reads "1 for stating the factor, 2 for explanation" and an "Accept:" list', () => {
    const g = parseGuidance('Any four well-explained factors, 3 marks each: 1 for stating the factor, 2 for explanation. Accept: immunity clause, state of emergency, military rule, corruption.', 12);
    expect(g).toMatchObject({ count: 4, perPoint: 3 });
    expect(g.statedShare).toBeCloseTo(1 / 3);
    expect(g.alternatives).toEqual(['immunity clause', 'state of emergency', 'military rule', 'corruption']);
  });
  it('reads "1 mark for naming each factor and 1 mark for explaining" as 2 marks a point', () => {
    expect(parseGuidance('Any four of: temperature, humidity, wind, light. 1 mark for naming each factor and 1 mark for correctly explaining how it affects the rate.', 8)).toMatchObject({ count: 4, perPoint: 2, statedShare: 0.5 });
  });
  it('reads items with their own marks, "(1)" after and "1 for" before', () => {
    expect(parseGuidance('Supremacy of the law (1); equality before the law (1); protection of rights (1).', 3).marked.map((m) => m.marks)).toEqual([1, 1, 1]);
    expect(parseGuidance('2 marks (1 for identifying the non-disclosure, 1 for why the facts are material)', 2).marked.map((m) => m.text)).toEqual(['identifying the non-disclosure', 'why the facts are material']);
  });
  it('reads a list in brackets, "2½ marks", "up to N" meaning marks, band descriptors and "same basis"', () => {
    expect(parseGuidance('1 mark each for any three correct symptoms (slow system, missing files, pop-ups, crashes)', 3).alternatives).toHaveLength(4);
    expect(parseGuidance('2½ marks for the first principle correctly explained.', 2.5)).toMatchObject({ count: 1, perPoint: 2.5 });
    expect(parseGuidance('About 2 marks per well-used incident up to 10', 10)).toMatchObject({ count: 5, perPoint: 2 });
    expect(parseGuidance('Clear argument throughout: 5-6; some linking: 3-4; assertion only: 1-2.', 6).banded).toBe(true);
    expect(parseGuidance('2½ marks for the second principle, on the same basis.', 2.5).sameAsPrevious).toBe(true);
  });
  it('leaves a content description without guidance alone', () => {
    expect(parseGuidance('Carbon dioxide from the air through the stomata; water from the soil.', 3)).toMatchObject({ count: undefined, perPoint: undefined, alternatives: [], marked: [] });
  });
});

const causes = {
  questionPrompt: 'Explain four causes of inflation in Nigeria. [8 marks]',
  modelAnswer:
    '1. Excess money supply: when the central bank prints more money than the goods available, too much money chases too few goods and prices rise. 2. Increase in wages: higher wages raise costs of production, which firms pass on as higher prices. 3. Shortage of goods: poor harvests and low production reduce supply, so prices rise. 4. High import prices: a fall in the naira makes imported goods and raw materials dearer. 5. Budget deficit: government spending financed by borrowing increases demand.',
  rubricCriteria: [{ id: 'c1', title: 'Causes of inflation', maxMarks: 8, description: 'Four valid causes, each stated and explained (2 marks each)' }],
  maxMarks: 8,
};

describe('marking by points', () => {
  it('credits a good script by the points found and names those missing', () => {
    const ev = gradeWithWordNet({ ...causes, studentResponse: 'Inflation is caused by too much money in circulation: when the central bank prints money, too much money chases few goods and prices go up. Wages also rise, which increases the cost of production, so firms raise prices.' });
    expect(ev.totalScore).toBeGreaterThanOrEqual(3);
    expect(ev.totalScore).toBeLessThan(8);
    expect(ev.criteriaScores[0]!.feedback).toMatch(/Credited \d point\(s\) of 4 point\(s\) × 2 mark\(s\): .*Excess money supply.*Increase in wages|Increase in wages.*Excess money supply/);
    expect(ev.criteriaScores[0]!.feedback).toMatch(/Not found: .*(Shortage of goods|High import prices|Budget deficit)/);
  });

  it('never gives 0 to an on-topic answer, even a weak one without the model answer\'s words', () => {
    for (const text of ['Inflation in Nigeria is caused by the government.', 'Prices go up because there is too much money.', 'Shortage of goods.']) {
      const ev = gradeWithWordNet({ ...causes, studentResponse: text });
      expect(ev.totalScore, text).toBeGreaterThan(0);
      expect(ev.criteriaScores[0]!.feedback.length).toBeGreaterThan(20);
    }
    expect(gradeWithWordNet({ ...causes, studentResponse: 'Inflation in Nigeria is caused by the government.' }).criteriaScores[0]!.feedback).toMatch(/Half a mark: the answer is on the question/);
    expect(gradeWithWordNet({ ...causes, studentResponse: 'Photosynthesis takes place in the chloroplast of green leaves using sunlight.' }).totalScore).toBe(0);
  });
});
