/**
 * Round 36 (docs/quality.md): read after the round, in its development run rather than from the
 * judge (the judge saw two usable items). The drug abuse deck's "**1. Stimulants** → speed up the
 * brain & body" became "Stimulants are speed up the brain and body.": the arrow was read as
 * naming a role because the phrase ends on "body", one of the role nouns. A verb with its
 * particle opening the description is what the thing does, not a role (src/core/generation/engine/
 * arrow-definitions.ts; docs/decisions.md, "An arrow before a noun phrase defines").
 * And from the judge: "Drug is any substance …" lacked its article. A term described as "any"
 * thing is one of a kind and takes "a" (src/core/generation/engine/repair.ts, `definitionBullet`;
 * docs/decisions.md, "A term described as 'any' thing takes 'a'").
 */
import { describe, expect, it } from 'vitest';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';

describe('round 36', () => {
  it('reads no role into a verb and its particle before an arrow', () => {
    expect(equalsBullet('Stimulants → speed up the brain & body ("uppers")', '')).toBeNull();
    expect(equalsBullet('Depressants → slow down the brain and the nervous body', '')).toBeNull();
    // a role is still a role
    expect(equalsBullet('Ma\'aji → treasurer of the emirate', '')).toBe('Ma\'aji is the treasurer of the emirate.');
    const slide = { citation: 'slide 9', text: '## CLASSES OF DRUGS\n**1. Stimulants** → speed up the brain & body ("uppers")\n- cocaine, amphetamine, nicotine' };
    expect(indexMaterial([slide]).sentences.filter((s) => s.reason === null).map((s) => s.text)).toEqual([]);
  });

  it('gives a term described as "any" thing its article, not a process or a name', () => {
    const deck = 'Drugs are good when used correctly. A drug is taken by mouth or by injection. Advertising is everywhere.';
    expect(equalsBullet('Drug = any substance which changes the way the body or mind works', deck)).toBe('A drug is any substance which changes the way the body or mind works.');
    expect(equalsBullet('Advertising = any paid form of non-personal presentation of goods by an identified sponsor', deck)).toBe('Advertising is any paid form of non-personal presentation of goods by an identified sponsor.');
    expect(equalsBullet('Premium = amount paid for the cover', deck)).toBe('Premium is the amount paid for the cover.');
  });
});
