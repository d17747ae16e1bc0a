/**
 * Words in brackets after a point stated at length are its details, not other names for it
 * (docs/decisions.md, "Brackets after a long point are its details"): "which transmits the
 * loads of the building (dead, live, wind) safely to the subsoil" is not stated by a sentence
 * that says "wind", or "line" (within a letter of "live"). After a short name they still are
 * its other names: "insecurity (robbery, kidnapping)". Texts written for this test.
 */
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

const grade = (description: string, studentResponse: string) =>
  gradeEssayBuiltIn(
    {
      questionPrompt: 'Answer the question. [2 marks]',
      modelAnswer: 'See the marking scheme.',
      maxMarks: 2,
      rubricCriteria: [{ id: 'a', title: '(a) Points - 2 marks', description, maxMarks: 2 }],
      studentResponse,
    },
    relatedWords,
  );

describe('brackets after a point', () => {
  it('after a long point: its details, which state nothing alone', () => {
    const e = grade(
      'Any two, 1 mark each: a foundation transmits the loads of the building (dead, live, wind) safely to the subsoil; it gives a firm level base for the walls; it prevents unequal settlement.',
      'A string line is stretched between the pegs. The wind blew the pegs down.',
    );
    expect(e.criteriaScores[0]!.feedback).not.toMatch(/^Credited[^.]*transmits the loads/);
  });

  it('after a short name: its other names', () => {
    const e = grade('Any two, 1 mark each: insecurity (robbery, kidnapping); poor roads; epileptic power supply.', 'Kidnapping of workers scares investors away. The roads are very bad.');
    expect(e.criteriaScores[0]!.feedback).toMatch(/insecurity/);
  });
});
