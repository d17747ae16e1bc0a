/**
 * The quality goals of issue 7 on a fast subset of scripts/quality.ts (which measures the
 * full set and writes docs/quality.md): MCQs from the DOCX and PPTX materials, and the
 * essay-grading agreement with the examiner scores of the main essay set.
 */
import { describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { essayFigures, loadEssays, loadMaterials, mcqFigures, spearman, wordErrorRate } from '../../scripts/quality.js';

describe('quality goals (fast subset)', () => {
  it('every MCQ key occurs in its cited passage; no duplicate options', async () => {
    const materials = await loadMaterials({ pdf: false });
    const items = materials.flatMap((m) => generateExtractive(m.passages, { difficulty: 'balanced', count: 15, types: ['MCQ'] }).questions.map((q) => ({ q, passages: m.passages })));
    const f = mcqFigures(items);
    expect(f.total).toBeGreaterThanOrEqual(28);
    expect(f.supported).toBe(f.total);
    expect(f.clean).toBe(f.total);
    expect(f.sameKind / f.total).toBeGreaterThanOrEqual(0.9);
  });

  it('essay recommendations on the old developer-written set (secondary; issue 21 measures on the independent set)', () => {
    const { rho, within, rows } = essayFigures(loadEssays().questions);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    // Issue 7's goal here was ρ ≥ 0.8 (0.89 measured in-sample for hallcbt-rubric-1). Since issue 21 the grader is tuned
    // and measured on the independent examiner's set (test/generation/essay-quality.test.ts); on this set it measures
    // ρ 0.74 and 64.5% within one mark (docs/quality.md, secondary table). Regression guard at the measured level.
    expect(rho).toBeGreaterThanOrEqual(0.7);
    expect(within).toBeGreaterThanOrEqual(0.6);
  });

  it('measures with correct statistics', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1);
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(0.9487, 3);
    expect(wordErrorRate('the price of rice', 'the price and rise')).toBe(0.5);
    expect(wordErrorRate('a b c', 'a b c d')).toBeCloseTo(1 / 3);
  });
});
