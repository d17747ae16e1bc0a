/**
 * Lists under a heading that names their kind, and the odd-one-out MCQ made of them
 * (docs/decisions.md, "Lists under a heading make odd-one-out items"). Hand-written slides and
 * notes in the style teachers upload: bold names with arrows, numbered items run into one
 * paragraph, remarks under the items, a heading in capitals with a section number.
 */
import { describe, expect, it } from 'vitest';
import { buildOddOneOut, headingLists, itemName, planOddOneOut } from '../../src/core/generation/engine/heading-lists.js';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { prng } from '../../src/core/generation/text/seed.js';

const slides: Passage[] = [
  { citation: 'slide 1', text: 'MONEY\nEconomics – SS 1\nMr. T. Adeyemi' },
  { citation: 'slide 2', text: 'MEANING\n- Money = anything generally accepted as a medium of exchange\n- Money in Nigeria is the naira' },
  { citation: 'slide 3', text: 'FUNCTIONS OF MONEY (1)\n**1. Medium of exchange** → used to buy goods & services\n**2. Store of value** → wealth kept in money form\n- NOT a good store when prices rise' },
  { citation: 'slide 4', text: 'FUNCTIONS OF MONEY (2)\n**3. Unit of account** → prices stated in naira\n**4. Standard of deferred payment** → debts settled later\n**5. Creates credit** → banks lend out deposits' },
  { citation: 'slide 5', text: 'PROBLEMS OF BARTER\n- Double coincidence of wants\n- Indivisibility of goods\n- Lack of a common measure of value\n- Difficulty of storing wealth' },
  { citation: 'slide 6', text: 'TYPES OF MONEY\n1. Commodity money\n2. Paper money\n3. Bank money\n- e.g. cheques' },
];

const notes: Passage[] = [
  { citation: 'paragraph 1', text: 'SOIL EROSION' },
  { citation: 'paragraph 2', text: 'Soil erosion is the removal of the top soil by water or wind.' },
  { citation: 'paragraph 3', text: '2. CAUSES OF SOIL EROSION' },
  { citation: 'paragraph 4', text: 'The main causes are:' },
  { citation: 'paragraph 5', text: '- **Overgrazing** – animals eat up the grass cover. - **Bush burning** – the soil is left bare. - **Deforestation** – trees are cut down without replanting. - **Heavy rainfall** – water washes away the top soil.' },
  { citation: 'paragraph 6', text: 'Teachers should show pictures of gullies in Anambra State.' },
  { citation: 'paragraph 7', text: '3. METHODS OF CONTROLLING SOIL EROSION' },
  { citation: 'paragraph 8', text: '1. Cover cropping (legumes such as centrosema) 2. Mulching 3. Terracing on slopes 4. Contour ploughing 5. Afforestation' },
  { citation: 'paragraph 9', text: '4. TERMS TO NOTE' },
  { citation: 'paragraph 10', text: '1. Gully – a deep channel cut by running water. 2. Rill – a small channel.' },
];

describe('lists under a heading', () => {
  it('reads slides: bold names, a continued slide, numbered items; dashes under them are remarks', () => {
    const lists = headingLists(slides);
    expect(lists.map((l) => [l.one, l.items.map((i) => i.text)])).toEqual([
      ['a function of money', ['Medium of exchange', 'Store of value', 'Unit of account', 'Standard of deferred payment']],
      // (a name of more than five words, "Lack of a common measure of value", is read as a sentence, not a name)
      ['a problem of barter', ['Double coincidence of wants', 'Indivisibility of goods', 'Difficulty of storing wealth']],
      ['a type of money', ['Commodity money', 'Paper money', 'Bank money']],
    ]);
    expect(lists[0]!.items[2]!.citation).toBe('slide 4');
  });

  it('reads notes: a numbered heading in capitals, a lead-in, items run into one paragraph, prose or another heading ending the list', () => {
    const lists = headingLists(notes);
    expect(lists.map((l) => [l.all, l.items.map((i) => i.text)])).toEqual([
      ['causes of soil erosion', ['Overgrazing', 'Bush burning', 'Deforestation', 'Heavy rainfall']],
      ['methods of controlling soil erosion', ['Cover cropping', 'Mulching', 'Terracing on slopes', 'Contour ploughing', 'Afforestation']],
    ]);
  });

  it('a heading that says which ones ("HUMAN CAUSES") names no subject of its own', () => {
    const lists = headingLists([
      { citation: 'slide 1', text: 'DEFORESTATION' },
      { citation: 'slide 2', text: 'HUMAN CAUSES\n- Bush burning\n- Lumbering\n- Road construction' },
      { citation: 'slide 3', text: 'WAREHOUSE DOCUMENTS\n- Dock warrant\n- Weight note\n- Delivery order' },
    ]);
    expect(lists.map((l) => l.one)).toEqual(['a warehouse document']);
  });

  it('"CORRECTING BOP DEFICIT" lists measures for doing it; a bold line naming a group of them heads the items, it is none', () => {
    const lists = headingLists([
      { citation: 'slide 1', text: 'BALANCE OF PAYMENTS\nThe BOP records all of a country\'s dealings with the rest of the world.' },
      { citation: 'slide 2', text: 'CAUSES OF BOP DEFICIT\n- Over-dependence on ONE export\n- Capital flight\n- Overvalued currency' },
      { citation: 'slide 3', text: 'CORRECTING BOP DEFICIT\n**Expenditure-switching measures**\n- Devaluation → exports cheaper\n- Exchange control → CBN rations forex\n**Other measures**\n- Export promotion → trade fairs' },
    ]);
    expect(lists.map((l) => [l.one, l.items.map((i) => i.text)])).toEqual([
      ['a cause of BOP deficit', ['Over-dependence on one export', 'Capital flight', 'Overvalued currency']],
      ['a measure for correcting BOP deficit', ['Devaluation', 'Exchange control', 'Export promotion']],
    ]);
  });

  it('names are short noun phrases: clauses, shorthand and remarks are no names', () => {
    expect(itemName('**5. Creates credit** → banks lend out deposits')).toBeNull();
    expect(itemName('- Located near transport → road, rail')).toBeNull();
    expect(itemName('- Adv. → owner has full control')).toBeNull();
    expect(itemName('- e.g. cheques')).toBeNull();
    expect(itemName('- Controls money supply and credit')).toBeNull();
    expect(itemName('- Grant loans and overdrafts')).toBeNull();
    expect(itemName('- → small crystals, fine texture')).toBeNull();
    expect(itemName('- One positive effect: new land for farming')).toBeNull();
    expect(itemName('- General crossing vs special crossing')).toBeNull();
    expect(itemName('1. A')).toBeNull();
    expect(itemName('- Used to fight inflation')).toBeNull();
    expect(itemName('- Brought uniformity to LG administration')).toBeNull();
    expect(itemName('- Negotiate better wages')).toBeNull();
    expect(itemName('- Uneven devt')).toBeNull();
    expect(itemName('- Price stabilisation → steady prices')).toBe('Price stabilisation');
    expect(itemName('3. Bonded warehouses')).toBe('Bonded warehouses');
    expect(itemName('**Wear and tear** – physical deterioration')).toBe('Wear and tear');
    expect(itemName('5. Depletion (production unit) method')).toBe('Depletion method');
  });
});

