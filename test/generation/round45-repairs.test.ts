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
import { describe, expect, it } from 'vitest';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';

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
