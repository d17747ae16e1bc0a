/**
 * Round 39 (docs/quality.md): its two unusable items, refused where they were made. Hand-written
 * glossary lines in the manner of the round's chemistry notes (none copied from the set):
 * - "Concentration of the ions – an ion which is present in very high concentration may be
 *   discharged …" became "The concentration of the ions is an ion which … may be discharged …":
 *   the description is a sentence whose subject has a relative clause, and only the verbs before
 *   the relative word were looked at. A second verb after the relative clause's own now makes it
 *   no noun phrase (src/core/generation/engine/noun-phrases.ts);
 * - "Cations – the lower the metal in the series, the more easily its ion is discharged:" became
 *   "The cations are the lower the metal …": a rule of "the more …, the more …", and a lead-in to
 *   what follows, are no description (docs/decisions.md, "Round 39: a sentence is no description").
 */
import { describe, expect, it } from 'vitest';
import { isNounPhrase } from '../../src/core/generation/engine/noun-phrases.js';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';

describe('round 39', () => {
  it('reads a subject with its relative clause and a verb after it as no noun phrase', () => {
    expect(isNounPhrase('ion which is present in very high concentration may be discharged first')).toBe(false);
    expect(dashDefinition('Concentration of the ions – an ion which is present in very high concentration may be discharged first.', 'the ions')).toBeNull();
    // verbs joined by "and", and an infinitive, are the relative clause's own
    expect(isNounPhrase('compound which, in molten form, conducts electricity and is decomposed by it')).toBe(true);
    expect(dashDefinition('Electrolyte – a compound which conducts electricity and is decomposed by it.', 'the electrolyte')).toBe('The electrolyte is a compound which conducts electricity and is decomposed by it.');
    expect(isNounPhrase('substance which is used to make soap')).toBe(true);
  });

  it('takes no rule of "the more …, the more …" nor a lead-in for a description', () => {
    expect(dashDefinition('Cations – the lower the metal in the series, the more easily its ion is discharged:', 'the cations')).toBeNull();
    expect(dashDefinition('Anions – the ions listed below are discharged in this order:', 'the anions')).toBeNull();
  });
});
