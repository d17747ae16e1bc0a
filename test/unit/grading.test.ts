import { describe, expect, it } from 'vitest';
import { gradeFor, percentageOf } from '../../src/core/grading/scale.js';
import { gradeAttempt } from '../../src/core/grading/grade.js';
import { essayScore } from '../../src/core/grading/essay-score.js';
import { buildPaper } from '../../src/modules/sessions/paper.js';

describe('WAEC/NECO grade scale', () => {
  // every boundary, and just below it
  const table: [number, string][] = [
    [100, 'A1'], [75, 'A1'], [74.99, 'B2'], [70, 'B2'], [69.99, 'B3'], [65, 'B3'], [64.99, 'C4'], [60, 'C4'], [59.99, 'C5'],
    [55, 'C5'], [54.99, 'C6'], [50, 'C6'], [49.99, 'D7'], [45, 'D7'], [44.99, 'E8'], [40, 'E8'], [39.99, 'F9'], [0, 'F9'],
  ];
  it.each(table)('%s%% → %s', (pct, grade) => expect(gradeFor(pct)).toBe(grade));

  it('rounds percentages to two decimals', () => {
    expect(percentageOf(2, 3)).toBe(66.67);
    expect(percentageOf(1, 3)).toBe(33.33);
    expect(percentageOf(0, 0)).toBe(0);
    expect(percentageOf(59.995, 100)).toBe(60); // rounds up into C4
  });
});

describe('gradeAttempt', () => {
  const exam = { id: 'ex', workspace_id: 'ws', title: 't', access_code: 'C', duration_mins: 10, starts_at: null, ends_at: null, max_tab_violations: 3, shuffle_questions: 0, shuffle_choices: 0, show_result_after: 1, is_published: 1, paused_at: null, created_at: 0, updated_at: 0 };
  const q = (id: string, type: string, marks: number, correct?: string) => ({
    id, exam_id: 'ex', workspace_id: 'ws', position: 0, type: type as 'MCQ', prompt: id, marks,
    options_json: JSON.stringify(correct ? [{ id: `${id}a`, keyLabel: 'A', text: 'a', isCorrect: correct === 'a' }, { id: `${id}b`, keyLabel: 'B', text: 'b', isCorrect: correct === 'b' }] : []),
    explanation: null, section: null, min_words: null, max_words: null, model_answer: null, rubric_json: null, difficulty: null, citation: null, created_at: 0, updated_at: 0,
  });
  const paper = buildPaper(exam, [q('q1', 'MCQ', 1.5, 'a'), q('q2', 'TRUE_FALSE', 1, 'b'), q('q3', 'MCQ', 2.5, 'b'), q('q4', 'LONG_ESSAY', 5)], false);

  it('scores objective items with decimal marks, unanswered as 0', () => {
    const r = gradeAttempt(paper, [
      { questionId: 'q1', optionId: 'q1a', text: null, approvedMarks: null },
      { questionId: 'q2', optionId: 'q2a', text: null, approvedMarks: null },
    ]);
    expect(r).toMatchObject({ score: 1.5, maxScore: 10, percentage: 15, grade: 'F9', pendingReview: false });
  });

  it('holds an unreviewed essay at 0 with pendingReview, then counts the approved marks', () => {
    const answers = [
      { questionId: 'q1', optionId: 'q1a', text: null, approvedMarks: null },
      { questionId: 'q3', optionId: 'q3b', text: null, approvedMarks: null },
      { questionId: 'q4', optionId: null, text: 'An essay', approvedMarks: null },
    ];
    expect(gradeAttempt(paper, answers)).toMatchObject({ score: 4, pendingReview: true, percentage: 40, grade: 'E8' });
    answers[2]!.approvedMarks = 3.5 as never;
    expect(gradeAttempt(paper, answers)).toMatchObject({ score: 7.5, pendingReview: false, percentage: 75, grade: 'A1' });
  });

  it('ignores an option id that belongs to another question', () => {
    expect(gradeAttempt(paper, [{ questionId: 'q1', optionId: 'q3b', text: null, approvedMarks: null }]).score).toBe(0);
  });
});

describe('essayScore (examiner marks on one essay)', () => {
  const q = { marks: 10, rubric: { name: 'R', totalMarks: 10, criteria: [{ id: 'c1', title: 'Content', maxMarks: 6, description: '' }, { id: 'c2', title: 'Style', maxMarks: 4, description: '' }] } };
  it('sums criterion scores and rounds the total to half marks', () => {
    expect(essayScore(q, { criteriaScores: [{ criterionId: 'c1', score: 5.3 }, { criterionId: 'c2', score: 3 }] })).toEqual({ ok: true, total: 8.5 });
    expect(essayScore(q, { score: 7.25 })).toEqual({ ok: true, total: 7.5 });
  });
  it('rejects an unknown criterion, a criterion over its maximum, a total over the marks, and no score at all', () => {
    expect(essayScore(q, { criteriaScores: [{ criterionId: 'zz', score: 1 }, { criterionId: 'c2', score: 5 }] })).toEqual({
      ok: false,
      detail: 'Some criterion scores are invalid.',
      errors: [
        { index: 0, path: 'criteriaScores.0.criterionId', message: "no criterion zz in this question's rubric" },
        { index: 1, path: 'criteriaScores.1.score', message: 'must be within 0..4' },
      ],
    });
    expect(essayScore(q, { score: 11 })).toMatchObject({ ok: false, errors: [{ path: 'score', message: 'must be within 0..10' }] });
    expect(essayScore(q, {})).toMatchObject({ ok: false, detail: 'Give criteriaScores or score.' });
  });
});
