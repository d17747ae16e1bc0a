/**
 * Issue 39 §2: faults round 18's judge named (docs/quality-generation-ratings.md, "Round 18"),
 * mended where they are made. Hand-written material (none from a hold-out set):
 * - the wrong key: a lecture's "no digestion takes place in the oesophagus" lost its "no" as
 *   if it were a reply, and became a true statement of the opposite;
 * - "The chemical digestion takes place …": an adjective taken for a compound's noun;
 * - "Reduced rainfall, lower temperature and flooding.": a list with no verb given as a statement;
 * - "Define the peristalsis": "the" before a process.
 */
import { describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { namedKind } from '../../src/core/generation/engine/repair.js';
import { cleanSpoken, spokenSentences } from '../../src/core/generation/engine/spoken.js';
import { rejectReason } from '../../src/core/generation/engine/sentences.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs } from './helpers/passages.js';

describe('round 18', () => {
  it('keeps a spoken "no" that is part of the statement', () => {
    expect(spokenSentences(['okay the oesophagus is the food pipe', 'no digestion takes place in the oesophagus'])).toEqual(['The oesophagus is the food pipe.', 'No digestion takes place in the oesophagus.']);
    expect(cleanSpoken('No digestion takes place in the oesophagus.')).toBe('No digestion takes place in the oesophagus.');
    expect(cleanSpoken('No, the food is pushed down by peristalsis.')).toBe('The food is pushed down by peristalsis.');
  });

  it('takes no adjective for the kind of a bare subject', () => {
    expect(namedKind('The digestion of food takes place inside a long tube.', ['Chemical digestion uses enzymes to break down food.'])).toBeNull();
    expect(namedKind('Each gland is a coiled tube that opens at a pore.', ['Sweat glands are found in the dermis.'])).toBe('Each sweat gland is a coiled tube that opens at a pore.');
  });

  it('states no list of noun phrases', () => {
    expect(rejectReason('Reduced rainfall, lower temperature and flooding.', false)).toMatch(/no verb/);
    expect(rejectReason('Reduced rainfall lowers the yield of crops in the savanna.', false)).toBeNull();
  });

  it('asks to define a process without "the"', () => {
    const notes = paragraphs(
      'The peristalsis is the wave of muscular contraction that pushes food along the gut.',
      'Peristalsis moves the bolus down the oesophagus into the stomach within seconds.',
      'Peristalsis continues in the small intestine, mixing food with the digestive juices.',
    );
    const essays = generateExtractive(notes, { difficulty: 'simple', count: 2, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions;
    expect(essays.length).toBeGreaterThan(0);
    for (const q of essays) expect(q.prompt).toMatch(/^Define peristalsis\b/);
  });
});
