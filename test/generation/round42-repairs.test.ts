/**
 * Round 42 (docs/quality.md): one of its unusable items, refused where it was made. Hand-written
 * steps in the manner of the round's mathematics notes (none copied from the set): "Both of these
 * statements are correct. 1. Add (half the coefficient of x)² to both sides. 2. Steps: 1. Make the
 * coefficient of x² equal to 1 …" paired two steps of a method. A step that opens with its verb
 * and a bracket is an instruction, as one with an article after its verb already was, and a
 * numbered list's label with its first step ("Steps: 1. …", round 40's notes had one too) is a
 * heading run into the sentence (docs/decisions.md, "Round 40: a law's label, a list run on, a
 * participle with no subject, the lesson's own talk").
 */
import { describe, expect, it } from 'vitest';
import { rejectReason } from '../../src/core/generation/engine/sentences.js';

describe('round 42', () => {
  it("refuses a method's step and a list's label run into its first step", () => {
    expect(rejectReason('Add (half the coefficient of x)² to both sides of the equation.', false)).toBe('a procedure step (an instruction)');
    expect(rejectReason('Steps: 1. Make the coefficient of x² equal to 1 (divide through by a).', false)).toBe('a heading run into the sentence');
    // a statement with a bracket after its subject is none of these
    expect(rejectReason('Roots (solutions) of a quadratic equation are the values of x that satisfy it.', false)).toBeNull();
  });
});
