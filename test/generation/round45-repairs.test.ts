/**
 * Round 45 (docs/quality.md): the notes' glossary lines written with no article after the dash
 * ("Work in progress – goods started but not completed …") had all been refused as notes, so a
 * page of definitions gave no item. Now a defining noun phrase is read as the term's
 * definition, with "refers to" for one thing described by plural things and "is the" for one
 * thing described by one thing; a note (a bare list, a lone noun, a clause with its own verb)
 * is still refused. Hand-written lines in the manner of the round's notes, none copied from
 * the set; and a slide's "Term = plural things" says "refers to" (docs/decisions.md, "Round 45:
 * glossary lines without an article").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { findDefinitions, parseDefinition, siblingsOf, type Definition } from '../../src/core/generation/engine/definitions.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { genusOf } from '../../src/core/generation/engine/genus.js';
import { itemFeatures, materialContext } from '../../src/core/generation/quality/features.js';
import type { GeneratedQuestion } from '../../src/core/generation/schemas.js';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';
import { closeWordNet, kindOf as lexicon } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

describe('round 45: a glossary line with no article after its dash', () => {
  it('reads a defining noun phrase as the definition', () => {
    const material = 'Notes on costs.';
    expect(dashDefinition('Overhead costs – expenses which cannot be traced to one product.', material)).toBe('Overhead costs are expenses which cannot be traced to one product.');
    expect(dashDefinition('Indirect labour – wages of workers who do not work on the product itself.', material)).toBe('Indirect labour refers to wages of workers who do not work on the product itself.');
    expect(dashDefinition('Capital – wealth used in the production of further wealth.', material)).toBe('Capital is the wealth used in the production of further wealth.');
    expect(dashDefinition('Spoilage – goods damaged in the course of production.', material)).toBe('Spoilage refers to goods damaged in the course of production.');
  });

  it('still refuses a note: a bare list, a lone noun, a participle or an adjective alone, a clause with its own verb, shorthand', () => {
    const material = 'Notes on costs.';
    for (const line of [
      'Liquid assets – cash, bank balances, short-term deposits.',
      'Credit union – members',
      'Finished stock – packed and ready for the market.',
      'Inflation – prices rise as incomes rise.',
      'Bush clearing – clearing for farming exposes the soil to rain.',
      'Costing – recording & analysing costs of each job.',
    ]) {
      expect(dashDefinition(line, material), line).toBeNull();
    }
  });
});

describe('round 45: one thing described by plural things', () => {
  it('"refers to" them (the judged "Farm machinery is machines …"), and a plural term or a singular description keeps its verb', () => {
    expect(equalsBullet('Office equipment = machines used to handle paper work', 'Notes.')).toBe('Office equipment refers to machines used to handle paper work.');
    expect(equalsBullet('Barter = direct exchange of goods for goods', 'Notes.')).toBe('Barter is the direct exchange of goods for goods.');
    expect(equalsBullet('Standing orders = instructions given by a customer to the bank', 'Notes.')).toBe('Standing orders are instructions given by a customer to the bank.');
  });
});

describe("round 45's development run: a glossary's terms as a definition item's options", () => {
  it('reads a term written with its capital at the line start as no name, and drops the example after the description', () => {
    const line = 'Indirect materials – small materials which do not form part of each unit, e.g. glue, thread and polish.';
    expect(dashDefinition(line, `Cost notes.\n${line}`)).toBe('Indirect materials are small materials which do not form part of each unit.');
  });

  it('takes the term without its abbreviation in brackets, and "work in progress" as a term', () => {
    expect(parseDefinition('Work in progress (WIP) refers to goods started but not completed at the end of the period.')).toMatchObject({ term: 'Work in progress', description: 'goods started but not completed at the end of the period' });
    expect(parseDefinition('Indirect materials are small materials which do not form part of each unit.')).toMatchObject({ term: 'Indirect materials' });
  });

  it('never offers a kind beside its sub-kind (an expense is a cost)', () => {
    const def = (term: string, description: string, passageIndex: number): Definition => ({ term, description, verb: 'are', source: `${term} are ${description}.`, citation: `paragraph ${passageIndex}`, passageIndex, sentenceIdx: [passageIndex], ...genusOf(description), termArticle: null });
    const all = [
      def('Direct costs', 'costs that can be traced to each unit of the product', 1),
      def('Direct expenses', 'other expenses that can be traced to each unit', 2),
      def('Direct materials', 'raw materials which form part of the finished product', 2),
      def('Work in progress', 'goods started but not completed at the end of the period', 3),
    ];
    const terms = siblingsOf(all[1]!, all, 4, lexicon, true).map((d) => d.term);
    expect(terms).toContain('Direct materials');
    expect(terms).not.toContain('Direct costs');
  });
});

describe("round 45's development run: the quality model reads a definition item's stem as a question", () => {
  it('"Which term is defined as “…”?" is no garbled statement; a statement with no full stop still is', () => {
    const ctx = materialContext([{ citation: 'paragraph 1', text: 'Work in progress refers to goods started but not completed at the end of the period.' }], lexicon);
    const item = (prompt: string): GeneratedQuestion => ({
      id: 'q_1',
      type: 'MCQ',
      marks: 1,
      difficulty: 'simple',
      citation: 'paragraph 1',
      prompt,
      explanation: 'The material says (paragraph 1) so.',
      options: ['Work in progress', 'Direct materials', 'Direct labour', 'Direct expenses'].map((text, i) => ({ keyLabel: 'ABCD'[i]!, text, isCorrect: i === 0 })),
    });
    expect(itemFeatures(item('Which term is defined as “goods started but not completed at the end of the period”?'), ctx).stemGarbled).toBe(0);
    expect(itemFeatures(item('Which option completes this statement?\n\nWork in ______ refers to goods started but not completed'), ctx).stemGarbled).toBe(1);
  });
});

describe("round 45's development run: a teacher's label is no term", () => {
  it('"Everyday example: A bulb …" defines nothing; "Electrolyte: a compound which …" does', () => {
    const passages = [{ citation: 'paragraph 1', text: '**Everyday example:** A torch bulb in a circuit with salt water glows brightly.\n\n**Electrolyte:** a compound which conducts electricity when molten or dissolved in water.' }];
    const terms = findDefinitions(passages, indexMaterial(passages)).map((d) => d.term);
    expect(terms).not.toContain('Everyday example');
    expect(terms).toContain('Electrolyte');
  });
});
