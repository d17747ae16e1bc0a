/**
 * Round 29's faults (issue 39 §2; docs/quality.md, "Round 29"), mended where they are made, on
 * hand-written slide lines: a commerce deck's "=" definitions gave nothing (the deck gave no item
 * at all), because a relative clause's own verb ("where goods are stored") and a word before "of"
 * that the tagger reads as a verb ("act of storing") refused them. docs/decisions.md, "Round 29".
 */
import { describe, expect, it } from 'vitest';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { isSpokenStatement } from '../../src/core/generation/engine/spoken.js';

describe("a slide's '=' definition", () => {
  it('may hold a relative clause with its own verb and pronoun', () => {
    expect(equalsBullet('Warehouse = building / place where goods are stored until they are needed', '')).toBe('Warehouse is the building or place where goods are stored until they are needed.');
  });

  it('may open with a noun the tagger reads as a verb, before "of"', () => {
    expect(equalsBullet('Warehousing = act of storing goods in a warehouse until needed for sale or use', '')).toBe('Warehousing is the act of storing goods in a warehouse until needed for sale or use.');
  });

  it('drops a bracketed aside in shorthand, and refuses shorthand elsewhere', () => {
    expect(equalsBullet('Warehousing = act of storing goods (in large qty) in a warehouse until needed for sale or use', '')).toBe('Warehousing is the act of storing goods in a warehouse until needed for sale or use.');
    expect(equalsBullet('Catalyst = substance that alters rate of rxn but remains chemically unchanged at end', '')).toBeNull();
    expect(equalsBullet('Material fact = info that affects the decision to accept a risk', '')).toBeNull();
  });

  it('still refuses a verb of its own before any relative word', () => {
    expect(equalsBullet('Wholesaler = buys goods in bulk from producers', '')).toBeNull();
  });
});

describe('a spoken clause with "being" in it', () => {
  it('"being" is no finite verb: a clause with "human being" and "being human" is one statement', () => {
    expect(isSpokenStatement('human rights are the rights which every human being is entitled to by virtue of being human')).toBe(true);
    // (two finite verbs with nothing between them are still two sentences run together)
    expect(isSpokenStatement('the container is rigid the volume cannot change')).toBe(false);
  });
});
