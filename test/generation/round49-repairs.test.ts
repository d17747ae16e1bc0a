/**
 * Round 49's mends outside the tables (docs/decisions.md, "Round 49: …"): a numbered factor written
 * "Temperature – The solubility of a gas in water decreases as temperature increases" is a factor and
 * what it does, not a definition; the engine offered "Temperature is the solubility of a gas in water
 * decreases as temperature increases" (judged B: "garbled stem"). The tagger takes "decreases" for a
 * plural noun, so the description passed for a noun phrase.
 */
import { describe, expect, it } from 'vitest';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';
import { isNounPhrase } from '../../src/core/generation/engine/noun-phrases.js';

describe('a factor and what it changes', () => {
  it('is no definition: a verb of change before "as", "when" or "if" makes the description a clause', () => {
    expect(dashDefinition('Temperature – The solubility of a gas in water decreases as temperature increases.', 'temperature')).toBeNull();
    expect(dashDefinition("Pressure – The solubility of a gas increases as the pressure of the gas increases (Henry's law).", 'pressure')).toBeNull();
    expect(isNounPhrase('rate of reaction rises when the temperature rises')).toBe(false);
  });

  it('while a glossary line stays a definition', () => {
    expect(dashDefinition('Solubility – The maximum amount of a substance that dissolves in 1 dm³ of solvent at a given temperature.', 'solubility')).toBe('Solubility is the maximum amount of a substance that dissolves in 1 dm³ of solvent at a given temperature.');
    expect(isNounPhrase('maximum amount of a substance that dissolves in a solvent')).toBe(true);
  });
});
