/**
 * Issue 39 §2: faults round 15's judge named (docs/quality-generation-ratings.md, "Round 15"),
 * refused where they are made. Hand-written material (none from a hold-out set):
 * - a definition put in place of a term that has a phrase of its own ("Soil from rocks rich in
 *   minerals is usually fertile" made "… where plants grow from rocks rich in minerals is …");
 * - a slide's shorthand "Group O: no antigens, anti-A & anti-B antibodies" made "Group O is no
 *   antigens, …"; and, seen in the development run after these, "Prevention: anti-D injection …"
 *   made "Prevention is anti-D injection …" (prevention of what?).
 */
import { describe, expect, it } from 'vitest';
import { findBridge } from '../../src/core/generation/engine/bridge.js';
import { FactFinder } from '../../src/core/generation/engine/facts.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

describe('round 15', () => {
  it('puts a definition only where the term is the whole subject', () => {
    const passages: Passage[] = [
      { text: 'Soil is the uppermost layer of the earth where plants grow and find their nutrients.', citation: 'paragraph 1' },
      { text: 'Soil from rocks rich in minerals is usually fertile and good for farming.', citation: 'paragraph 2' },
      { text: 'Erosion removes the fertile top layer of the farmland during heavy rains.', citation: 'paragraph 3' },
    ];
    const b = findBridge(new FactFinder(indexMaterial(passages), 1, kindOf), 0, 0);
    expect(b?.text ?? '').not.toMatch(/where plants grow.* from rocks rich in minerals/);
  });

  it('makes no definition of a slide line with "&"', () => {
    const usable = indexMaterial([{ text: 'Blood Groups\n- Group O: no antigens, anti-A & anti-B antibodies\n- Group AB: the universal recipient in a transfusion', citation: 'slide 17' }]).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable.some((s) => /^Group O is/.test(s)), usable.join(' | ')).toBe(false);
  });

  it('makes no "Prevention is …" of a slide line (seen in the development run after these)', () => {
    const usable = indexMaterial([{ text: 'Rhesus Factor\n- Prevention: anti-D injection to the mother soon after delivery\n- Treatment: exchange transfusion of the newborn baby', citation: 'slide 18' }]).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable.some((s) => /^(?:Prevention|Treatment) is/.test(s)), usable.join(' | ')).toBe(false);
  });
});
