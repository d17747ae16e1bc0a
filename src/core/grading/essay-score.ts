/**
 * An examiner's essay score (issue 7 "Examiner workflow", docs/design.md §7): criteria scores
 * (each within its criterion's maxMarks) summed, or a total `score`, within the question's
 * marks, rounded to half marks. Plain values in, a plain verdict out: the caller turns a
 * rejection into its own error (the hall: a 400 problem with these field errors).
 */
import type { PaperQuestion } from './paper.js';

/** The examiner's marks for one essay answer. */
export interface EssayScoreInput {
  criteriaScores?: { criterionId: string; score: number; feedback?: string }[];
  score?: number;
}

/** One rejected field: `path` names it (e.g. `criteriaScores.0.score`). */
export type ScoreFieldError = {
  index?: number;
  path: string;
  message: string;
};

export type EssayScoreVerdict = { ok: true; total: number } | { ok: false; detail: string; errors: ScoreFieldError[] };

/** The total an examiner's input awards on question `q`, or why it is rejected. */
export function essayScore(q: Pick<PaperQuestion, 'marks' | 'rubric'>, input: EssayScoreInput): EssayScoreVerdict {
  let total: number;
  if (input.criteriaScores?.length) {
    const crit = new Map((q.rubric?.criteria ?? []).map((c) => [c.id, c]));
    const errors = input.criteriaScores.flatMap((cs, i): ScoreFieldError[] => {
      const c = crit.get(cs.criterionId);
      if (!c) return [{ index: i, path: `criteriaScores.${i}.criterionId`, message: `no criterion ${cs.criterionId} in this question's rubric` }];
      if (cs.score < 0 || cs.score > c.maxMarks) return [{ index: i, path: `criteriaScores.${i}.score`, message: `must be within 0..${c.maxMarks}` }];
      return [];
    });
    if (errors.length) return { ok: false, detail: 'Some criterion scores are invalid.', errors };
    total = input.criteriaScores.reduce((s, c) => s + c.score, 0);
  } else if (input.score !== undefined) {
    total = input.score;
  } else {
    return { ok: false, detail: 'Give criteriaScores or score.', errors: [{ path: 'score', message: 'required when criteriaScores is absent' }] };
  }
  if (total < 0 || total > q.marks + 1e-9) return { ok: false, detail: `The score must be within 0..${q.marks}.`, errors: [{ path: 'score', message: `must be within 0..${q.marks}` }] };
  return { ok: true, total: Math.round(total * 2) / 2 };
}
