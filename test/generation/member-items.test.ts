/**
 * Lists under headings make items (docs/decisions.md, "Lists under headings make items"; issue 39
 * §2 after round 52): a table whose columns sort things ("| Debit balances | Credit balances |")
 * gives "Which of the following is a credit balance?", the key from that column and the
 * distractors from the other, and nothing else does.
 */
import { describe, expect, it } from 'vitest';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

const plan = (md: string, seed = 7) => planTableItems(materialTables(textToParagraphPassages(md)), prng(seed), md, kindOf);
const seeds = (md: string) => Array.from({ length: 10 }, (_, k) => plan(md, k + 1)).flat();
const table = (header: string[], ...rows: string[][]) => [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');

const balances = [
  'A trial balance lists the balances of the ledger accounts on a date.',
  table(
    ['Debit balances', 'Credit balances'],
    ['Non-current assets', 'Capital'],
    ['Opening inventory', 'Sales (revenue)'],
    ['Purchases', 'Returns outwards'],
    ['Trade receivables', 'Trade payables'],
    ['Cash in hand; cash at bank', 'Bank overdraft'],
    ['Expenses: wages, rent', 'Discount received'],
    ['Drawings', 'Rent / commission received'],
  ),
].join('\n');
const debit = ['Non-current assets', 'Opening inventory', 'Purchases', 'Trade receivables', 'Drawings'];
const credit = ['Capital', 'Sales (revenue)', 'Returns outwards', 'Trade payables', 'Bank overdraft', 'Discount received'];

describe('a table of members under plural headings', () => {
  it('asks for a member of one column among members of the other', () => {
    const items = seeds(balances);
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) {
      expect(it.form).toBe('member');
      if (it.stem === 'Which of the following is a debit balance?') {
        expect(debit).toContain(it.key);
        for (const d of it.distractors) expect(credit).toContain(d);
      } else {
        expect(it.stem).toBe('Which of the following is a credit balance?');
        expect(credit).toContain(it.key);
        for (const d of it.distractors) expect(debit).toContain(d);
      }
      expect(new Set([it.key, ...it.distractors]).size).toBe(4);
    }
    expect(new Set(items.map((it) => it.stem)).size).toBe(2);
    // a column asks once on a paper
    for (let k = 1; k <= 10; k++) {
      const stems = plan(balances, k).map((it) => it.stem);
      expect(new Set(stems).size).toBe(stems.length);
    }
  });

  it('offers no cell that holds two members or a label with its list', () => {
    const options = seeds(balances).flatMap((it) => [it.key, ...it.distractors]);
    for (const bad of ['Cash in hand; cash at bank', 'Expenses: wages, rent', 'Rent / commission received']) expect(options).not.toContain(bad);
  });

  it('makes no member item of an account, whose columns hold figures', () => {
    const account = table(['Receipts', 'N', 'Payments', 'N'], ['Balance b/d', '85,000', 'Rent of hall', '180,000'], ['Subscriptions', '420,000', 'Bar purchases', '185,000'], ['Donations', '50,000', 'Wages', '90,000'], ['Bar sales', '260,000', '', ''], ['Party tickets', '40,000', 'Electricity', '30,000']);
    expect(seeds(account).filter((it) => it.form === 'member')).toEqual([]);
  });

  it('makes none of headings that are no plural noun ("Anglophone"), nor of a record or contrast table', () => {
    const members = table(['Anglophone', 'Francophone', 'Lusophone'], ['Nigeria', 'Benin', 'Guinea-Bissau'], ['Ghana', 'Burkina Faso', ''], ['Liberia', 'Mali', ''], ['Sierra Leone', 'Niger', '']);
    expect(seeds(members)).toEqual([]);
    const records = table(['Disease', 'Cause'], ['Newcastle disease', 'Virus'], ['Coccidiosis', 'Protozoa'], ['Fowl typhoid', 'Bacteria'], ['Aspergillosis', 'Fungus']);
    expect(seeds(records).filter((it) => it.form === 'member')).toEqual([]);
    const cells = table(['Plant cell', 'Animal cell'], ['Has a cell wall', 'Has no cell wall'], ['Has chloroplasts', 'Has no chloroplasts'], ['Has a large vacuole', 'Has small vacuoles'], ['Stores starch', 'Stores glycogen']);
    expect(seeds(cells).filter((it) => it.form === 'member')).toEqual([]);
  });
});
