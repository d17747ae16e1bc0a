/**
 * Rubric arithmetic. Templates (GET /rubric-templates: WAEC, Cambridge, STEM) give
 * criteria relative weights; a question's rubric needs marks per criterion that add up
 * exactly to the question's marks (docs/design.md §6: criteria maxMarks sum to totalMarks, which
 * equals the question's marks).
 */
import type { Criterion, RubricTemplate } from './types.js';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Splits `total` marks over `weights` in half marks by largest remainder, so the parts
 * sum to `total` exactly (any sub-half-mark rest goes to the heaviest criterion).
 * Returns one value per weight; all zeros when the weights sum to 0.
 */
export function splitMarks(weights: number[], total: number): number[] {
  const sumW = weights.reduce((a, b) => a + Math.max(0, b), 0);
  if (!weights.length || sumW <= 0 || total <= 0) return weights.map(() => 0);
  const halves = Math.floor(total * 2 + 1e-9);
  const raw = weights.map((w) => (Math.max(0, w) / sumW) * halves);
  const parts = raw.map((r) => Math.floor(r));
  let left = halves - parts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => ({ i, rem: r - Math.floor(r) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const o of order) {
    if (left <= 0) break;
    parts[o.i]! += 1;
    left -= 1;
  }
  const out = parts.map((p) => p / 2);
  const rest = round2(total - halves / 2);
  if (rest > 0) {
    const heaviest = weights.indexOf(Math.max(...weights));
    out[heaviest] = round2(out[heaviest]! + rest);
  }
  return out;
}

/** Criteria of a template scaled to a question worth `marks`. */
export function criteriaFromTemplate(t: RubricTemplate, marks: number): Criterion[] {
  const split = splitMarks(t.criteria.map((c) => c.weight), marks);
  return t.criteria.map((c, i) => ({ title: c.title, maxMarks: split[i]!, description: c.description ?? '' }));
}

/** Re-scales existing criteria to a new total, keeping their proportions. */
export function rescaleCriteria(criteria: Criterion[], marks: number): Criterion[] {
  const split = splitMarks(criteria.map((c) => c.maxMarks || 1), marks);
  return criteria.map((c, i) => ({ ...c, maxMarks: split[i]! }));
}

/** Sum of criteria marks, rounded to hundredths. */
export function criteriaTotal(criteria: Criterion[]): number {
  return round2(criteria.reduce((a, c) => a + (Number(c.maxMarks) || 0), 0));
}
