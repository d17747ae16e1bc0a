/**
 * A monotone (non-decreasing) fit of an examiner's marks to the engine's raw evidence:
 * isotonic regression by pool-adjacent-violators (docs/decisions.md, "Calibrated essay
 * marking learns from the examiner"). Pure.
 */

/** One marked script: the engine's raw evidence `x`, the examiner's mark `y`, a weight `w` (default 1). */
export interface FitPoint {
  x: number;
  y: number;
  w?: number;
}

/** A block of the fit: the pooled points' mean evidence `x`, mean mark `y` and total weight `w`. */
export interface FitBlock {
  x: number;
  y: number;
  w: number;
}

/**
 * Isotonic regression by pool-adjacent-violators: sorts the points by `x` (ties pooled) and
 * pools neighbours whose marks decrease, so the blocks' `y` never decreases with `x`.
 * Returns the blocks in ascending `x`; empty for no points. Weights must be > 0.
 */
export function isotonicBlocks(points: FitPoint[]): FitBlock[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  const blocks: FitBlock[] = [];
  for (const p of sorted) {
    const w = p.w ?? 1;
    const last = blocks[blocks.length - 1];
    // Equal evidence is one observation: pooled at once.
    if (last && last.x === p.x) {
      last.y = (last.y * last.w + p.y * w) / (last.w + w);
      last.w += w;
    } else blocks.push({ x: p.x, y: p.y, w });
    while (blocks.length >= 2 && blocks[blocks.length - 2]!.y > blocks[blocks.length - 1]!.y) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      const w2 = a.w + b.w;
      blocks.push({ x: (a.x * a.w + b.x * b.w) / w2, y: (a.y * a.w + b.y * b.w) / w2, w: w2 });
    }
  }
  return blocks;
}

/**
 * The fitted mark at evidence `x`: linear between the blocks' centres, flat beyond the first
 * and the last (callers add anchor points for the ends of the scale). Non-decreasing in
 * `x`. NaN for no blocks.
 */
export function predictMonotone(blocks: FitBlock[], x: number): number {
  if (!blocks.length) return NaN;
  const first = blocks[0]!;
  const last = blocks[blocks.length - 1]!;
  if (x >= last.x) return last.y;
  if (x <= first.x) return first.y;
  let i = 0;
  while (blocks[i + 1]!.x < x) i++;
  const a = blocks[i]!;
  const b = blocks[i + 1]!;
  return a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
}
