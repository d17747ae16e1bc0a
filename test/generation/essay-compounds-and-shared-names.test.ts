/**
 * Two readings found on hold-out 13 and the history development question (docs/decisions.md,
 * "A hyphenated word misspelt part by part; a name two points share"): "Govenor-Generall" is
 * "Governor-General" misspelt, and model points that all open "The trees are …" are told apart
 * by what they say, not named "the trees", which any sentence about trees would state.
 */
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { planPoints } from '../../src/core/grading/essay/points.js';

describe('a hyphenated word misspelt part by part', () => {
  it('earns its mark', () => {
    const e = gradeEssayBuiltIn({
      questionPrompt: 'Who was the first head of the amalgamated Nigeria, and what was his title? [2 marks]',
      modelAnswer: 'Frederick Lugard, Governor-General of Nigeria.',
      maxMarks: 2,
      rubricCriteria: [{ id: 'a', title: '(a) Official and title - 2 marks', description: "Lugard ('Lord Lugard' accepted) 1; Governor-General 1. 'Governor' alone 1/2.", maxMarks: 2 }],
      studentResponse: 'Lord Lugard. He took the title of Govenor-Generall.',
    });
    expect(e.totalScore).toBe(2);
  });
});

describe('a name two model points share', () => {
  it('names neither: each point is what it says', () => {
    const model = '(a) The trees are very tall, up to 45 m.\n(b) The trees are evergreen.\n(c) The trees have broad leaves.\n(d) Climbers and epiphytes are many.';
    const g = parseGuidance('Any four, 1 mark each.', 4);
    const plan = planPoints(g, 'Characteristics - any four, 1 mark each', 'Any four, 1 mark each.', 4, model, new Set(['characteristics', 'rainforest']), false);
    const labels = plan.points.map((p) => p.label.toLowerCase());
    expect(labels.filter((l) => l === 'the trees')).toEqual([]);
    // one sentence about trees states one point at most, not every point named "the trees"
    const e = gradeEssayBuiltIn({
      questionPrompt: 'State four characteristics of the tropical rainforest. [4 marks]',
      modelAnswer: model,
      maxMarks: 4,
      rubricCriteria: [{ id: 'a', title: 'Characteristics - any four, 1 mark each', description: 'Any four, 1 mark each.', maxMarks: 4 }],
      studentResponse: 'In the savanna the trees are short and scattered. The trees shed their leaves in the dry season.',
    });
    expect(e.totalScore).toBeLessThanOrEqual(1);
  });
});
