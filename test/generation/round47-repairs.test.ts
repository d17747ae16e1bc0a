/**
 * Round 47's repairs (docs/decisions.md, "Lists under a heading make odd-one-out items", after round 47): a chemistry
 * deck's lists, with a bold adjective over a group of properties, a label of Nigerian examples with the plants
 * under it, a use named with its subject, shorthand with "+", and capitals of emphasis; and a speaker note that links
 * the lesson to an earlier one. Slides written as a chemistry teacher writes them.
 */
import { describe, expect, it } from 'vitest';
import { headingLists, itemName, planOddOneOut } from '../../src/core/generation/engine/heading-lists.js';
import { rejectReason } from '../../src/core/generation/engine/sentences.js';
import { prng } from '../../src/core/generation/text/seed.js';
import type { Passage } from '../../src/core/generation/passage.js';

const deck: Passage[] = [
  { citation: 'slide 1', text: 'NITROGEN AND ITS COMPOUNDS\nChemistry – SS 2' },
  { citation: 'slide 2', text: 'Slide 15: Properties of Ammonia\n**Physical**\n- Colourless gas, pungent smell\n- Less dense than air\n- Very soluble in water\n**Chemical**\n- Alkaline gas\n- Reducing agent' },
  {
    citation: 'slide 3',
    text: 'Slide 16: Uses of Ammonia\n- Manufacture of nitric acid\n- Liquid ammonia → refrigerant in cold rooms\n- Household cleaners (removes grease)\n- Manufacture of nylon, explosives, dyes\n- Nigerian examples: ammonia & urea plants using natural gas\n- Notore (Onne, Rivers State)\n- Indorama Eleme Fertilizer',
  },
  { citation: 'slide 4', text: 'Slide 19: Properties of Nitric Acid\n- Strong MONOBASIC acid\n- Powerful OXIDISING agent\n- Dilute acid + Cu → colourless NO\n- exception → very dilute acid + Mg\n- Reagent in NAFDAC laboratories' },
];

describe('round 47: what is no item of a list', () => {
  const lists = headingLists(deck);
  const items = (kind: string, subject: string) => lists.find((l) => l.kind === kind && l.subject === subject)?.items.map((i) => i.text);

  it('a bold adjective on a line of its own ("**Physical**") heads a group of the items and is none of them', () => {
    expect(items('properties', 'ammonia')).toEqual(['Colourless gas, pungent smell', 'Less dense than air', 'Very soluble in water', 'Alkaline gas', 'Reducing agent']);
  });

  it('a label of examples ends the list: the plants under "Nigerian examples:" are no uses of ammonia, nor is a use named with its subject', () => {
    expect(items('uses', 'ammonia')).toEqual(['Manufacture of nitric acid', 'Household cleaners', 'Manufacture of nylon, explosives, dyes']);
    expect(itemName('- Nigerian examples: ammonia & urea plants')).toBeNull();
  });

  it('shorthand with "+" and a lone "exception" are no names; capitals of emphasis are lowered, an acronym is kept', () => {
    expect(itemName('- Dilute acid + Cu → colourless NO')).toBeNull();
    expect(itemName('- exception → very dilute acid + Mg')).toBeNull();
    expect(items('properties', 'nitric acid')).toEqual(['Strong monobasic acid', 'Powerful oxidising agent', 'Reagent in NAFDAC laboratories']);
  });

  it('no odd one out offers a group label, an example or a form of the subject', () => {
    for (let seed = 1; seed < 20; seed++)
      for (const p of planOddOneOut(lists, prng(seed), deck)) for (const t of [p.key.text, ...p.members.map((m) => m.text)]) expect(t).not.toMatch(/^(?:Physical|Chemical|Notore|Indorama|Liquid ammonia|Nigerian examples)/);
  });
});

describe('round 47: a speaker note that links the lesson to another', () => {
  it('"Link to fractional distillation … done in SS 1" is an instruction, not a statement to test', () => {
    expect(rejectReason('Link to fractional distillation of crude oil (Port Harcourt & Warri refineries) done in SS 1.', false)).toBe('an instruction');
    expect(rejectReason('Relate this to the nitrogen cycle treated in SS 1.', false)).toBe('an instruction');
    expect(rejectReason('Linkage between nitrogen fixation and crop yield is strong in legumes.', false)).not.toBe('an instruction');
  });
});
