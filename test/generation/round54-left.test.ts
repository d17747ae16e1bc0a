/**
 * What round 54's judge asked to be edited and the round's mends left (docs/decisions.md,
 * "Round 54's left faults"): the slide's "heating coal strongly in ABSENCE of air" became "… is
 * the heating coal strongly in ABSENCE of air" (an article before a verb's -ing form with its
 * object, and the slide's emphasis kept), and the notes' "(to be demonstrated on the board)" was
 * kept in a statement.
 */
import { describe, expect, it } from 'vitest';
import { lowerEmphasis, writtenOut } from '../../src/core/generation/engine/shorthand.js';
import { withoutExampleAside } from '../../src/core/generation/engine/trims.js';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

describe('a word a slide sets in capitals for emphasis', () => {
  it('is written in lower case when it is a common word', () => {
    expect(lowerEmphasis('- Destructive distillation of coal = heating coal strongly in ABSENCE of air', kindOf)).toBe('- Destructive distillation of coal = heating coal strongly in absence of air');
    expect(lowerEmphasis('ALWAYS wash your hands before eating food', kindOf)).toBe('Always wash your hands before eating food');
  });

  it('is lowered only from the list of words of emphasis without a lexicon', () => {
    expect(lowerEmphasis('heating coal strongly in ABSENCE of air, ONLY in a kiln')).toBe('heating coal strongly in ABSENCE of air, only in a kiln');
  });

  it('stays when it is an acronym, a name, a title in capitals or a plural the lexicon knows by its singular', () => {
    for (const line of ['The INEC conducts elections and WAEC sets the papers', 'Energy is stored as ATP in the cells of DNA', 'AMORPHOUS CARBON (2) – COKE, SOOT, GAS CARBON', 'People living with AIDS need drugs every day']) {
      expect(lowerEmphasis(line, kindOf)).toBe(line);
    }
  });

  it('is lowered in the passages the generator reads, which keep their other words', () => {
    const [p] = writtenOut(textToParagraphPassages('Charcoal is made by heating wood in ABSENCE of air in a kiln.'), kindOf);
    expect(p!.text).toBe('Charcoal is made by heating wood in absence of air in a kiln.');
  });
});

describe('a slide definition that opens with a verb and its object', () => {
  it('takes no article', () => {
    const s = equalsBullet('Destructive distillation of coal = heating coal strongly in absence of air', 'Destructive distillation of coal = heating coal strongly in absence of air');
    expect(s).toBe('Destructive distillation of coal is heating coal strongly in absence of air.');
  });

  it('still takes one before a noun', () => {
    const s = equalsBullet('Barter = direct exchange of goods and services without money', 'Barter = direct exchange of goods and services without money');
    expect(s).toBe('Barter is the direct exchange of goods and services without money.');
  });
});

describe("a direction to the teacher or the class in brackets", () => {
  it('is dropped from a statement', () => {
    expect(withoutExampleAside('The mode can also be estimated from a histogram by drawing two crossing lines on the tallest bar (to be demonstrated on the board).')).toBe('The mode can also be estimated from a histogram by drawing two crossing lines on the tallest bar.');
    expect(withoutExampleAside('The heart has four chambers (see diagram on page 12).')).toBe('The heart has four chambers.');
    expect(withoutExampleAside('The median lies in the class with cumulative frequency 20 (students to verify).')).toBe('The median lies in the class with cumulative frequency 20.');
  });

  it('stays when the bracket names or explains', () => {
    for (const s of ['The upper and lower limits (class boundaries) are used in the formula.', 'The pituitary secretes antidiuretic hormone (ADH).']) expect(withoutExampleAside(s)).toBe(s);
  });
});
