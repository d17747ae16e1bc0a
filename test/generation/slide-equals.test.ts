/**
 * A slide's "Term = description" line is a definition (issue 39 §2: slide decks gave about one
 * item each in rounds 12–17): read as "Term: description", its "&" as "and", cut at an arrow,
 * with the article a slide leaves out. A formula, a figure or a second "=" is no definition.
 * Hand-written slides (none from a hold-out set).
 */
import { describe, expect, it } from 'vitest';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';

describe('"Term = description" on a slide', () => {
  it('states the definition, with "and" for "&" and the article the slide left out', () => {
    expect(equalsBullet('Barter = direct exchange of goods & services for other goods & services without money', '')).toBe('Barter is the direct exchange of goods and services for other goods and services without money.');
    expect(equalsBullet('Deflation = persistent fall in the general price level → value of money rises', '')).toBe('Deflation is the persistent fall in the general price level.');
    expect(equalsBullet('Taxes = compulsory payments made by citizens to the government', '')).toBe('Taxes are compulsory payments made by citizens to the government.');
  });

  it('is no definition when it is a formula, a figure, two equations or a note\'s abbreviation', () => {
    for (const line of ['V = IR', 'Nigeria\'s currency = naira; 1 naira = 100 kobo', 'Value of money = purchasing power = quantity of goods a unit can buy', 'Tenure = till retirement at 60 yrs of age', 'Civil service = body of officials that implement govt policy']) {
      expect(equalsBullet(line, ''), line).toBeNull();
    }
  });

  it('gives a usable sentence from a slide', () => {
    const usable = indexMaterial([{ text: 'Evolution of Money\n- Barter = direct exchange of goods & services for other goods & services without money\n- Problems: double coincidence of wants', citation: 'slide 4' }]).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable).toContain('Barter is the direct exchange of goods and services for other goods and services without money.');
  });
});
