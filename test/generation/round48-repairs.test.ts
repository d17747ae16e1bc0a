/**
 * Round 48's repair (docs/decisions.md, "Round 48: a contrast drawn in two ways"): the notes set "Small, general
 * donations are income" against "A large donation for a special purpose goes to a special fund", and the engine turned
 * "large" into "small" in the second, keyed False. The material never says where a small donation for a special
 * purpose goes (in practice a special fund, whatever its size): a wrong key.
 */
import { describe, expect, it } from 'vitest';
import { twoWayContrast } from '../../src/core/generation/engine/falsehood.js';

const material = 'donations — small, general donations are income. a large donation for a special purpose (e.g. "building fund") goes to a special fund in the statement of financial position.';
const swap = (text: string, original: string, replacement: string) => {
  const start = text.indexOf(original);
  return { start, end: start + original.length, original, replacement };
};

describe('round 48: a contrast the material draws in two ways at once', () => {
  it('is not crossed on one of its ways: "a large donation for a special purpose" does not become "a small donation …"', () => {
    const text = 'A large donation for a special purpose goes to a special fund in the Statement of Financial Position.';
    expect(twoWayContrast(text, swap(text, 'large', 'small'), material)).toBe(true);
  });

  it('a statement that carries the other qualifier too, or a contrast drawn one way, may still be turned', () => {
    const both = 'A large, general donation is income.';
    expect(twoWayContrast(both, swap(both, 'large', 'small'), material)).toBe(false);
    const ions = 'Positive ions are called cations.';
    expect(twoWayContrast(ions, swap(ions, 'Positive', 'negative'), 'positive ions are called cations. negative ions are called anions.')).toBe(false);
    // (a noun before the noun names one thing, no second quality: "higher water concentration")
    const sap = 'A hypotonic solution has a lower concentration of solute than the cell sap.';
    expect(twoWayContrast(sap, swap(sap, 'lower', 'higher'), 'water moves from a region of higher water concentration to a region of lower water concentration.')).toBe(false);
    const farms = 'Large farms use tractors.';
    expect(twoWayContrast(farms, swap(farms, 'Large', 'small'), 'large farms use tractors. small farms use hoes and cutlasses.')).toBe(false);
  });
});
