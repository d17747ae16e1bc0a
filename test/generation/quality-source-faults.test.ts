/**
 * The judged faults fixed where items are made (issue 39 §2; docs/quality-generation-ratings.md):
 * no source sentence that points at a figure the candidate cannot see or opens on a dangling
 * "Both …" / "…, on the other hand, …"; no blank on an idiom of English ("In ___, …", "party to a
 * ___") or on a place mentioned in passing ("in ___, urea is produced …").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FactFinder } from '../../src/core/generation/engine/facts.js';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

describe('source sentences a candidate cannot read alone', () => {
  it.each([
    'As shown in Figure 2, the root hairs absorb water and mineral salts from the soil.',
    'Table 3 gives the nutrient content of the common inorganic fertilisers used in Nigeria.',
    'Both principles follow from indemnity, since they stop the insured from being paid twice for one loss.',
    'Contribution, on the other hand, shares a loss between insurers who cover the same risk.',
  ])('refuses "%s"', (sentence) => {
    expect(rejectReason(sentence, false)).not.toBeNull();
  });

  it('still takes "Both X and Y …" and a plain statement', () => {
    expect(rejectReason('Both nitrogen and phosphorus are primary nutrients needed by crops in large amounts.', false)).toBeNull();
    expect(rejectReason('Root hairs absorb water and mineral salts from the soil by osmosis.', false)).toBeNull();
  });
});

describe('blanks on words the subject does not own', () => {
  const passages: Passage[] = [
    { citation: 'paragraph 1', text: 'Most of the urea used by farmers is produced in Nigeria at large fertiliser plants. Farmers across Nigeria apply urea to maize and rice in the rainy season. Cocoa is grown mainly in Ghana and western Nigeria on forest soils.' },
    { citation: 'paragraph 2', text: 'In theory, fertiliser needs should be measured by soil testing before planting. Soil testing shows which nutrients are lacking in a field. A theory of plant nutrition explains how roots take up ions.' },
  ];
  const index = indexMaterial(passages, '');
  const finder = new FactFinder(index, 1, kindOf);
  const blanks = (opening: string) => finder.spans(index.sentences.find((s) => s.text.startsWith(opening))!).map((x) => x.text);

  it('no blank on a place after "in"/"across", nor on the idiom "In theory"', () => {
    expect(blanks('Most of the urea')).not.toContain('Nigeria');
    expect(blanks('Farmers across Nigeria')).not.toContain('Nigeria');
    expect(blanks('In theory')).not.toContain('theory');
    // the subject's own terms stay
    expect(blanks('In theory')).toContain('soil testing');
    expect(blanks('A theory of plant')).toContain('theory');
  });
});
