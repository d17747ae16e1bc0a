/**
 * Issue 21 §3: distractors share the key's part of speech and form (wink-nlp tagger).
 * A verb key ("The government ___ to invest") must not get nouns such as notes,
 * strides or farmers.
 */
import { describe, expect, it } from 'vitest';
import { buildPool, pickDistractors } from '../../src/core/generation/engine/distractors.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { extractSpans } from '../../src/core/generation/engine/spans.js';
import { spanClass, tagSentence } from '../../src/core/generation/text/pos.js';
import { paragraphs } from './helpers/passages.js';

const passages = paragraphs(
  'Farmers made great strides in planting maize during the rainy season across the region.',
  'Traders keep careful notes of every sale and record the farmers who supply them each week.',
  'The ministry intends to support rural credit schemes for small producers this year.',
  'The bank hopes to expand lending to cooperatives in the northern states soon.',
  'The council wants to repair feeder roads before the harvest season begins.',
  'The government plans to invest in irrigation so that farmers can grow two crops a year.',
  'Many farmers keep notes on rainfall, and their strides in yield are recorded by the ministry.',
);

describe('part-of-speech matched distractors', () => {
  it('tags the verb of "The government plans to invest" as a verb', () => {
    const s = 'The government plans to invest in irrigation so that farmers can grow two crops a year.';
    expect(spanClass(s, s.indexOf('plans'), s.indexOf('plans') + 5)).toBe('V:s');
    expect(tagSentence(s).find((w) => w.text === 'farmers')!.lemma).toBe('farmer');
  });

  it('gives a verb key only verbs of the same form, never nouns', () => {
    const index = indexMaterial(passages);
    const pool = buildPool(index);
    const sentence = index.sentences.find((s) => s.text.startsWith('The government plans'))!;
    const key = extractSpans(sentence.text).find((sp) => sp.kind === 'term' && sp.text === 'plans')!;
    expect(key.cls).toBe('V:s');
    const got = pickDistractors(pool, key, sentence.text, sentence.passageIndex, 3, 7);
    expect(got.length).toBeGreaterThanOrEqual(2);
    for (const d of got) expect(['notes', 'strides', 'farmers', 'producers', 'cooperatives', 'crops', 'states', 'roads']).not.toContain(d.toLowerCase());
    for (const d of got) expect(['intends', 'hopes', 'wants']).toContain(d.toLowerCase());
  });

  it('gives a noun key nouns only', () => {
    const index = indexMaterial(passages);
    const pool = buildPool(index);
    const sentence = index.sentences.find((s) => s.text.startsWith('Traders keep'))!;
    const key = extractSpans(sentence.text).find((sp) => sp.kind === 'term' && sp.text === 'notes')!;
    expect(key.cls).toBe('N');
    const got = pickDistractors(pool, key, sentence.text, sentence.passageIndex, 3, 7);
    expect(got.length).toBeGreaterThan(0);
    for (const d of got) expect(['intends', 'hopes', 'wants', 'plans', 'made', 'keep']).not.toContain(d.toLowerCase());
  });
});
