/**
 * Two marking rules of issue 39 §1's round after the eighth hold-out (docs/decisions.md,
 * "Only the first N points are marked" and "A few marks refine the batch's scale; they do
 * not replace it"):
 * - for "any three" the examiner marks the first three points the candidate offers in
 *   that part, not the best three of a longer list;
 * - a few examiner marks are averaged with the uncalibrated recommendation, the fit
 *   counting for more as marks are added.
 * Hand-written question and scripts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { essaySet, type MarkedQuestion } from '../../scripts/essay-quality.js';
import { gradeEssaysCalibrated } from '../../src/core/grading/essay/calibrate.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

const question = {
  questionPrompt: '(a) What is a cooperative society? [2 marks]\n(b) Explain three advantages of a cooperative society to its members. [6 marks]',
  modelAnswer:
    '(a) A cooperative society is a voluntary association of people who pool their resources together to carry on a business for their mutual benefit.\n' +
    '(b) 1. Members buy goods at lower prices because the society buys in bulk.\n2. Members can obtain loans at low interest from the society.\n' +
    '3. Profits are shared among members as dividends in proportion to their purchases.\n4. Members are trained in business skills and management.',
  maxMarks: 8,
  rubricCriteria: [
    { id: 'a', title: '(a) Meaning - 2 marks', description: 'Voluntary association of people (1) pooling resources for their mutual benefit (1).', maxMarks: 2 },
    {
      id: 'b',
      title: '(b) Advantages - any three, 2 marks each',
      description: 'Lower prices through bulk buying; loans at low interest; dividends shared in proportion to purchases; training of members in business skills. 1 for stating, 1 for explaining. Only the first three advantages are marked.',
      maxMarks: 6,
    },
  ],
};

const grade = (studentResponse: string) => gradeEssayBuiltIn({ ...question, studentResponse }, relatedWords);
const partB = (studentResponse: string) => grade(studentResponse).criteriaScores.find((c) => c.criterionId === 'b')!.score;

const opening = '(a) A cooperative society is a voluntary association of people who pool their resources for their mutual benefit.\n\n';
const wrong = ['1. The society pays no tax to government at all.', '2. Members do not need to work again.', '3. The society is owned by the state.'];
const right = ['4. Members buy goods at lower prices because the society buys in bulk.', '5. Members get loans at low interest from the society.'];

describe('only the first N points of a part are marked', () => {
  it('five advantages listed, the first three wrong: the last two earn nothing', () => {
    expect(partB(`${opening}(b) ${[...wrong, ...right].join('\n')}`)).toBe(0);
  });

  it('the same points with the right ones first earn what the right ones earn alone', () => {
    const alone = partB(`${opening}(b) ${right.join('\n')}`);
    expect(alone).toBeGreaterThan(0);
    expect(partB(`${opening}(b) ${[...right, ...wrong].join('\n')}`)).toBe(alone);
  });

  it('lines that explain an item belong to it: the third item keeps its explanation, a fourth item is not read', () => {
    const three = `${opening}(b) 1. Lower prices.\nThe society buys in bulk, so members buy goods cheaply.\n2. Loans.\nMembers get loans at low interest.\n3. Dividends.\nProfits are shared among members in proportion to their purchases.`;
    const twoOnly = three.slice(0, three.indexOf('3. Dividends'));
    expect(partB(three)).toBeGreaterThan(partB(twoOnly));
    expect(partB(`${three}\n4. Training.\nMembers are trained in business skills and management.`)).toBe(partB(three));
  });

  it('a script that labels no part is read whole, as before', () => {
    const script = [...wrong, ...right].map((l) => l.replace(/^\d\. /, '')).join(' ');
    expect(partB(script)).toBeGreaterThan(0);
  });
});

describe('a few examiner marks refine the uncalibrated recommendation', () => {
  // A development question of the first human-marked set (docs/quality.md).
  const q = JSON.parse(readFileSync(join(essaySet('essay-marking'), 'waec-economics-inflation.json'), 'utf8')) as MarkedQuestion;
  const batch = (marks: Map<string, number>) =>
    gradeEssaysCalibrated(
      {
        questionPrompt: q.prompt,
        modelAnswer: q.modelAnswer,
        maxMarks: q.marks,
        rubricCriteria: q.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks })),
        scripts: q.scripts.map((s) => ({ id: s.id, studentResponse: s.text, examinerScore: marks.get(s.id) })),
      },
      relatedWords,
    );

  it("three harsh marks (0 for each script markFirst names) pull the rest down by about half, not to nothing", () => {
    const before = batch(new Map());
    const harsh = batch(new Map(before.markFirst.map((id) => [id, 0])));
    const strongest = before.recommendations.filter((r) => !before.markFirst.includes(r.id)).reduce((a, b) => (b.totalScore > a.totalScore ? b : a));
    const after = harsh.recommendations.find((r) => r.id === strongest.id)!;
    expect(strongest.totalScore).toBeGreaterThanOrEqual(q.marks * 0.75);
    expect(after.calibrated).toBe(true);
    expect(after.totalScore).toBeLessThan(strongest.totalScore * 0.7);
    expect(after.totalScore).toBeGreaterThan(strongest.totalScore * 0.35);
  });

  it('the same marks agreeing with the recommendations leave them where they were, within a mark', () => {
    const before = batch(new Map());
    const agree = batch(new Map(before.markFirst.map((id) => [id, before.recommendations.find((r) => r.id === id)!.totalScore])));
    for (const r of agree.recommendations) expect(Math.abs(r.totalScore - before.recommendations.find((b) => b.id === r.id)!.totalScore)).toBeLessThanOrEqual(1);
  });
});
