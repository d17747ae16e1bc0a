/**
 * Round 61's mends (docs/decisions.md, "Round 61: a likeness turned, a rule's label"). Its
 * control-accounts notes' "The SLCA is prepared exactly like one big debtor's account" was turned
 * to "one small debtor's account" and keyed False, twice (for the PLCA too): a figure of speech,
 * as true with the other word (two wrong keys). Its map-scale deck's "Rule: change the ground
 * distance to the SAME unit as the map distance" became "Rule is the change the ground distance …".
 */
import { describe, expect, it } from 'vitest';
import { antonymSwap } from '../../src/core/generation/engine/falsehood.js';
import { definitionBullet } from '../../src/core/generation/engine/repair.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

describe('a likeness', () => {
  it('is not turned into a false statement', () => {
    expect(antonymSwap("The SLCA is prepared exactly like one big debtor's account.", kindOf)).toBeNull();
    expect(antonymSwap('The heart works as if it were a small pump for the whole body.', kindOf)).toBeNull();
  });

  it('while the same word outside one still is', () => {
    expect(antonymSwap('The sales ledger of a big company holds many debtors\' accounts.', kindOf)?.replacement).toBe('small');
  });
});

describe("a rule's label", () => {
  it('is no term to define', () => {
    expect(definitionBullet('Rule: change the ground distance to the SAME unit as the map distance', 'rule')).toBeNull();
    expect(definitionBullet('Hint: divide the map distance by the scale', 'hint')).toBeNull();
  });
});
