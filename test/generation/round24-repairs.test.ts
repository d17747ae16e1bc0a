/**
 * Round 24's judged faults (issue 39 §2), on hand-written text: a sibling swap to a kind of the
 * original keeps the statement true (a wrong key: "Alkanes are organic compounds made up of carbon
 * and hydrogen only" keyed False, where the material says hydrocarbons are grouped into alkanes,
 * alkenes and alkynes); a swap that breaks a term the material uses makes nonsense ("the heavy
 * stage", "the higher surface"); a slide's table row is no statement. docs/decisions.md, "Round
 * 24: kinds, terms and tables".
 */
import { describe, expect, it } from 'vitest';
import { breaksTerm, kindInMaterial } from '../../src/core/generation/engine/falsehood.js';
import { rejectReason, type SourceSentence } from '../../src/core/generation/engine/sentences.js';

const said = (...texts: string[]) => texts.map((text, idx) => ({ idx, text }) as SourceSentence);

describe('round 24', () => {
  it('knows a kind the material names of the original', () => {
    expect(kindInMaterial('metamorphic rocks', 'rocks', said('Rocks are grouped into igneous, sedimentary and metamorphic rocks.'))).toBe(true);
    expect(kindInMaterial('proteins', 'enzymes', said('Enzymes are proteins that speed up reactions.'))).toBe(false);
    expect(kindInMaterial('enzymes', 'proteins', said('Enzymes are proteins that speed up reactions.'))).toBe(true);
    expect(kindInMaterial('herbivores', 'consumers', said('There are three types of consumers: herbivores, carnivores and omnivores.'))).toBe(true);
    expect(kindInMaterial('carnivores', 'herbivores', said('Herbivores eat plants only.', 'Carnivores eat other animals.'))).toBe(false);
    expect(kindInMaterial('cubic expansivity', 'linear expansivity', said('The cubic expansivity is three times the linear expansivity.'))).toBe(false);
    expect(kindInMaterial('alkanes', 'hydrocarbons', said('The alkanes (also called paraffins, meaning "little affinity") are saturated hydrocarbons.'))).toBe(true);
  });

  it('refuses a one-word swap that breaks a term the material uses twice or more, not a size before "number"', () => {
    const material = 'the dark stage uses carbon dioxide. the light stage happens in the grana. in the light stage water is split. most stomata are on the lower surface. the lower surface is shaded. a large number of eggs is laid. a large number of chicks hatch.';
    const t = 'The light stage takes place in the grana.';
    expect(breaksTerm(t, { start: 4, end: 9, original: 'light', replacement: 'heavy' }, material)).toBe(true);
    expect(breaksTerm(t, { start: 4, end: 9, original: 'light', replacement: 'dark' }, material)).toBe(false);
    const u = 'Most stomata are on the lower surface of the leaf.';
    expect(breaksTerm(u, { start: 24, end: 29, original: 'lower', replacement: 'higher' }, material)).toBe(true);
    const v = 'Hens lay a large number of eggs.';
    expect(breaksTerm(v, { start: 11, end: 16, original: 'large', replacement: 'small' }, material)).toBe(false);
  });

  it('refuses a table row', () => {
    expect(rejectReason('Federal vs Unitary | Federal | Unitary | Powers shared between the centre and the units.', false)).toBe('a table row, not a sentence');
    expect(rejectReason('Federalism is a system in which powers are shared between the centre and the units.', false)).toBeNull();
    expect(rejectReason('Derivation → oil-producing states get at least a share of the revenue.', false)).toBe('a note with an arrow, not a sentence');
  });
});

describe('round 24\'s notes (development data since the round)', () => {
  it('give no false statement that is true of a sub-kind, and no swap that breaks the material\'s term', async () => {
    const { readFileSync } = await import('node:fs');
    const { generateQuestions } = await import('../../src/core/generation/quality/select.js');
    const { kindOf } = await import('../../src/modules/generation/wordnet.js');
    const { markdownParagraphs } = await import('./helpers/ooxml.js');
    const notes = readFileSync(new URL('../fixtures/generation/holdout-24/hydrocarbons-notes.md', import.meta.url), 'utf8');
    const passages = markdownParagraphs(notes).map((text, i) => ({ text, citation: `paragraph ${i + 1}` }));
    const items = generateQuestions(passages, { difficulty: 'balanced', count: 20, lexicon: kindOf }).questions;
    expect(items.length).toBeGreaterThan(5);
    for (const q of items) {
      const key = q.options.find((o) => o.isCorrect)?.text;
      // the notes group hydrocarbons into alkanes, alkenes and alkynes: what holds of hydrocarbons holds of alkanes
      if (/^True or false\? Alkanes are organic compounds made up of carbon and hydrogen only/.test(q.prompt)) expect(key, q.prompt).toBe('True');
      expect(q.prompt).not.toMatch(/specific formula/);
    }
  });
});
