/**
 * Issue 39 §2: faults round 11's judge named (docs/quality-generation-ratings.md, "Round 11"),
 * refused where they are made. Hand-written material (none from a hold-out set):
 * - a change and its reverse in a comparison: "Gases expand much more than liquids" made
 *   "Gases contract much more than liquids" is still true (for a fall in temperature), so
 *   the False key was wrong;
 * - "The opposite effect, …" does not say opposite of what;
 * - noticed in the development run after it (holdout-9's slides, not judged): a slide line whose
 *   description is a bare list ("Fuel: coal, petroleum from …") made "Fuel is coal, petroleum …".
 */
import { describe, expect, it } from 'vitest';
import { antonymSwap } from '../../src/core/generation/engine/falsehood.js';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

describe('no reversal of a change inside a comparison', () => {
  it('makes no false form of "Liquids expand much more than solids …" nor of a word beside a comparison; still swaps in a plain statement', () => {
    expect(antonymSwap('Liquids expand much more than solids for the same rise in temperature.', kindOf)).toBeNull();
    expect(antonymSwap('Air in a car tyre expands faster than the rubber around it on a hot road.', kindOf)).toBeNull();
    expect(antonymSwap('Heating a metal rod increases its length by a small amount.', kindOf)?.replacement).toBe('large');
  });
});

describe('a subject that needs its "of what"', () => {
  it('refuses "The opposite effect, …"', () => {
    expect(rejectReason('The opposite effect, the decrease in size when a substance cools, is called contraction.', false)).toBe('does not name what it is about');
  });
});

describe('a "Label: item, item" slide line is a list, not a definition', () => {
  it('makes no "X is a, b …" statement of a list; still states a definition whose comma opens a clause', () => {
    const usable = indexMaterial([{ text: 'Uses of Minerals\n- Fuel: coal, petroleum and natural gas from the Niger Delta\n- Building: granite, marble, limestone for cement\n- Taxes: charges levied by the government on income, goods and services\n- Cement: a grey powder, made from limestone and clay, that sets hard with water', citation: 'slide 1' }]).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable.some((s) => /^(?:Fuel|Building) (?:is|are) /.test(s)), usable.join(' | ')).toBe(false);
    expect(usable).toContain('Taxes are charges levied by the government on income, goods and services.');
    expect(usable).toContain('Cement is a grey powder, made from limestone and clay, that sets hard with water.');
  });
});
