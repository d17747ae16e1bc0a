/**
 * The engine's building blocks: text matching, answer spans of each kind, sentence
 * filtering, and the slot plan (type mix and progressive tiers).
 */
import { describe, expect, it } from 'vitest';
import { planSlots } from '../../src/core/generation/engine/extractive.js';
import { dropGluedHeading, rejectReason } from '../../src/core/generation/engine/sentences.js';
import { extractSpans, numberShape } from '../../src/core/generation/engine/spans.js';
import { containsPhrase, normaliseForMatch } from '../../src/core/generation/text/nlp.js';

describe('text building blocks', () => {
  it('matches phrases as whole words, ignoring case, quotes, escapes and spacing', () => {
    expect(containsPhrase('The “Prudence” concept\nrefers to caution.', 'prudence concept')).toBe(true);
    expect(containsPhrase('Receivables were N2,076,500 at year end.', 'N2,076,500')).toBe(true);
    expect(containsPhrase('Photosynthesis happens in leaves.', 'synthesis')).toBe(false);
    expect(normaliseForMatch('IAS 16 \\$ – Property.')).toBe('ias 16 property');
  });

  it('finds numbers, names and terms with their shapes', () => {
    const spans = extractSpans('In 1960 the Institute of Chartered Accountants of Nigeria applied IAS 16 to 25% of carbon dioxide emissions.');
    const by = (k: string) => spans.filter((s) => s.kind === k).map((s) => s.text);
    expect(by('number')).toEqual(['1960', '25%']);
    expect(by('name')).toEqual(['Institute of Chartered Accountants of Nigeria', 'IAS 16']);
    expect(by('term')).toContain('carbon dioxide emissions');
    expect(by('term')).toContain('carbon dioxide');
    expect(numberShape('1960')).toBe('year');
    expect(numberShape('N2,076,500')).toBe('currency:N');
    expect(numberShape('25%')).toBe('percent');
    expect(numberShape('40 years')).toBe('int:year');
  });

  it('keeps sentences that stand alone and cuts glued headings', () => {
    expect(rejectReason('Chlorophyll is the green pigment that traps light energy.', false)).toBeNull();
    expect(rejectReason('Which of the following is NOT a disclosure requirement?', false)).not.toBeNull();
    expect(rejectReason('Explain the distinction between policies and estimates. (8 Marks)', false)).not.toBeNull();
    expect(rejectReason('It is released into the air as a by-product.', false)).toBe('depends on the sentence before it');
    expect(dropGluedHeading('Outsourcing Outsourcing is the practice of contracting work out.')).toBe('Outsourcing is the practice of contracting work out.');
    expect(dropGluedHeading('Trial balance errors This is the case where a balance is wrong.')).toBe('This is the case where a balance is wrong.');
  });

  it('plans ~60/25/15% types and progressive tiers for "balanced"', () => {
    const slots = planSlots(20, 'balanced', ['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY']);
    const count = (t: string) => slots.filter((s) => s.type === t).length;
    expect([count('MCQ'), count('TRUE_FALSE'), count('SHORT_ESSAY')]).toEqual([12, 5, 3]);
    const rank = { simple: 0, intermediate: 1, hard: 2 };
    const tiers = slots.map((s) => rank[s.tier]);
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(new Set(tiers)).toEqual(new Set([0, 1, 2]));
    expect(planSlots(4, 'hard', ['MCQ']).every((s) => s.tier === 'hard' && s.type === 'MCQ')).toBe(true);
  });
});
