/**
 * Round 26's faults (issue 39 §2; docs/quality.md, "Round 26"), mended where they are made, on
 * hand-written text: glossary lines whose description has no article ("Standing orders –
 * instructions given by …") were refused as notes, so an accounting chapter gave one item.
 * docs/decisions.md, "Round 26: glossary lines without an article, lesson-note headings, worked
 * examples on slides and spoken examples".
 */
import { describe, expect, it } from 'vitest';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';
import { isSpokenStatement } from '../../src/core/generation/engine/spoken.js';
import { findDefinitions } from '../../src/core/generation/engine/definitions.js';
import { namesTerm } from '../../src/core/generation/engine/genus.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { paragraphs } from './helpers/passages.js';

const usable = (...texts: string[]) => indexMaterial(paragraphs(...texts)).sentences.filter((s) => s.usable).map((s) => s.text);

describe('a glossary line whose description has no article', () => {
  const material = 'A trader keeps a cash book. Traders in Aba pay by cheque.';
  it('defines a plural term by a plural noun phrase', () => {
    expect(dashDefinition('Crossed cheques – cheques with two parallel lines drawn across their face, which can only be paid into a bank account.', material)).toBe(
      'Crossed cheques are cheques with two parallel lines drawn across their face, which can only be paid into a bank account.',
    );
    expect(dashDefinition('Trade discounts – reductions allowed by a wholesaler to a retailer on the list price of goods.', material)).toBe(
      'Trade discounts are reductions allowed by a wholesaler to a retailer on the list price of goods.',
    );
  });
  it('leaves a singular term and a verb phrase alone', () => {
    expect(dashDefinition('Overdraft – money the bank allows a customer to withdraw beyond the balance.', material)).toBeNull();
    expect(dashDefinition('Ledgers – record every account of the business.', material)).toBeNull();
    // a plural term described as one of them is said of one
    expect(dashDefinition('Stale cheques – a cheque that was not presented within six months.', material)).toBe('A stale cheque is a cheque that was not presented within six months.');
    expect(dashDefinition('Open cheques – an uncrossed cheque that can be cashed over the counter.', material)).toBe('An open cheque is an uncrossed cheque that can be cashed over the counter.');
    // a clause after the dash, not a noun phrase
    expect(dashDefinition('Bankers to banks – banks keep their reserves with the central bank.', material)).toBeNull();
  });
  it('reads a term the notes also write at the start of a table cell or after a quotation as a common noun', () => {
    const notes = 'A customer pays by cheque. | Crossed cheques | Add |\nAsk: "Which is bigger?" Crossed cheques reduce the risk of theft.';
    expect(dashDefinition('Crossed cheques – cheques with two parallel lines drawn across their face.', notes)).toBe('Crossed cheques are cheques with two parallel lines drawn across their face.');
  });
  it('gives the definition bank its term and description, as any definition of the notes', () => {
    const notes = paragraphs(
      '(a) **Standing orders** – instructions given by the customer to the bank to pay a fixed sum regularly to another person.',
      '(b) **Dishonoured cheques** – cheques which the bank of the drawer refuses to pay because the account has too little money.',
    );
    const defs = findDefinitions(notes, indexMaterial(notes));
    expect(defs.map((d) => [d.term, d.description])).toEqual([
      ['Standing orders', 'instructions given by the customer to the bank to pay a fixed sum regularly to another person'],
      ['Dishonoured cheques', 'cheques which the bank of the drawer refuses to pay because the account has too little money'],
    ]);
  });
  it('lets a description open with its term’s head noun as its kind, but not name the term otherwise', () => {
    expect(namesTerm('cheques which the bank of the drawer refuses to pay', 'Dishonoured cheques')).toBe(false);
    expect(namesTerm('the money supply of the country at a time', 'Money')).toBe(true);
    expect(namesTerm('the total money held by the public', 'Money supply')).toBe(true);
    expect(namesTerm('dishonoured cheques that are paid later', 'Dishonoured cheques')).toBe(true);
  });
  it('is a usable statement in a lettered list of notes', () => {
    const got = usable('(a) **Crossed cheques** – cheques with two parallel lines drawn across their face, which can only be paid into a bank account.');
    expect(got).toEqual(['Crossed cheques are cheques with two parallel lines drawn across their face, which can only be paid into a bank account.']);
  });
});

describe('a lesson note’s headings', () => {
  it('reads a numbered heading in capitals as the topic of the list under it, with the article the material uses', () => {
    const got = usable(
      '3. TRIAL BALANCE',
      'Every business should prepare trial balance at the end of the month. A trial balance is a list of the balances of the ledger accounts on a particular date.',
      '4. IMPORTANCE OF TRIAL BALANCE',
      '1. It shows whether the ledger accounts were posted arithmetically correctly. 2. It gives the figures for the final accounts (income statement, balance sheet, etc.). 3. It helps the accountant to find errors of addition in the ledger.',
    );
    expect(got).toContain('The trial balance shows whether the ledger accounts were posted arithmetically correctly.');
    expect(got).toContain('The trial balance gives the figures for the final accounts (income statement, balance sheet, etc.).');
  });
  it('takes no topic from a lesson note’s apparatus ("CONTENT", "EVALUATION")', () => {
    const got = usable('CONTENT', '1. It helps the trader to know the amount owed by each customer at the end of the month.');
    expect(got.some((s) => /^Content\b|^CONTENT\b/.test(s))).toBe(false);
  });
});

describe('a slide of worked examples', () => {
  it('makes no definition of an "=" line cut at an abbreviation', () => {
    const slide = { text: 'RATE OF REACTION\n- Rate of reaction = change in conc. of reactant per unit time', citation: 'slide 3' };
    const index = indexMaterial([slide], 'Chemistry');
    expect(index.sentences.filter((s) => s.usable).map((s) => s.text)).not.toContain('Rate of reaction is the change in conc.');
  });
  it('states nothing when its title says "Worked Ex."', () => {
    const slide = { text: 'WORK DONE – Worked Ex.\n**Ex. 1:** A force of 20 N moves a load through 5 m. Find the work done.\n- Work done = 20 × 5 = 100 J\n**Ex. 2:** A boy lifts a 30 N bag through 2 m.\n- Work done = 30 × 2 = 60 J\nNB: Always show units.', citation: 'slide 6' };
    const facts = { text: 'WORK\n- Work is done when a force moves its point of application in the direction of the force.', citation: 'slide 5' };
    const index = indexMaterial([facts, slide], 'Physics');
    expect(index.sentences.filter((s) => s.citation === 'slide 6' && s.usable)).toEqual([]);
  });
});

describe('a lesson’s speech', () => {
  it('states no quoted example and no name for it run on after a clause', () => {
    expect(isSpokenStatement('another example my brother is a lion in the field')).toBe(false);
    expect(isSpokenStatement('my brother is called a lion that is metaphor')).toBe(false);
    // a clause with "that is" and an adjective or a noun with its article is a statement
    expect(isSpokenStatement('water is a liquid that is essential for life')).toBe(true);
    expect(isSpokenStatement('personification gives human qualities to a non living thing')).toBe(true);
  });
});

