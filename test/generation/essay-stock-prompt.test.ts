/**
 * The stock essay prompt ("Define X and explain one other important point about X") names no
 * point; none of the 12 judged blind was usable as it stood (rounds 4–23). In a mixed request it
 * is withheld and counted; asked for essays alone, the examiner still gets it to edit; an essay
 * that names what it asks for ("state two functions of …") is returned either way. Hand-written
 * material; docs/decisions.md, "Essays and the quality model".
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Passage } from '../../src/core/generation/passage.js';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import type { GeneratedQuestion } from '../../src/core/generation/schemas.js';
import { generateQuestions, selectByQuality } from '../../src/core/generation/quality/select.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';
import { paragraphs } from './helpers/passages.js';

afterAll(() => closeWordNet());

const stock: Passage[] = paragraphs(
  'A layer is a hen that is kept mainly for the production of table eggs.',
  'Layers usually begin to lay eggs when they are about twenty weeks old.',
  'A broiler is a young chicken that is raised mainly for the production of meat.',
);
const named: Passage[] = paragraphs(
  'A commercial bank is a financial institution that is owned by private investors and run to make a profit.',
  'The functions of a commercial bank include accepting deposits, granting loans, keeping valuables and transferring money.',
);

const essayOf = (passages: Passage[]) => generateExtractive(passages, { difficulty: 'simple', count: 3, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions.filter((q) => q.type === 'SHORT_ESSAY');
const select = (items: GeneratedQuestion[], passages: Passage[], essaysOnly: boolean) => selectByQuality(items, passages, { count: 10, difficulty: 'balanced', lexicon: kindOf, essaysOnly });

describe('the stock essay prompt', () => {
  it('is withheld from a mixed paper and counted, but returned when only essays are asked for', () => {
    const stockEssays = essayOf(stock);
    expect(stockEssays.map((q) => q.prompt)).toContain('Define a layer and explain one other important point about a layer. Write 20–100 words.');
    const mixed = select(stockEssays, stock, false);
    expect(mixed.questions).toEqual([]);
    expect(mixed.withheld.reasons).toEqual([{ reason: 'essay does not say which points it asks for', count: stockEssays.length }]);
    expect(select(stockEssays, stock, true).questions.length).toBe(stockEssays.length);
    // a request for essays alone reaches the selection as one
    expect(generateQuestions(stock, { difficulty: 'simple', count: 3, types: ['SHORT_ESSAY'], lexicon: kindOf }).questions.some((q) => /other important point/.test(q.prompt))).toBe(true);
  });

  it('does not touch an essay that names what it asks for', () => {
    const namedEssays = essayOf(named);
    expect(namedEssays.map((q) => q.prompt)).toContain('Define a commercial bank and state two functions of a commercial bank. Write 20–100 words.');
    expect(select(namedEssays, named, false).questions.length).toBe(namedEssays.length);
  });
});
