/**
 * Round 51's mends (docs/decisions.md, "Round 51: …"). Its ECOWAS deck listed the founding members
 * in a table of three columns ("| Anglophone | Francophone | Lusophone |", each column a list of
 * countries), and the engine asked "Which of the following correctly gives the francophone for
 * Nigeria?" four times: four wrong keys. A slide's note "Ask students to discuss whether Nigeria gains
 * more than it spends" became a true/false statement (a fifth). And the judge read "correctly gives
 * the role for" as a machine's wording, and "Which of the following is true of ECOWAS?" twice as one
 * question twice.
 */
import { describe, expect, it } from 'vitest';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

const plan = (md: string, seed = 7) => planTableItems(materialTables(textToParagraphPassages(md)), prng(seed), md, kindOf);
const seeds = (md: string) => Array.from({ length: 10 }, (_, k) => plan(md, k + 1)).flat();

describe('a table that lists members under each heading', () => {
  it('makes no item that pairs things by the row they share', () => {
    const members = [
      'ECOWAS was formed in 1975 by fifteen West African states.',
      '| Anglophone | Francophone | Lusophone |',
      '|---|---|---|',
      '| Nigeria | Benin (then Dahomey) | Guinea-Bissau |',
      '| Ghana | Burkina Faso (then Upper Volta) | |',
      '| Sierra Leone | Côte d’Ivoire | |',
      '| Liberia | Guinea | |',
      '| The Gambia | Mali | |',
      '| | Niger | |',
    ].join('\n');
    expect(seeds(members)).toEqual([]);
    // (nor when its columns are full: headings of one form, "-phone", are lists' names)
    const full = ['| Anglophone | Francophone | Lusophone |', '|---|---|---|', '| Nigeria | Benin | Guinea-Bissau |', '| Ghana | Mali | Cape Verde |', '| Liberia | Niger | Angola |', '| Sierra Leone | Togo | Mozambique |'].join('\n');
    expect(seeds(full)).toEqual([]);
  });
});

describe('the stems', () => {
  const organs = [
    'The Authority of Heads of State is the supreme organ. The ECOWAS Commission runs the community from day to day; the ECOWAS Commission is in Abuja.',
    '| Organ | Role |',
    '|---|---|',
    '| Authority of Heads of State | Supreme organ, policy making |',
    '| Council of Ministers | Advises the Authority, supervises |',
    '| ECOWAS Commission | Executive, daily running |',
    '| Community Court of Justice | Interprets the treaty |',
    '| EBID | Finances projects |',
  ].join('\n');

  it('ask for a value as a question does: "Which of the following is the role of the ECOWAS Commission?"', () => {
    const stems = seeds(organs).filter((i) => i.form === 'forward').map((i) => i.stem);
    expect(stems).toContain('Which of the following is the role of the ECOWAS Commission?');
    for (const s of stems) expect(s).toMatch(/^Which of the following is the role of .+\?$/);
  });

  it('say who does what a participle names: "the damage done by", "the crops attacked by"', () => {
    const pests = ['Pests damage crops in the field.', '| Pest | Crops attacked | Damage done |', '|---|---|---|', '| Stem borer | Maize, sorghum | Tunnels in the stem |', '| Grasshopper | Cassava, vegetables | Eats leaves |', '| Cotton stainer | Cotton, okra | Stains the lint |', '| Pod borer | Cowpea | Eats seeds in pods |', '| Yam beetle | Yam | Bores holes in tubers |'].join('\n');
    const stems = seeds(pests).filter((i) => i.form === 'forward').map((i) => i.stem);
    expect(stems.some((s) => /^Which of the following is the damage done by /.test(s))).toBe(true);
    expect(stems.some((s) => /^Which of the following are the crops attacked by /.test(s))).toBe(true);
    for (const s of stems) expect(s).not.toMatch(/ (?:done|attacked) of /);
  });

  it('ask for an example as "an example of", examples as "are examples of"', () => {
    const md = ['Crops are improved in several ways.', '| Method | Example |', '|---|---|', '| Introduction | Cassava, maize |', '| Hybridisation | Tenera oil palm |', '| Mutation breeding | Rice |', '| Biotechnology | Bt cowpea |', '| Mass selection | Sorghum |'].join('\n');
    const stems = seeds(md).filter((i) => i.form === 'forward').map((i) => i.stem);
    expect(stems.length).toBeGreaterThan(0);
    for (const s of stems) expect(s).toMatch(/^Which of the following is an example of \S+(?: \S+)?\?$/);
  });

  it('ask what is true of a contrast table’s subject once per table', () => {
    const md = [
      'ECOWAS is a regional body; the AU is a continental body. ECOWAS has fifteen members.',
      '| | ECOWAS | AU |',
      '|---|---|---|',
      '| Formed | 28 May 1975 (Lagos) | 2002 (Durban) |',
      '| Members | 15 West African states | 55 African states |',
      '| Main focus | Economic integration | Political unity |',
      '| Headquarters | Abuja | Addis Ababa |',
    ].join('\n');
    for (let k = 1; k <= 10; k++) {
      const stems = plan(md, k).map((i) => i.stem);
      expect(new Set(stems).size).toBe(stems.length);
    }
  });
});

describe('a note to the teacher', () => {
  it('is no statement: "Ask students to discuss …" is an instruction', () => {
    const [s] = indexMaterial([{ text: 'Ask students to discuss whether Nigeria gains more than it spends.', citation: 'slide 21' }]).sentences;
    expect(s!.reason).toBe('an instruction');
  });
});
