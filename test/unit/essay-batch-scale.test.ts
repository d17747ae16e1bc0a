/**
 * Before any examiner mark, a batch's own strongest scripts set the scale of the calibrated
 * engine's recommendations (docs/decisions.md, "Before any mark, the batch's strongest
 * scripts set the scale"): the rubric engine's totals are lifted, never lowered; a small
 * batch and another engine's marks keep their own totals. The question is a human-marked
 * development question (test/fixtures/quality/essay-marking-6, history), on which the rubric
 * engine alone recommends a script the examiner gave 17/17 five marks.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradeEssaysCalibrated, type GradeEssaysInput } from '../../src/core/grading/essay/calibrate.js';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import type { MarkedQuestion } from '../../scripts/essay-quality.js';

const Q = JSON.parse(readFileSync(new URL('../fixtures/quality/essay-marking-6/waec-history-amalgamation-of-nigeria-1914.json', import.meta.url), 'utf8')) as MarkedQuestion;
const human = new Map(Q.scripts.map((s) => [s.id, s.examinerScore]));

function batch(scripts = Q.scripts): GradeEssaysInput {
  return {
    questionPrompt: Q.prompt,
    modelAnswer: Q.modelAnswer,
    maxMarks: Q.marks,
    rubricCriteria: Q.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks })),
    scripts: scripts.map((s) => ({ id: s.id, studentResponse: s.text })),
  };
}

/** The rubric engine's own total for one script of the batch. */
function own(input: GradeEssaysInput, id: string): number {
  const { scripts, ...rubric } = input;
  return gradeEssayBuiltIn({ ...rubric, studentResponse: scripts.find((s) => s.id === id)!.studentResponse }).totalScore;
}

describe('uncalibrated recommendations on the batch’s own scale', () => {
  const input = batch();
  const recs = gradeEssaysCalibrated(input).recommendations;

  it('the engine alone squeezes this question low (the premise): its best total is under half the marks', () => {
    expect(Math.max(...Q.scripts.map((s) => own(input, s.id)))).toBeLessThan(Q.marks / 2);
  });

  it('lifts the strongest scripts to full marks, and most scripts a person gave >= 75% out of the bottom 40%', () => {
    expect(Math.max(...recs.map((r) => r.totalScore))).toBe(Q.marks);
    const high = Q.scripts.filter((s) => s.examinerScore >= 0.75 * Q.marks).map((s) => s.id);
    const low = (total: (id: string) => number) => high.filter((id) => total(id) < 0.4 * Q.marks);
    const lifted = new Map(recs.map((r) => [r.id, r.totalScore]));
    // the engine alone: the excellent, paraphrase, spelling and good scripts (17, 15, 16, 15 of 17)
    expect(low((id) => own(input, id))).toHaveLength(4);
    // on the batch's scale only the paraphrase, whose words the engine cannot read (0.5 of its own)
    expect(low((id) => lifted.get(id)!)).toEqual(['s02-paraphrase']);
  });

  it('never lowers the engine’s own total; totals in half marks; criterion scores add up to the total within their maxima', () => {
    for (const r of recs) {
      expect(r.calibrated).toBe(false);
      expect(r.totalScore).toBeGreaterThanOrEqual(own(input, r.id));
      expect(r.totalScore * 2).toBe(Math.round(r.totalScore * 2));
      expect(r.criteriaScores.reduce((s, c) => s + c.score, 0)).toBeCloseTo(r.totalScore);
      for (const c of r.criteriaScores) expect(c.score).toBeLessThanOrEqual(c.maxMarks);
    }
  });

  it('keeps the confidence of the engine’s own total: under 40% of the marks it is "low", however far the script is lifted', () => {
    for (const r of recs) expect(r.confidence).toBe(own(input, r.id) < 0.4 * Q.marks ? 'low' : 'medium');
  });

  it('is nearer the examiner than the engine’s own totals on this question (mean absolute error)', () => {
    const mae = (f: (id: string) => number) => Q.scripts.reduce((s, x) => s + Math.abs(f(x.id) - x.examinerScore), 0) / Q.scripts.length;
    const lifted = new Map(recs.map((r) => [r.id, r.totalScore]));
    expect(mae((id) => lifted.get(id)!)).toBeLessThan(mae((id) => own(input, id)));
  });

  it('a batch of fewer than 6 scripts keeps the engine’s own totals', () => {
    const small = batch(Q.scripts.slice(0, 5));
    for (const r of gradeEssaysCalibrated(small).recommendations) expect(r.totalScore).toBe(own(small, r.id));
  });

  it('another engine’s marks (an LLM’s evaluations) keep their own totals', () => {
    const given = Q.scripts.map((s) => ({ totalScore: 2, maxScore: Q.marks, criteriaScores: Q.rubric.criteria.map((c, i) => ({ criterionId: `c${i + 1}`, score: i === 0 ? 2 : 0, maxMarks: c.maxMarks, feedback: '' })), overallComment: '', strengths: [], areasForImprovement: [] }));
    for (const r of gradeEssaysCalibrated(input, undefined, given).recommendations) expect(r.totalScore).toBe(2);
  });
});
