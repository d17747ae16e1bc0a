/**
 * A teacher's shorthand written out before the generator reads the material
 * (src/core/generation/engine/shorthand.ts; docs/decisions.md, "A teacher's shorthand is written
 * out"). Lines in the manner of the slide decks teachers upload, and a generation run on a deck
 * written in such shorthand.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expandShorthand } from '../../src/core/generation/engine/shorthand.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { generateQuestions } from '../../src/core/generation/quality/select.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

describe("a teacher's shorthand", () => {
  it('is written out as whole words, in the case it was written in', () => {
    expect(expandShorthand('- Govt policy → use gas for power instead of flaring')).toBe('- Government policy → use gas for power instead of flaring');
    expect(expandShorthand('LAB PREP OF METHANE')).toBe('LAB PREPARATION OF METHANE');
    expect(expandShorthand("- Int'l trade = exchange of goods betw. countries")).toBe('- International trade = exchange of goods between countries');
    expect(expandShorthand('- Organic chem = chem of carbon compds')).toBe('- Organic chem = chem of carbon compounds');
    expect(expandShorthand('Time → 365¼ days (approx. 365 days 6 hrs)')).toBe('Time → 365¼ days (approximately 365 days 6 hours)');
    expect(expandShorthand('Goods kept w/o duty until sold')).toBe('Goods kept without duty until sold');
  });

  it('keeps a full stop that ends a sentence, and leaves words that only contain an abbreviation', () => {
    expect(expandShorthand('Roads are built by the govt.')).toBe('Roads are built by the government.');
    expect(expandShorthand('Information about the department is kept in the government gazette.')).toBe('Information about the department is kept in the government gazette.');
  });

  it('leaves abbreviations that stand for more than one word', () => {
    for (const s of ['Adv: cheap to run', 'Const. of 1999', 'Temp rises', 'conc. H₂SO₄', 'Sec. 6 → judicial powers', 'Diff. branches'])
      expect(expandShorthand(s)).toBe(s);
  });

  it('lets a deck written in it give items that carry none of it', () => {
    const deck: Passage[] = [
      { citation: 'slide 1', text: 'LOCAL GOVT IN NIGERIA\nGovernment – SS 2' },
      { citation: 'slide 2', text: 'MEANING\n- Local govt = govt at the grassroots level, closest to the people\n- Third tier of govt after federal & state govts' },
      { citation: 'slide 3', text: 'FUNCTIONS OF LOCAL GOVT\n- Collection of rates & market fees\n- Registration of births, deaths & marriages\n- Maintenance of markets & motor parks\n- Provision of primary health care' },
      { citation: 'slide 4', text: 'PROBLEMS OF LOCAL GOVT\n- Inadequate funds\n- Interference by state govts\n- Corruption of officials\n- Lack of skilled staff' },
    ];
    const items = generateQuestions(deck, { difficulty: 'balanced', count: 6, lexicon: kindOf }).questions;
    const text = items.map((q) => [q.prompt, ...(q.options ?? []).map((o) => o.text)].join(' ')).join(' ');
    expect(items.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/\bgovts?\b/i);
  });
});
