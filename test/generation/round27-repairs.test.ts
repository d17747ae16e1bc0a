/**
 * Round 27's faults (issue 39 §2; docs/quality.md, "Round 27"), mended where they are made, on
 * hand-written text: an example given as a statement ("E.g. the engine of a grinding machine …
 * wears out"), a slide's shorthand kept in a definition ("Axis = imaginary line thru N. Pole …"),
 * and two terms exchanged across a possessive ("… written down to its residual value" → "… to its
 * asset"). docs/decisions.md, "Round 27".
 */
import { afterAll, describe, expect, it } from 'vitest';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { exchangeSwap } from '../../src/core/generation/engine/falsehood.js';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { extractSpans } from '../../src/core/generation/engine/spans.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs, sourceSentence as sentence } from './helpers/passages.js';

afterAll(() => closeWordNet());


describe('round 27', () => {
  it('makes no true/false statement of an example ("E.g. …"), though an essay may still ask for it', () => {
    const notes = paragraphs(
      'Wear and tear is the physical deterioration of an asset from constant use over the years.',
      'E.g. the pump of a borehole in a village near Kano wears out with daily use.',
      'Obsolescence is the loss of value of an asset when a newer and better model comes out.',
      'E.g. old analogue cameras were replaced by digital cameras in most studios in Lagos.',
    );
    // the example stays a usable sentence of the index: a defined-term essay may ask for it (essay-example.test.ts)
    expect(indexMaterial(notes).sentences.filter((x) => /^E\.g\./.test(x.text)).map((x) => x.usable)).toEqual([true, true]);
    const items = generateExtractive(notes, { difficulty: 'simple', count: 8, types: ['TRUE_FALSE'], lexicon: kindOf }).questions;
    expect(items.length).toBeGreaterThan(0);
    expect(items.filter((q) => /E\.g\./i.test(q.prompt))).toEqual([]);
  });

  it('makes no definition of a slide line written in shorthand', () => {
    const material = 'The earth moves round the sun.';
    expect(equalsBullet('Equator = imaginary line round the earth midway between N. Pole and S. Pole', material)).toBeNull();
    expect(equalsBullet('Orbit = path of the earth thru space round the sun', material)).toBeNull();
    expect(equalsBullet('Orbit = path of the earth through space round the sun', material)).toBe('Orbit is the path of the earth through space round the sun.');
  });

  it('exchanges no two terms across a possessive: the second belongs to the first', () => {
    const s = sentence('The asset can be written down to its residual value exactly at the end of the period.');
    expect(exchangeSwap(s, extractSpans(s.text), kindOf)).toBeNull();
  });
});

describe('round 27\'s notes (development data since the round)', () => {
  it('give no statement that is an example, and no exchange across a possessive', async () => {
    const { readFileSync } = await import('node:fs');
    const { generateQuestions } = await import('../../src/core/generation/quality/select.js');
    const { markdownParagraphs } = await import('./helpers/ooxml.js');
    const notes = readFileSync(new URL('../fixtures/generation/holdout-27/depreciation-notes.md', import.meta.url), 'utf8');
    const items = generateQuestions(paragraphs(...markdownParagraphs(notes)), { difficulty: 'balanced', count: 20, lexicon: kindOf }).questions;
    expect(items.length).toBeGreaterThan(0);
    for (const q of items) {
      expect(q.prompt).not.toMatch(/E\.g\./);
      expect(q.prompt).not.toMatch(/its asset/);
    }
  });
});

