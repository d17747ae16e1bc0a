/**
 * Round 43 (docs/quality.md): its wrong key and the faults its judge asked to edit, mended where
 * they were made. Hand-written sentences in the manner of the round's chemistry notes and
 * commerce slides (none copied from the set): a part put for its whole ("the outermost shell"
 * for "the atom") left a statement still true and keyed False; a swapped word before the noun its
 * bracket glosses ("a negative ion (cation)"); a pronoun with its noun in the sentence before,
 * inside a relative clause ("that receives it") or as a fused relative ("What is left is …");
 * a note written with "=" (docs/decisions.md, "Round 43: a part for its whole, a gloss after the
 * noun, a note's '=', a labelled bullet's pronoun"); and, from the development run after them,
 * a labelled bullet's "It" given the section's heading for its subject, and two quantities set
 * equal read as a definition.
 */
import { describe, expect, it } from 'vitest';
import { withoutGloss } from '../../src/core/generation/engine/extractive.js';
import { partInMaterial } from '../../src/core/generation/engine/falsehood.js';
import { rejectReason, type SourceSentence } from '../../src/core/generation/engine/sentences.js';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { bulletTopic, subjectFromHeading } from '../../src/core/generation/engine/repair.js';

const sentence = (idx: number, text: string) => ({ idx, text }) as unknown as SourceSentence;

describe('round 43', () => {
  it('a part the material puts in its whole is no false swap for it', () => {
    const material = [
      sentence(0, 'Each atom tends to end up with eight electrons in its outermost shell.'),
      sentence(1, 'The nucleus of an atom holds its protons and neutrons.'),
    ];
    expect(partInMaterial('outermost shell', 'carbon atom', material)).toBe(true);
    expect(partInMaterial('carbon atom', 'outermost shell', material)).toBe(true);
    expect(partInMaterial('nucleus', 'atom', material)).toBe(true);
    // two things the material only sets side by side are not part and whole
    expect(partInMaterial('ionic bond', 'covalent bond', [sentence(0, 'An ionic bond is stronger than a covalent bond.')])).toBe(false);
  });

  it('a swapped word before the noun its bracket glosses takes the gloss out with it', () => {
    const text = 'The atom that loses electrons becomes a positive ion (cation).';
    const start = text.indexOf('positive');
    const f = withoutGloss(text, { start, end: start + 'positive'.length, original: 'positive', replacement: 'negative' });
    expect(text.slice(0, f.start) + f.replacement + text.slice(f.end)).toBe('The atom that loses electrons becomes a negative ion.');
    expect(f.original).toBe('positive ion (cation)');
    const plain = 'The atom that loses electrons becomes a positive ion.';
    expect(withoutGloss(plain, { start, end: start + 'positive'.length, original: 'positive', replacement: 'negative' }).end).toBe(start + 'positive'.length);
  });

  it('refuses a pronoun whose noun is in the sentence before, and a note written with "="', () => {
    expect(rejectReason('The atom or ion that receives it is the acceptor.', false)).toBe('refers to something outside the sentence');
    expect(rejectReason('What is left is a regular arrangement of positive metal ions.', false)).toBe('depends on the sentence before it');
    expect(rejectReason('Metallic bond = attraction between positive ions and a sea of delocalised electrons.', false)).toBe('a note ("="), not a sentence');
    // the lesson's talk about itself (its "Previous knowledge" section)
    expect(rejectReason('Students have been taught atomic structure and how to write electronic configurations.', false)).not.toBeNull();
    // its own noun before it, or a pronoun as the relative clause's subject, stays a statement
    expect(rejectReason('Water expands by about nine per cent when it freezes into ice.', false)).toBeNull();
    expect(rejectReason('The atom that gives the pair of electrons is the donor.', false)).toBeNull();
  });

  it("a labelled bullet's pronoun is its label's, not the section heading's", () => {
    const material = 'Covalent bond. Diamond: each carbon atom is joined to four others. It is the hardest natural substance. Graphite conducts.';
    const heading = { phrase: 'the covalent bond', plural: false, whole: true };
    const topic = bulletTopic('- Diamond: each carbon atom is joined to four others. It is the hardest natural substance.', heading, material);
    expect(topic?.phrase.toLowerCase()).toBe('diamond');
    expect(subjectFromHeading('It is the hardest natural substance.', topic!)).toMatch(/^Diamond is the hardest natural substance\.$/);
    expect(bulletTopic('- It is the hardest natural substance.', heading, material)).toBe(heading);
  });

  it('two quantities set equal are an equation, not a definition', () => {
    expect(equalsBullet('Mass lost by anode = mass gained by cathode', 'electrolysis')).toBeNull();
    expect(equalsBullet('Allele = alternative form of a gene', 'genetics')).not.toBeNull();
  });
});
