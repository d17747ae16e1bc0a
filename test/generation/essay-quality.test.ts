/**
 * The essay grader against the independent examiner's marks (issue 21 §2), on the dev
 * questions of test/fixtures/quality/essay-marking and on all 12 (its hold-out part was run
 * twice and became development data, see docs/quality.md), and the hold-out files still
 * match their frozen sha256 manifest.
 */
import { describe, expect, it } from 'vitest';
import { essayMeasures, essaySet, gradeMarkedQuestions, holdoutMismatches, loadMarkedQuestions } from '../../scripts/essay-quality.js';

describe('essay recommendations on the independent marking set', () => {
  it('dev set: ranks like the examiner, errs by a modest share of marks, never scores an on-topic script 0', () => {
    const m = essayMeasures(gradeMarkedQuestions(loadMarkedQuestions('dev')));
    expect(m.scripts).toBe(88);
    // Measured 0.856 and 13.9% (docs/quality.md); these guard against regressions.
    expect(m.rho).toBeGreaterThanOrEqual(0.84);
    expect(m.maeShare).toBeLessThanOrEqual(0.15);
    expect(m.onTopicZero.map((r) => `${r.question} ${r.script}`)).toEqual([]);
  });

  it('all 12 questions (the old hold-out is development data since it was run twice): measured level holds', () => {
    const m = essayMeasures(gradeMarkedQuestions(loadMarkedQuestions('all')));
    expect(m.scripts).toBe(132);
    // Measured 0.883 and 10.3% at the freeze of 2026-11-25 (docs/quality.md); these guard against regressions.
    expect(m.rho).toBeGreaterThanOrEqual(0.87);
    expect(m.maeShare).toBeLessThanOrEqual(0.11);
    expect(m.onTopicZero.map((r) => `${r.question} ${r.script}`)).toEqual([]);
  });

  it('essay-marking-2 (development data since its one hold-out run): round 3 level holds', () => {
    const m = essayMeasures(gradeMarkedQuestions(loadMarkedQuestions('all', essaySet('essay-marking-2'))));
    expect(m.scripts).toBe(72);
    // Measured 0.682 and 22.5% on its hold-out run, 0.813 and 15.0% after round 3 (docs/quality.md); these guard against regressions.
    expect(m.rho).toBeGreaterThanOrEqual(0.8);
    expect(m.maeShare).toBeLessThanOrEqual(0.155);
  });

  it('the hold-out files are unchanged since they were frozen', () => {
    expect(holdoutMismatches()).toEqual([]);
    expect(loadMarkedQuestions('holdout')).toHaveLength(4);
  });

  it('the second hold-out (essay-marking-2) is unchanged since it was frozen', () => {
    const set = essaySet('essay-marking-2');
    expect(holdoutMismatches(set)).toEqual([]);
    expect(loadMarkedQuestions('holdout', set)).toHaveLength(6);
  });
});