describe('the odd one out', () => {
  it('asks which is NOT one of a list: three of its items, the key from a list of another kind', () => {
    const plans = planOddOneOut(headingLists(slides), prng(3));
    expect(plans.length).toBeGreaterThan(0);
    for (const p of plans) {
      const q = buildOddOneOut(p, 'simple', prng(4), 4);
      expect(q.prompt).toBe(`Which of the following is NOT ${p.list.one}?`);
      expect(q.options).toHaveLength(4);
      const key = q.options.filter((o) => o.isCorrect);
      expect(key).toHaveLength(1);
      expect(p.list.items.map((i) => i.text)).not.toContain(key[0]!.text);
      expect(p.other.kind).not.toBe(p.list.kind);
      for (const o of q.options.filter((x) => !x.isCorrect)) expect(p.list.items.map((i) => i.text)).toContain(o.text);
      expect(q.explanation).toContain(p.other.one);
    }
  });

  it('never takes a key, or a member, that shares a word with the other list (it could be one of them in other words)', () => {
    const lists = headingLists([
      { citation: 'slide 1', text: 'WAREHOUSING' },
      { citation: 'slide 2', text: 'FUNCTIONS OF WAREHOUSING\n- Storage\n- Protection of goods\n- Price stabilisation\n- Regular supply' },
      { citation: 'slide 3', text: 'FEATURES OF A GOOD WAREHOUSE\n- Protection against pests\n- Adequate space' },
    ]);
    for (let seed = 1; seed < 20; seed++) {
      const p = planOddOneOut(lists, prng(seed)).find((x) => x.list.kind === 'functions');
      expect(p?.key.text).toBe('Adequate space');
      expect(p?.members.map((m) => m.text).sort()).toEqual(['Price stabilisation', 'Regular supply', 'Storage']);
    }
  });

  it('never offers three members that share a word the key lacks (the form would give the key away)', () => {
    const lists = headingLists([
      { citation: 'slide 1', text: 'ADVERTISING' },
      { citation: 'slide 2', text: 'TYPES OF ADVERTISING\n- Competitive advertising\n- Informative advertising\n- Persuasive advertising' },
      { citation: 'slide 3', text: 'PROBLEMS OF ADVERTISING\n- Misleading claims\n- High cost of media\n- Too many billboards' },
    ]);
    for (let seed = 1; seed < 20; seed++) expect(planOddOneOut(lists, prng(seed)).find((x) => x.list.kind === 'types')).toBeUndefined();
    expect(headingLists([{ citation: 'slide 1', text: 'PROBLEMS OF ADVERTISING\n- Big firms dominate\n- Misleading claims' }])[0]!.items.map((i) => i.text)).toEqual(['Misleading claims']);
  });

  it('is made by the engine before blanks when the material has such lists', () => {
    const r = generateExtractive([...slides], { count: 6, difficulty: 'simple', types: ['MCQ'] });
    expect(r.questions.some((q) => /^Which of the following is NOT a (?:function|problem|type) of (?:money|barter)\?$/.test(q.prompt))).toBe(true);
  });
});
