/**
 * Three readings of a marking scheme (docs/decisions.md, "A comparison's headings are its
 * points; a title naming the subject is content"): headings numbered "(i) … (ii) … (iii)"
 * are the points to find; "only one side is correct" is no count of points; a criterion
 * whose title names the subject's matter ("Meaning of file organisation", "Fair
 * presentation") is marked on content, not on how the answer is written.
 */
import { describe, expect, it } from 'vitest';
import { numberedPoints, parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { planPoints } from '../../src/core/grading/essay/points.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

const headings =
  '(i) Cost: hire purchase - a deposit and instalments with interest; cash purchase - the full price at once. ' +
  '(ii) Ownership: hire purchase - passes after the last instalment; cash purchase - passes at once. ' +
  '(iii) Risk of repossession: hire purchase - the seller may take the goods back; cash purchase - none. ' +
  '1 mark where both sides of a heading are right; 1/2 where only one side is right.';

describe('a comparison marked by headings', () => {
  it('reads "(i) … (ii) … (iii)" as the points, in order', () => {
    const n = numberedPoints(headings);
    expect(n?.items.map((i) => i.split(':')[0])).toEqual(['Cost', 'Ownership', 'Risk of repossession']);
    expect(numberedPoints('(i) Cost: a. (iii) Risk: b. (iv) Use: c.')).toBeNull();
  });

  it('"only one side is right" does not say how many points are wanted', () => {
    const g = parseGuidance(headings, 3);
    expect(g.count).not.toBe(1);
    const plan = planPoints(g, '(b) Three headings - 1 mark each', headings, 3, 'Cost, ownership and risk differ.', new Set(), false);
    expect([plan.count, plan.perPoint, plan.points.length]).toEqual([3, 1, 3]);
    expect(parseGuidance('Any two, 1 mark each; only one of a pair is credited.', 2).count).toBe(2);
    expect(parseGuidance('Award 1 mark each; only two are needed.', 2).count).toBe(2);
  });

  it('an answer on two headings earns two marks, not the whole criterion or none', () => {
    const e = gradeEssayBuiltIn(
      {
        questionPrompt: 'Distinguish between hire purchase and cash purchase under three headings. [3 marks]',
        modelAnswer: 'Hire purchase is paid by a deposit and instalments with interest; cash purchase pays the full price at once. Under hire purchase ownership passes after the last instalment; under cash purchase at once. The hire purchase seller may repossess the goods.',
        maxMarks: 3,
        rubricCriteria: [{ id: 'b', title: '(b) Three headings - 1 mark each', description: headings, maxMarks: 3 }],
        studentResponse:
          'Cost: under hire purchase the buyer pays a deposit and then instalments with interest, but in cash purchase he pays the full price at once.\n' +
          'Ownership: in hire purchase ownership passes after the last instalment is paid, in cash purchase it passes at once.',
      },
      relatedWords,
    );
    expect(e.totalScore).toBe(2);
  });
});

describe('a criterion titled with the subject\'s matter', () => {
  const rubric = (title: string) => ({
    questionPrompt: 'Explain the concept of fair presentation in financial statements. [3 marks]',
    modelAnswer: 'Fair presentation means that the financial statements faithfully represent the effects of transactions, other events and conditions in accordance with the definitions and recognition criteria for assets, liabilities, income and expenses.',
    maxMarks: 3,
    rubricCriteria: [{ id: 'a', title, description: 'Faithful representation of transactions (1); in accordance with the definitions and recognition criteria (1); of assets, liabilities, income and expenses (1).', maxMarks: 3 }],
  });
  // Clear sentences on the question that state none of the scheme's points.
  const clearButEmpty = 'Fair presentation is a very important concept in financial statements. Every accountant must follow fair presentation at all times. It is required by the standards.';

  it('"iv. Fair presentation" is content: clear sentences that state none of its points earn at most the floor', () => {
    expect(gradeEssayBuiltIn({ ...rubric('iv. Fair presentation'), studentResponse: clearButEmpty }, relatedWords).totalScore).toBeLessThanOrEqual(0.5);
  });

  it('"Organisation and relevance - 3 marks" is still how the answer is written', () => {
    const e = gradeEssayBuiltIn({ ...rubric('(c) Organisation and relevance - 3 marks'), studentResponse: clearButEmpty }, relatedWords);
    expect(e.criteriaScores[0]!.feedback).not.toMatch(/point/i);
    expect(e.totalScore).toBeGreaterThan(0.5);
  });
});
