/**
 * A short scheme written as items each followed by its bare mark (docs/decisions.md, "Items
 * followed by their marks are the points"): "Virus (e.g. …) 1; 'a germ' 0. Aedes aegypti 1;
 * Aedes without 'aegypti' 1/2; Anopheles, Culex 0." The items above 0 are the points, a lesser
 * answer is no point of its own, the items at 0 earn nothing, and an "e.g." inside an item's
 * bracket lists no points.
 */
import { describe, expect, it } from 'vitest';
import { parseGuidance, scoredItems } from '../../src/core/grading/essay/guidance.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

const scheme =
  "Yellow fever virus (a flavivirus; e.g. 'the YF virus') 1; 'a germ' or 'an infection' without the name 0; bacterium, Plasmodium 0. " +
  "Aedes aegypti mosquito 1; Aedes without 'aegypti' 1/2; Anopheles, Culex, 'flies' 0.";
const request = (studentResponse: string) => ({
  questionPrompt: 'Name: (i) the organism that causes yellow fever; (ii) the vector of yellow fever. [2 marks]',
  modelAnswer: '(i) The yellow fever virus (a flavivirus). (ii) The Aedes aegypti mosquito.',
  maxMarks: 2,
  rubricCriteria: [{ id: 'a', title: '(a) Causative organism and vector - 1 mark each', description: scheme, maxMarks: 2 }],
  studentResponse,
});

describe('items each followed by its mark', () => {
  it('are the points; the items at 0 earn nothing; a lesser answer is no point of its own', () => {
    const s = scoredItems(scheme.replace(/\s+/g, ' '));
    expect(s?.marked).toEqual([
      { text: "Yellow fever virus (a flavivirus; e.g. 'the YF virus')", marks: 1 },
      { text: 'Aedes aegypti mosquito', marks: 1 },
    ]);
    expect(s?.zero).toEqual(["'a germ' or 'an infection' without the name", 'bacterium, Plasmodium', "Anopheles, Culex, 'flies'"]);
    const g = parseGuidance(scheme, 2);
    expect(g.alternatives).toEqual([]);
    expect(g.marked.map((m) => m.marks)).toEqual([1, 1]);
  });

  it('need two marked items, most of the pieces, and no mark in brackets', () => {
    expect(scoredItems('Any four of: fever; headache; vomiting; chills. 1 mark each.')).toBeNull();
    expect(scoredItems('Block weighed in air (1); block weighed in water (1); loss in weight found 1')).toBeNull();
    expect(scoredItems('Fever 1. The candidate must explain each point in a sentence of his own. Only the first two are marked. Spelling is not penalised')).toBeNull();
  });

  it('a full answer earns both marks; the wrong organism and vector earn no more than the floor of an answer on the question', () => {
    expect(gradeEssayBuiltIn(request('(i) Yellow fever virus.\n(ii) Aedes aegypti mosquito.'), relatedWords).totalScore).toBe(2);
    expect(gradeEssayBuiltIn(request('(i) It is caused by Plasmodium.\n(ii) It is carried by the Anopheles mosquito and flies.'), relatedWords).totalScore).toBeLessThanOrEqual(0.5);
  });
});
