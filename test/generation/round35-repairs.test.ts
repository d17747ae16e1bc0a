/**
 * Round 35 (docs/quality.md): faults the blind judge named, refused where they are made.
 * Hand-written material in the manner of the round's chemistry notes (none copied from the set):
 * - a hard item put one definition of a term in place of the term in another of its definitions
 *   ("The addition of oxygen to a substance … is the loss of electrons by an atom or ion"): two
 *   definitions of one thing, each true in its own terms, are not the same thing, and the item
 *   was keyed True (the round's one wrong key; docs/decisions.md, "Two definitions of one term
 *   are not bridged");
 * - a worked example led by a bold label in its own paragraph ("**Worked Example 8:** Acidified
 *   KMnO₄ oxidises iron(II) ions to iron(III) ions.") gave its problem as a statement, label and
 *   all; round 34's "N.B. The acid is in excess, so …" after such an example was its note. The
 *   label now opens the example's scope, which lasts over its working (docs/decisions.md, "A
 *   worked example's label opens its scope");
 * - the round's insurance deck gave one item: its terms are a glossary, "**Premium** → amount paid
 *   for the cover", and an arrow defined only a role ("Waziri → prime minister"). A term set in
 *   bold before its arrow is now defined by what follows, unless the arrow starts a chain
 *   ("Annuity → lump sum paid to insurer → regular income"; docs/decisions.md, "A bold term before
 *   an arrow is a glossary's entry").
 */
import { describe, expect, it } from 'vitest';
import { findBridge } from '../../src/core/generation/engine/bridge.js';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { FactFinder } from '../../src/core/generation/engine/facts.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

describe('round 35', () => {
  it('bridges no definition into another definition of the same term', () => {
    const passages: Passage[] = [
      { text: 'Oxidation is the addition of oxygen to a substance or the removal of hydrogen from a substance.', citation: 'paragraph 1' },
      { text: 'Oxidation is the loss of electrons by an atom or ion in a chemical reaction.', citation: 'paragraph 2' },
    ];
    const b = findBridge(new FactFinder(indexMaterial(passages), 1, kindOf), 0, 0);
    expect(b?.text ?? null).toBeNull();
    const also: Passage[] = [passages[0]!, { text: 'Oxidation is also defined as an increase in the oxidation number of an element.', citation: 'paragraph 2' }];
    expect(findBridge(new FactFinder(indexMaterial(also), 1, kindOf), 0, 0)?.text ?? null).toBeNull();
  });

  it('still bridges a definition into a fact about the term', () => {
    const passages: Passage[] = [
      { text: 'Oxidation is the addition of oxygen to a substance or the removal of hydrogen from a substance.', citation: 'paragraph 1' },
      { text: 'Oxidation always takes place together with reduction in a redox reaction.', citation: 'paragraph 2' },
    ];
    const b = findBridge(new FactFinder(indexMaterial(passages), 1, kindOf), 0, 0);
    expect(b?.text ?? '').toMatch(/^The addition of oxygen .* always takes place together with reduction/);
  });

  it('reads no statement from a worked example led by a label in its paragraph, nor from its working and note', () => {
    const notes: Passage[] = [
      { text: '6. BALANCING SIMPLE REDOX EQUATIONS', citation: 'paragraph 1' },
      { text: 'Half equations are balanced for atoms first and then for charge by adding electrons.', citation: 'paragraph 2' },
      { text: '**Worked Example 8:** Acidified potassium permanganate oxidises iron(II) ions to iron(III) ions.', citation: 'paragraph 3' },
      { text: 'MnO₄⁻ + 8H⁺ + 5Fe²⁺ → Mn²⁺ + 5Fe³⁺ + 4H₂O', citation: 'paragraph 4' },
      { text: 'Solution:', citation: 'paragraph 5' },
      { text: 'N.B. The acid is in excess, so the amount of iron(II) decides how much manganese(II) is formed.', citation: 'paragraph 6' },
      { text: '7. TESTS FOR OXIDISING AGENTS', citation: 'paragraph 7' },
      { text: 'Acidified potassium iodide solution turns brown when an oxidising agent is added to it.', citation: 'paragraph 8' },
      { text: 'Example: the brown colour is iodine, which turns starch solution blue-black.', citation: 'paragraph 9' },
    ];
    const reason = (part: string) => indexMaterial(notes).sentences.find((s) => s.text.includes(part))?.reason;
    expect(reason('Half equations are balanced')).toBeNull();
    expect(reason('Worked Example 8')).toBe('a worked example or an exercise');
    expect(reason('acid is in excess')).toBe('a worked example or an exercise');
    // the next section's heading ends the example; a bare "Example:" leads an illustration of the lesson's facts
    expect(reason('Acidified potassium iodide solution')).toBeNull();
    expect(reason('brown colour is iodine')).not.toBe('a worked example or an exercise');
  });

  it('defines a term set in bold before an arrow, not a chain of arrows', () => {
    const glossary = new Set(['Premium', 'Annuity', 'Claim']);
    expect(equalsBullet('Premium → amount paid for the cover', '', glossary)).toBe('Premium is the amount paid for the cover.');
    // not in bold: an arrow still defines only a role
    expect(equalsBullet('Premium → amount paid for the cover', '')).toBeNull();
    // a chain: each arrow a step, the first part no definition ("Annuity is the lump sum paid to insurer")
    expect(equalsBullet('Annuity → lump sum paid to insurer → regular income to person for life', '', glossary)).toBeNull();
    // a clause or a list after the arrow is still no definition
    expect(equalsBullet('Claim → insured person demands compensation after a loss', '', glossary)).toBeNull();
    expect(equalsBullet('Reinsurance → insurer transfers part of a big risk to another insurer', '', new Set(['Reinsurance']))).toBeNull();
    const deck: Passage[] = [
      { citation: 'slide 1', text: 'INSURANCE\nCommerce – SS 2' },
      { citation: 'slide 2', text: 'TERMS USED\n- **Premium** → amount paid (yearly/monthly) for the cover\n- **Claim** → demand for compensation after loss\n- Wrong blood → agglutination of red cells' },
    ];
    const texts = indexMaterial(deck).sentences.filter((x) => x.reason === null).map((x) => x.text);
    expect(texts).toContain('Claim is the demand for compensation after loss.');
    expect(texts).toContain('Premium is the amount paid (yearly or monthly) for the cover.');
    expect(texts.some((t) => t.startsWith('Wrong blood'))).toBe(false);
  });
});
