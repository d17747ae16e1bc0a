/**
 * Round 54's mends (docs/decisions.md, "Round 54: …"). Its carbon deck's table of salts and the
 * effect of heat on each gave three MCQs answered by matching symbols ("the effect of heat of
 * CuCO₃?", the key the only option with Cu in it), and its economics captions cut "scarcity
 * means that the resources available / are limited" after "available", a fragment keyed true (a
 * wrong key). Trying the mends on the development packets showed a wrong key they all had: in a
 * paragraph of bullets, "They are easy to drain" under "Concrete ponds:" was given to the first
 * bullet's "Earthen ponds".
 */
import { describe, expect, it } from 'vitest';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { spokenSentences } from '../../src/core/generation/engine/spoken.js';
import { bulletTopic, subjectFromHeading } from '../../src/core/generation/engine/repair.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

const plan = (md: string, seed = 7) => planTableItems(materialTables(textToParagraphPassages(md)), prng(seed), md, kindOf);
const seeds = (md: string) => Array.from({ length: 10 }, (_, k) => plan(md, k + 1)).flat();

describe('a table whose values write their rows in formulas', () => {
  const heat = [
    'Most trioxocarbonates(IV) decompose on heating, giving the oxide and carbon(IV) oxide.',
    '| Salt | Effect of heat |',
    '|---|---|',
    '| Na₂CO₃, K₂CO₃ | not decomposed |',
    '| CaCO₃ | CaCO₃ → CaO + CO₂ |',
    '| CuCO₃ | green → black CuO + CO₂ |',
    '| ZnCO₃ | ZnO + CO₂ (yellow hot, white cold) |',
    '| (NH₄)₂CO₃ | → 2NH₃ + CO₂ + H₂O (no residue) |',
    '| NaHCO₃ | 2NaHCO₃ → Na₂CO₃ + H₂O + CO₂ |',
  ].join('\n');

  it('asks nothing of that column: its options are matched by symbol', () => {
    expect(seeds(heat)).toEqual([]);
  });

  it('still asks of a column that does not name its rows', () => {
    const colours = ['| Salt | Colour of solid |', '|---|---|', '| CuSO₄ | white |', '| CuSO₄·5H₂O | blue |', '| FeSO₄ | pale green |', '| Fe₂(SO₄)₃ | yellow-brown |', '| KMnO₄ | purple |'].join('\n');
    expect(seeds(colours).length).toBeGreaterThan(0);
  });
});

describe('a caption that opens with its verb', () => {
  it('continues the clause before it', () => {
    const out = spokenSentences(['scarcity means that the resources available', 'are limited', 'write it', 'the mitochondria', 'is the powerhouse of the cell']);
    expect(out).toContain('Scarcity means that the resources available are limited.');
    expect(out).not.toContain('Scarcity means that the resources available.');
    expect(out).toContain('The mitochondria is the powerhouse of the cell.');
  });

  it('is still a question when it asks one', () => {
    const out = spokenSentences(['water boils at one hundred degrees celsius at sea level', 'is there anybody who does not understand']);
    expect(out.some((s) => /anybody/.test(s))).toBe(false);
    expect(out.some((s) => /^Water boils at one hundred degrees celsius at sea level\.$/.test(s))).toBe(true);
  });
});

describe('a pronoun in a paragraph of several labelled bullets', () => {
  const material = 'Types of fish ponds. Earthen ponds are cheap. Concrete ponds are common in towns. Tanks are portable.';
  const para = '- Earthen ponds: dug in the ground in a place with clay soil. Earthen ponds are cheap. - Concrete ponds: built with blocks, cement and iron rods. They are easy to drain and clean but expensive to build. - Tanks: made of plastic or metal. They are portable and suitable for small backyard farms.';

  it('is the last label before it', () => {
    const at = (s: string) => para.indexOf(s);
    const concrete = bulletTopic(para, null, material, at('They are easy to drain'));
    expect(subjectFromHeading('They are easy to drain and clean but expensive to build.', concrete!)).toBe('Concrete ponds are easy to drain and clean but expensive to build.');
    const tanks = bulletTopic(para, null, material, at('They are portable'));
    expect(subjectFromHeading('They are portable and suitable for small backyard farms.', tanks!)).toBe('Tanks are portable and suitable for small backyard farms.');
  });

  it('is the first label when the sentence is in the first bullet', () => {
    expect(bulletTopic(para, null, material, para.indexOf('Earthen ponds are cheap'))?.phrase.toLowerCase()).toBe('earthen ponds');
  });
});
