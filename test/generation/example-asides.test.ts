/**
 * Rounds 30 and 32 (docs/quality.md): the judge rated two true/false items down only because they
 * kept the teacher's bracketed example, "(e.g. adire and tie-dye works in Abeokuta)". An example in
 * brackets is dropped from a statement; a bracket that names or explains stays
 * (src/core/generation/engine/trims.ts; docs/decisions.md, "An example in brackets is no part of a
 * statement"). Hand-written notes in the manner of a chemistry and a biology lesson.
 */
import { describe, expect, it } from 'vitest';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { withoutExampleAside } from '../../src/core/generation/engine/trims.js';
import type { Passage } from '../../src/core/generation/passage.js';

describe('an example in brackets', () => {
  it('is dropped whichever way it opens', () => {
    expect(withoutExampleAside('Some viruses (e.g. HIV) can cross the placenta.')).toBe('Some viruses can cross the placenta.');
    expect(withoutExampleAside('Dyeing works (eg. adire works in Abeokuta) need soft water.')).toBe('Dyeing works need soft water.');
    expect(withoutExampleAside('Hard water wastes soap (for example, in laundries) because it forms scum.')).toBe('Hard water wastes soap because it forms scum.');
    expect(withoutExampleAside('Strong acids (such as hydrochloric acid) ionise completely in water.')).toBe('Strong acids ionise completely in water.');
    expect(withoutExampleAside('Fuels (e.g., kerosene, gas) burn in air; metals (for instance iron) rust.')).toBe('Fuels burn in air; metals rust.');
  });

  it('is kept when the bracket names, explains or gives a formula', () => {
    for (const s of [
      'The pituitary gland releases antidiuretic hormone (ADH).',
      'The uterus (womb) is a thick, muscular organ.',
      'Water dissolves gypsum (CaSO₄) slowly.',
      'The female gamete is the ovum (egg).',
      'The area under the curve (i.e. the distance) is found by counting squares.',
    ]) expect(withoutExampleAside(s)).toBe(s);
  });

  it('leaves the sentences a material gives, so no item carries it', () => {
    const notes: Passage[] = [
      { citation: 'paragraph 1', text: 'HARDNESS OF WATER' },
      { citation: 'paragraph 2', text: 'Hard water is needed by some industries (e.g. adire and tie-dye works in Abeokuta) because the dye takes better in it.' },
      { citation: 'paragraph 3', text: 'Temporary hardness is caused by dissolved calcium hydrogencarbonate (Ca(HCO₃)₂).' },
    ];
    const texts = indexMaterial(notes).sentences.map((s) => s.text);
    expect(texts).toContain('Hard water is needed by some industries because the dye takes better in it.');
    expect(texts.join(' ')).not.toMatch(/e\.g\./);
    expect(texts).toContain('Temporary hardness is caused by dissolved calcium hydrogencarbonate (Ca(HCO₃)₂).');
  });
});
