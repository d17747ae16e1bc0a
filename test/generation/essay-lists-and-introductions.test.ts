/**
 * Two readings of the model answer and the script (docs/decisions.md, "An 'Any four:' list is
 * its points; an introduction before the first part label earns nothing"): a model answer's
 * "(c) Any four: a; b; c; …" is a list of points, not one point named "Any four"; and in a
 * script labelled "(a) … (b) …", what comes before the first label is its introduction.
 */
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { modelPoints, responseUnits } from '../../src/core/grading/essay/points.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

describe("a model answer's \"Any four:\" list", () => {
  it('is one point per item', () => {
    const points = modelPoints('(a) Typhoid is caused by Salmonella typhi.\n(b) Any four: high fever; headache; abdominal pain; loss of appetite; weakness.');
    expect(points.filter((p) => p.part === 'b').map((p) => p.text)).toEqual(['high fever', 'headache', 'abdominal pain', 'loss of appetite', 'weakness']);
  });

  it('lets a script stating four symptoms earn the four marks', () => {
    const e = gradeEssayBuiltIn(
      {
        questionPrompt: '(a) Name the organism that causes typhoid fever. (b) State four symptoms of typhoid fever. [5 marks]',
        modelAnswer: '(a) Salmonella typhi, a bacterium.\n(b) Any four: high fever; headache; abdominal pain; loss of appetite; weakness.',
        maxMarks: 5,
        rubricCriteria: [
          { id: 'a', title: '(a) Causative organism - 1 mark', description: 'Salmonella typhi (a bacterium).', maxMarks: 1 },
          { id: 'b', title: '(b) Symptoms - any four points, 1 mark each', description: 'Only the first four offered are marked; note form accepted.', maxMarks: 4 },
        ],
        studentResponse: '(a) Salmonella typhi.\n(b) 1. High fever\n2. Headache\n3. Pain in the abdomen\n4. Loss of appetite',
      },
      relatedWords,
    );
    expect(e.criteriaScores[1]!.score).toBeGreaterThanOrEqual(3.5);
  });
});

describe('a labelled script\'s introduction', () => {
  const request = (studentResponse: string) => ({
    questionPrompt: '(a) Define half-life. (b) State two uses of radioisotopes. [4 marks]',
    modelAnswer: '(a) Half-life is the time taken for half of the atoms of a radioactive sample to decay.\n(b) Any two: treatment of cancer (radiotherapy); carbon-14 dating of fossils; tracers in medicine and agriculture; smoke detectors.',
    maxMarks: 4,
    rubricCriteria: [
      { id: 'a', title: '(a) Definition - 2 marks', description: 'Time taken (1) for half of the atoms to decay (1).', maxMarks: 2 },
      { id: 'b', title: '(b) Uses - any two, 1 mark each', description: 'Any two, 1 mark each.', maxMarks: 2 },
    ],
    studentResponse,
  });
  const history = 'Radioactivity was discovered by Becquerel in 1896. Today it is famous for the treatment of cancer and for the carbon-14 dating of fossils, and many scientists have studied it.\n\n';

  it('is marked as introduction: the uses it mentions earn nothing under (b)', () => {
    expect(responseUnits(`${history}(a) Half-life is the time for half the atoms to decay.`).map((u) => u.aside ?? false)).toEqual([true, true, false]);
    const e = gradeEssayBuiltIn(request(`${history}(a) Half-life is the time taken for half of the atoms to decay.`), relatedWords);
    expect(e.criteriaScores[1]!.score).toBe(0);
  });

  it('the same uses under (b) earn their marks; an unlabelled answer is read whole', () => {
    const labelled = gradeEssayBuiltIn(request('(a) Half-life is the time taken for half of the atoms to decay.\n(b) Treatment of cancer. Carbon-14 dating of fossils.'), relatedWords);
    expect(labelled.criteriaScores[1]!.score).toBe(2);
    expect(responseUnits('Half-life is the time for half the atoms to decay. It is used in the treatment of cancer.').every((u) => !u.aside)).toBe(true);
  });
});
