/**
 * Calibrated essay marking on the human-marked development sets (issue 39 §1): per
 * question the examiner is simulated marking the first 3 scripts of `markFirst`; the rest
 * are measured (scripts/quality/calibrated-essays.ts). The levels asserted are slightly
 * under those measured (docs/quality.md, "Calibrated essay marking (issue 39), development
 * sets"): they guard against regressions; they were not tuned to pass.
 */
import { describe, expect, it } from 'vitest';
import { measureSet } from '../../scripts/quality/calibrated-essays.js';
import { essaySet } from '../../scripts/essay-quality.js';

const levels = [
  // set, measured mean rho and MAE share (the first N points marked, a few marks averaged with
  // the batch's scale, 2026-11-29): 0.931 / 9.4%, 0.790 / 14.5%, 0.881 / 14.8%, 0.829 / 13.3%,
  // 0.752 / 21.3%, 0.764 / 18.3%, 0.813 / 17.0%, 0.855 / 19.3%; sets 4–8 were hold-outs, each
  // run once before it became development data (docs/quality.md)
  { set: 'essay-marking', rho: 0.91, mae: 0.105, highLow: 0 },
  { set: 'essay-marking-2', rho: 0.78, mae: 0.175, highLow: 2 },
  { set: 'essay-marking-3', rho: 0.85, mae: 0.165, highLow: 0 },
  // mae 0.15 since "Acceptable factors: a; b; …" opens the scheme's list (docs/decisions.md, "'Acceptable …:' opens the
  // list of points"): read right, the federalism question's eight factors let its "excess" script's numbered items (iii)
  // and (iv) each meet two factors (12 of 12 where the examiner, marking the first four items, gave 6). Crediting a
  // numbered item with one point where only the first N are marked mends it (set 4: 13.3 %) but puts one more high script
  // under 40 % before any mark on sets 6 and 13, so it was not kept.
  { set: 'essay-marking-4', rho: 0.81, mae: 0.15, highLow: 1 },
  // highLow 1 since the scheme's headings "(i) Arrangement … (iv) Application" are read as its
  // points (docs/decisions.md, "A comparison's headings are its points"): the file-organisation
  // paraphrase (examiner 8 of 9) is 3.5 before any mark, flagged "low". Its 0 before came from a
  // misreading that made "'both on disk'" the one point worth 4 marks, met by any script naming a disk.
  { set: 'essay-marking-5', rho: 0.74, mae: 0.22, highLow: 1 },
  { set: 'essay-marking-6', rho: 0.76, mae: 0.2, highLow: 1 },
  // hold-out 7, run once on febe03a (0.793 / 18.0%), development data since
  { set: 'essay-marking-7', rho: 0.77, mae: 0.185, highLow: 2 },
  // hold-out 8, run once on febe03a (0.784 / 22.1%), development data since
  { set: 'essay-marking-8', rho: 0.76, mae: 0.225, highLow: 1 },
  // hold-out 9, run once on 101c405 (0.772 / 19.6%), development data since
  { set: 'essay-marking-9', rho: 0.75, mae: 0.205, highLow: 1 },
  // hold-out 10, run once on the grader of 3aaf400 (0.789 / 17.6%), development data since
  { set: 'essay-marking-10', rho: 0.77, mae: 0.185, highLow: 1 },
  // hold-out 11, run once on cf657a9 (0.751 / 18.3%), development data since
  { set: 'essay-marking-11', rho: 0.73, mae: 0.195, highLow: 2 },
  // hold-out 12, run once on 44a1336 (0.841 / 15.0%), development data since
  { set: 'essay-marking-12', rho: 0.82, mae: 0.16, highLow: 1 },
  // hold-out 13, run once on 9938c8e (0.772 / 16.8%), development data since
  { set: 'essay-marking-13', rho: 0.75, mae: 0.18, highLow: 2 },
  // hold-out 14, run once on b7a80e0 (0.813 / 15.0%), development data since
  { set: 'essay-marking-14', rho: 0.79, mae: 0.165, highLow: 0 },
  // hold-out 15, run once on 5c86498 (0.829 / 16.8%), development data since
  { set: 'essay-marking-15', rho: 0.8, mae: 0.185, highLow: 0 },
];

describe('calibrated essay marking after 3 examiner marks per question (development sets)', () => {
  for (const level of levels) {
    it(`${level.set}: mean rho and MAE on the unmarked scripts hold; no on-topic script recommended 0; high scripts the engine puts low are flagged "low"`, () => {
      const m = measureSet(essaySet(level.set));
      expect(m.rho).toBeGreaterThanOrEqual(level.rho);
      expect(m.maeShare).toBeLessThanOrEqual(level.mae);
      for (const q of m.questions) {
        expect(q.marked).toHaveLength(3);
        expect(q.rows.every((r) => !q.marked.includes(r.script))).toBe(true);
      }
      expect(m.questions.flatMap((q) => q.onTopicZero.map((s) => `${q.question} ${s}`))).toEqual([]);
      const highLow = m.questions.flatMap((q) => q.highLow);
      expect(highLow.length).toBeLessThanOrEqual(level.highLow);
      // Before calibration a script a person gave >= 75% may still be recommended < 40%, but never as a confident mark.
      expect(highLow.filter((h) => h.confidence !== 'low')).toEqual([]);
    }, 120_000);
  }
});
