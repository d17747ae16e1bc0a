/**
 * Issue 39 §2: the two wrong keys of round 16 (docs/quality-generation-ratings.md, "Round 16"),
 * refused where they are made. Hand-written material (none from a hold-out set):
 * - "The oil is less dense than water" made "… than salt" and keyed False: a comparison holds of
 *   more than the thing it names;
 * - "… a heavy insoluble solid from a liquid" made "… from a solution" and keyed False: a solid
 *   is decanted from a solution too; two everyday words of many senses are no believable swap
 *   (round 16 item 13, "Salt boils at 100 degrees celsius", was the same kind, and silly).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FactFinder } from '../../src/core/generation/engine/facts.js';
import { siblingSwap } from '../../src/core/generation/engine/falsehood.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { definitionBullet } from '../../src/core/generation/engine/repair.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

const text = [
  'Palm oil is less dense than water, so it floats on top of the water in the pot.',
  'Salt and water are separated by evaporation, and the salt is left in the dish.',
  'Decantation is used to separate a heavy insoluble solid from a liquid in a beaker.',
  'A solution of salt in water and a liquid such as kerosene are both clear.',
  'Urea and glucose are carried in the blood plasma to the kidney and the liver.',
  'Nitrogen and phosphorus are nutrients that plants take from the soil.',
  'Nitrogen promotes the growth of leaves and gives them a dark green colour.',
  'The oil is less dense than water so it floats on top.',
  'Water boils at one hundred degrees celsius at sea level.',
];

describe('round 16: no swap that leaves the statement true', () => {
  it('swaps nothing in a comparison, nor one everyday word for another', () => {
    const index = indexMaterial(text.map((t, i) => ({ text: t, citation: `paragraph ${i + 1}` })));
    const finder = new FactFinder(index, 1, kindOf);
    const swaps = index.sentences.filter((s) => s.usable).map((s) => siblingSwap(s, finder.spans(s), finder.pool, index.sentences, 1, kindOf, () => true));
    const said = swaps.filter(Boolean).map((f) => `${f!.original} → ${f!.replacement}`);
    expect(said.some((x) => /water → salt|salt → water/.test(x)), said.join(' | ')).toBe(false);
    expect(said.some((x) => /liquid → solution|solution → liquid/.test(x)), said.join(' | ')).toBe(false);
  });
});

describe('a slide list with brackets in its items', () => {
  it('is no definition (seen in round 16, item 4: "Accounts are current (cheques), savings (interest), …")', () => {
    expect(definitionBullet('Accounts: current (cheques), savings (interest), fixed deposit (higher interest, fixed period)', '')).toBeNull();
    expect(definitionBullet('Current account: a bank account operated by cheques', '')).toBe('Current account is a bank account operated by cheques.');
  });
});

describe('round 17', () => {
  it('makes no definition of a slide line whose label is a preposition\'s phrase ("During war: trading … with the enemy")', () => {
    expect(definitionBullet('During war: trading or communicating unlawfully with the enemy', '')).toBeNull();
  });
});
