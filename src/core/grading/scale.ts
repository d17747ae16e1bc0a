/**
 * The WAEC/NECO grade scale (docs/api-overview.md, "POST /attempts/:id/submit"; the 40–59 band from
 * docs/design.md §7, as WAEC publishes it): ≥75 A1, ≥70 B2, ≥65 B3, ≥60 C4, ≥55 C5, ≥50 C6,
 * ≥45 D7, ≥40 E8, else F9. Percentages are compared after rounding to two decimals.
 */
const BANDS: readonly (readonly [number, string])[] = [
  [75, 'A1'],
  [70, 'B2'],
  [65, 'B3'],
  [60, 'C4'],
  [55, 'C5'],
  [50, 'C6'],
  [45, 'D7'],
  [40, 'E8'],
];

/** Grade for a percentage in [0, 100]. */
export function gradeFor(percentage: number): string {
  for (const [min, grade] of BANDS) if (percentage >= min) return grade;
  return 'F9';
}

/** score / maxScore × 100 rounded to two decimals; 0 when maxScore is 0. */
export function percentageOf(score: number, maxScore: number): number {
  if (maxScore <= 0) return 0;
  return Math.round((score / maxScore) * 100 * 100) / 100;
}
