/**
 * Round 40 (docs/quality.md): its three unusable items and one edit, refused or mended where they
 * were made. Hand-written sentences in the manner of the round's chemistry notes and lesson
 * captions (none copied from the set; docs/decisions.md, "Round 40: a law's label, a list run on,
 * a participle with no subject, the lesson's own talk"):
 * - "Average of 7 and 39 = 46 ÷ 2 = 23, which is … Na. 2. J. A. R. Newlands (1864) – …": a line of
 *   working with the list's next item run into it;
 * - "Stored under paraffin oil (kerosene) because they react with air and ______.": a participle
 *   with no subject;
 * - "The topic for today is the formal letter.": the lesson's talk about itself;
 * - "The Periodic Law (modern): The properties of elements are …" (an edit): a law's name as a
 *   label before its statement now says the law states it;
 * - and round 41's "Business docs are evidence of transaction …" (an edit): "docs" is written out.
 */
import { describe, expect, it } from 'vitest';
import { dropGluedHeading, rejectReason } from '../../src/core/generation/engine/sentences.js';
import { expandShorthand } from '../../src/core/generation/engine/shorthand.js';

describe('round 40', () => {
  it('refuses a line of working and a list item run into a sentence', () => {
    expect(rejectReason('Average of 8 and 40 = 48 ÷ 2 = 24, which is roughly the mass of the middle element.', false)).toBe('a calculation, not a statement');
    expect(rejectReason('The middle element has roughly the average mass of the other two. 2. John Newlands (1864) – Law of Octaves.', false)).toBe('a list run into the sentence');
    expect(rejectReason('The middle element has roughly the average mass of the other two elements.', false)).toBeNull();
  });

  it('refuses a participle with no subject, not one that opens a sentence with its subject after a comma', () => {
    expect(rejectReason('Stored under paraffin oil (kerosene) because they react with air and water.', false)).toBe('does not name what it is about');
    expect(rejectReason('Kept in dark bottles, silver nitrate solution does not decompose in light.', false)).toBeNull();
  });

  it("refuses the lesson's talk about itself", () => {
    expect(rejectReason('The topic for today is the formal letter and its features.', false)).toBe('talk to the class or the candidate');
    expect(rejectReason("Today's lesson is on the features of a formal letter.", false)).toBe('talk to the class or the candidate');
  });

  it("states a law whose name is a label before it", () => {
    expect(dropGluedHeading('The Periodic Law (modern): The properties of elements are a periodic function of their atomic numbers.')).toBe('The Periodic Law states that the properties of elements are a periodic function of their atomic numbers.');
    expect(dropGluedHeading("Boyle's law: The volume of a fixed mass of gas is inversely proportional to its pressure.")).toBe("Boyle's law states that the volume of a fixed mass of gas is inversely proportional to its pressure.");
  });

  it('writes "docs" out (round 41)', () => {
    expect(expandShorthand('- Business docs are evidence of transactions. Docs: invoice, receipt')).toBe('- Business documents are evidence of transactions. Documents: invoice, receipt');
  });
});
