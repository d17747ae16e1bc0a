/**
 * The frozen hold-out pastes of issue 21 (test/fixtures/imports/pasted/holdout-*.txt),
 * scored by scripts/pasted-quality.ts, which also writes docs/quality.md. The pastes and
 * their expected reading were committed before the reader was written and are never
 * changed; the figures asserted here are the ones docs/quality.md reports.
 */
import { describe, expect, it } from 'vitest';
import { scoreHoldOut } from '../../scripts/pasted-quality.js';
import { parseQuestionBank } from '../../src/core/formats/detect.js';
import { expectCleanPrompts, pasted } from './pasted-helpers.js';

describe('pasted papers: hold-out', () => {
  it('both hold-out pastes are detected as pasted papers and come in right in every field (20 of 20)', async () => {
    const scores = await scoreHoldOut();
    expect(scores.map((s) => s.format)).toEqual(['pasted-paper', 'pasted-paper']);
    expect(scores.map((s) => s.wrong)).toEqual([[], []]);
    expect(scores.reduce((a, s) => a + s.right, 0)).toBe(20);
  });

  it('no hold-out prompt holds numbering, an answer line or another question\'s solution', () => {
    for (const f of ['holdout-1-utme-chemistry-web.txt', 'holdout-2-waec-maths-word.txt']) {
      expectCleanPrompts(parseQuestionBank(pasted(f)).result);
    }
  });
});
