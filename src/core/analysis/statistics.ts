/**
 * Classical test theory statistics, as examination boards and Moodle's quiz
 * statistics report them. Pure functions over numbers; every variance is the
 * population variance (divide by N), the convention of the KR-20 formula.
 *
 * Sources: Kelley (1939) for the upper/lower 27% groups; Kuder & Richardson (1937)
 * formula 20; Moodle Docs "Quiz statistics calculations" (facility index,
 * discrimination index, corrected item–rest correlation).
 */

/** Arithmetic mean; NaN for an empty list. */
export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

/** Population variance (Σ(x − mean)² / N); NaN for an empty list. */
export function variance(xs: number[]): number {
  const m = mean(xs);
  return xs.length ? xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length : Number.NaN;
}

/** Population standard deviation. */
export function standardDeviation(xs: number[]): number {
  return Math.sqrt(variance(xs));
}

/** Pearson correlation of two equal-length lists; null when either has zero variance. */
export function pearson(xs: number[], ys: number[]): number | null {
  if (xs.length !== ys.length || xs.length < 2) return null;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // relative tolerance: sums of squares of identical values are 0 up to rounding
  if (sxx <= 1e-12 * Math.max(1, mx * mx) || syy <= 1e-12 * Math.max(1, my * my)) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * Facility index: the mean score on the item as a share of its marks (0–1); for a
 * one-mark item, the share of candidates who got it right. null without candidates.
 */
export function facilityIndex(itemScores: number[], marks: number): number | null {
  return itemScores.length && marks > 0 ? mean(itemScores) / marks : null;
}

/**
 * Upper and lower groups (Kelley's 27%): candidates sorted by total score, highest
 * first; each group holds round(0.27 × N) candidates (at least 1). Ties at a group
 * boundary are broken by the order of the input (attempt start order), so the result
 * is deterministic. null when there are fewer than 2 candidates.
 * @returns candidate indices of each group
 */
export function upperLowerGroups(totals: number[], fraction = 0.27): { upper: number[]; lower: number[]; size: number } | null {
  if (totals.length < 2) return null;
  const size = Math.max(1, Math.round(fraction * totals.length));
  const order = totals.map((t, i) => ({ t, i })).sort((a, b) => b.t - a.t || a.i - b.i);
  return { upper: order.slice(0, size).map((o) => o.i), lower: order.slice(-size).map((o) => o.i), size };
}

/**
 * Discrimination index D = (mean item score of the upper group − that of the lower
 * group) / marks, from −1 to 1. For one-mark items: p(upper) − p(lower).
 */
export function discriminationIndex(itemScores: number[], marks: number, groups: { upper: number[]; lower: number[] } | null): number | null {
  if (!groups || marks <= 0) return null;
  const pick = (idx: number[]) => mean(idx.map((i) => itemScores[i]!));
  return (pick(groups.upper) - pick(groups.lower)) / marks;
}

/**
 * Point-biserial correlation, CORRECTED: the Pearson correlation between the item
 * score and the rest score (the candidate's total minus this item), so the item does
 * not correlate with itself. For 0/1 items this is the point-biserial r_pbis. null
 * when the item or the rest score does not vary.
 */
export function pointBiserial(itemScores: number[], totals: number[]): number | null {
  return pearson(
    itemScores,
    totals.map((t, i) => t - itemScores[i]!),
  );
}

/**
 * KR-20 reliability: k/(k−1) × (1 − Σ σᵢ² / σ²), with σᵢ² the variance of item i's
 * scores (p·q for 0/1 items) and σ² the variance of total scores. For items worth
 * more than one mark this is Cronbach's alpha, which KR-20 is the 0/1 case of.
 * null with fewer than 2 items or when totals do not vary.
 * @param itemScoresByItem one array of candidate scores per item
 */
export function kr20(itemScoresByItem: number[][], totals: number[]): number | null {
  const k = itemScoresByItem.length;
  const total = variance(totals);
  if (k < 2 || !(total > 1e-12)) return null;
  const sumItem = itemScoresByItem.reduce((a, s) => a + variance(s), 0);
  return (k / (k - 1)) * (1 - sumItem / total);
}
