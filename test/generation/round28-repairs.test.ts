/**
 * Round 28's faults (issue 39 §2; docs/quality.md, "Round 28"), mended where they are made, on
 * hand-written text: a chemistry glossary written with small articles ("Electrolyte – a compound
 * which …") gave no definition, and a slide's "Allele = alternative form of a gene, e.g. T & t"
 * was refused for its example. docs/decisions.md, "Round 28: glossary lines with a small article,
 * slide definitions with an example".
 */
import { describe, expect, it } from 'vitest';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';

const material = 'An electrolyte conducts electricity. Electrodes dip into it. An allele is a form of a gene.';

describe('a glossary line whose article is written small', () => {
  it('is the definition it stands for, of one thing or of many', () => {
    expect(dashDefinition('Electrolyte – a compound which, in the molten state or in aqueous solution, conducts electricity and is decomposed by it.', material)).toBe(
      'The electrolyte is a compound which, in the molten state or in aqueous solution, conducts electricity and is decomposed by it.',
    );
    expect(dashDefinition('Electrodes – the rods or plates through which current enters and leaves the electrolyte.', material)).toBe('The electrodes are the rods or plates through which current enters and leaves the electrolyte.');
  });

  it('a note whose text after the dash is a sentence of its own is no definition, whatever its article', () => {
    expect(dashDefinition('Concentration of the ions – a more concentrated ion may be discharged in preference to one lower in the series.', material)).toBeNull();
    expect(dashDefinition('Concentration of the ions – A more concentrated ion may be discharged in preference to one lower in the series.', material)).toBeNull();
  });

  it('two things joined by "and" and described as one are a factor in a list, not a term', () => {
    expect(dashDefinition('Safety and security – the risk of accidents, theft or damage.', material)).toBeNull();
  });
});

describe('a slide definition with an example after it', () => {
  it('drops the example and keeps the definition', () => {
    expect(equalsBullet('Allele = alternative form of a gene, e.g. T (tall) & t (dwarf)', material)).toBe('Allele is the alternative form of a gene.');
  });

  it("an abbreviation's expansion is no definition", () => {
    expect(equalsBullet('SS = sickle cell anaemia', material)).toBeNull();
    expect(equalsBullet('DNA = deoxyribonucleic acid found in the nucleus', material)).toBeNull();
  });
});
