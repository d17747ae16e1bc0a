/**
 * A scheme's "Not credited: a, b, c" list (docs/decisions.md, "A 'Not credited:' list names
 * what earns nothing"): its items are read as answers that earn nothing, so a script that
 * gives one of them (brazing where soft soldering is asked) is not credited with the point
 * it shares words with. Quoted statements and lesser answers ("'corruption' alone") are not
 * read as other subjects. Texts are small and written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { excludedPoints } from '../../src/core/grading/essay/guidance.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

describe('a "Not credited:" list', () => {
  it('names each thing it lists, the items in a heading\'s brackets, and not a quoted statement or a lesser answer', () => {
    expect(excludedPoints('Soldering iron ½. Not credited: welding (edges of the metals melted), riveting, folded seaming 0. Only the first four.')).toEqual(
      expect.arrayContaining(['welding', 'riveting', 'folded seaming']),
    );
    const files = excludedPoints("Not credited: types of file (master, transaction, reference), 'the type of computer', 'corruption' alone, 'increases revenue' unexplained.");
    expect(files).toEqual(expect.arrayContaining(['master', 'transaction', 'reference']));
    expect(files.join(' | ')).not.toMatch(/computer|corruption|revenue|types of file/);
    expect(excludedPoints('Not counted as stages: marking out the tinplate, safety remarks.')).toEqual(['marking out the tinplate', 'safety remarks']);
  });

  it('keeps a script on the listed neighbour from the point it shares words with', () => {
    const request = (studentResponse: string) => ({
      questionPrompt: 'What is soft soldering? [2 marks]',
      modelAnswer: 'Soft soldering is the joining of metals using solder, an alloy of tin and lead, at a low temperature without melting the metals.',
      maxMarks: 2,
      rubricCriteria: [
        {
          id: 'a',
          title: 'Meaning of soft soldering - 2 marks',
          description: 'Joining of metals using solder, an alloy of tin and lead (1); at a low temperature, the metals themselves not being melted (1). Not credited: welding, brazing, riveting, folded seaming 0.',
          maxMarks: 2,
        },
      ],
      studentResponse,
    });
    const brazing = gradeEssayBuiltIn(request('Brazing is the joining of metals with a filler of brass called spelter, which melts at a bright red heat.'), relatedWords);
    const soldering = gradeEssayBuiltIn(request('It is the joining of metals with solder, an alloy of tin and lead, at a low temperature.'), relatedWords);
    // no point credited (at most the half mark an answer on the question's subject gets)
    expect(brazing.criteriaScores[0]!.feedback).toMatch(/^No creditable point/);
    expect(brazing.totalScore).toBeLessThanOrEqual(0.5);
    expect(soldering.criteriaScores[0]!.feedback).toMatch(/^Credited 1 point/);
  });
});
