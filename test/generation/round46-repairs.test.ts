/**
 * Round 46 (docs/quality.md): its one faulty false statement, mended where it was made. A figure
 * in brackets a few words after a word of degree says which degree is true ("only a small
 * fraction of the sunlight falling on them (about 1%)"): turned, the statement contradicts
 * itself and gives its key away, so the word is not turned (docs/decisions.md, "Round 46: a
 * figure a few words on"). Hand-written sentences, none copied from the set.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { antonymSwap } from '../../src/core/generation/engine/falsehood.js';
import { closeWordNet, kindOf as lexicon } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

describe('round 46', () => {
  it('does not turn a degree that a figure in brackets a few words on gives', () => {
    expect(antonymSwap('Only a small share of the rain falling on the forest floor (about 5%) reaches the river.', lexicon)).toBeNull();
    expect(antonymSwap('A large proportion of the workers in the village (over 70%) are farmers.', lexicon)).toBeNull();
  });

  it('still turns a degree with no figure to say which', () => {
    expect(antonymSwap('Only a small share of the rain falling on the forest floor reaches the river.', lexicon)?.original).toBe('small');
  });
});
