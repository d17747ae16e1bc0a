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
    // (the tagger reads "compact" as an adjective here; "the" after it shows the verb)
    expect(itemName('- Heavy machines compact the soil')).toBeNull();
    expect(itemName('- Clearing the land')).toBe('Clearing the land');
    expect(itemName('- Price stabilisation → steady prices')).toBe('Price stabilisation');
    expect(itemName('3. Bonded warehouses')).toBe('Bonded warehouses');
    expect(itemName('**Wear and tear** – physical deterioration')).toBe('Wear and tear');
    expect(itemName('5. Depletion (production unit) method')).toBe('Depletion method');
  });

  it('a heading in title case ("Features of Mixed Economy") names its subject in lower case, as one in capitals does', () => {
    const lists = headingLists([
      { citation: 'slide 1', text: 'ECONOMIC SYSTEMS\n- Nigeria is a mixed economy.\n- The types are capitalism, socialism, Mixed Economy and traditional economy.\n- Most farm power in Nigeria is human power, not Farm Power from machines.' },
      { citation: 'slide 2', text: 'Features of Mixed Economy\n- Private sector\n- Public sector\n- Government planning' },
      { citation: 'slide 3', text: 'Problems of Farm Power in Nigeria\n- Poor rural roads\n- High cost of tractors\n- Illiteracy' },
    ]);
    expect(lists.map((l) => l.one)).toEqual(['a feature of mixed economy', 'a problem of farm power in Nigeria']);
  });

  it('a title that carries its slide number ("Slide 9: Features of Capitalism") heads a list as the title alone would', () => {
    const lists = headingLists([
      { citation: 'slide 1', text: 'Slide 1: Economic Systems\n- Economics – SS 1' },
      { citation: 'slide 2', text: 'Slide 9: Features of Capitalism\n- Private ownership of property\n- Profit motive\n- Consumer sovereignty' },
      { citation: 'slide 3', text: 'SLIDE 14 – Demerits of Socialism\n- Lack of incentive\n- Bureaucracy and delay\n- Shortages' },
    ]);
    expect(lists.map((l) => [l.one.toLowerCase(), l.items.length])).toEqual([
      ['a feature of capitalism', 3],
      ['a demerit of socialism', 3],
    ]);
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

  it("never takes a subject's merits or demerits as the odd one out of its features, nor the other way (a demerit is often called a feature)", () => {
    const lists = headingLists([
      { citation: 'slide 1', text: 'ECONOMIC SYSTEMS' },
      { citation: 'slide 2', text: 'FEATURES OF SOCIALISM\n- Central planning\n- Prices fixed by government\n- Absence of profit motive' },
      { citation: 'slide 3', text: 'DEMERITS OF SOCIALISM\n- Lack of incentive\n- Bureaucracy and delay\n- Shortages' },
      { citation: 'slide 4', text: 'MERITS OF CAPITALISM\n- Efficient use of resources\n- Variety of goods and services\n- Less bureaucracy' },
    ]);
    for (let seed = 1; seed < 20; seed++) {
      const plans = planOddOneOut(lists, prng(seed));
      for (const p of plans) expect(p.other.subject === p.list.subject && [p.list.kind, p.other.kind].includes('features'), `${p.key.text} NOT ${p.list.one}`).toBe(false);
      // (a merit of another subject is still the odd one out of socialism's features)
      expect(plans.find((p) => p.list.kind === 'features')?.other.one).toBe('a merit of capitalism');
    }
  });

  it('never takes a key that a slide on the asked subject says in full (a mixed economy provides essential services too)', () => {
    const passages = [
      { citation: 'slide 1', text: 'ECONOMIC SYSTEMS' },
      { citation: 'slide 2', text: 'Mixed Economy – Meaning\n- Government regulates and provides essential services\n- Private sector produces most goods' },
      { citation: 'slide 3', text: 'Features of Mixed Economy\n- Price mechanism and planning\n- Government controls strategic sectors\n- Co-existence of sectors' },
      { citation: 'slide 4', text: 'Merits of Socialism\n- Essential services provided for all\n- Full employment' },
    ];
    const lists = headingLists(passages);
    for (let seed = 1; seed < 20; seed++) {
      expect(planOddOneOut(lists, prng(seed), passages).find((p) => p.list.kind === 'features')?.key.text).toBe('Full employment');
      // (without the slides, either merit may be the key)
    }
    expect(new Set(Array.from({ length: 19 }, (_, i) => planOddOneOut(lists, prng(i + 1)).find((p) => p.list.kind === 'features')?.key.text))).toContain('Essential services provided for all');
  });

  it('is made by the engine before blanks when the material has such lists', () => {
    const r = generateExtractive([...slides], { count: 6, difficulty: 'simple', types: ['MCQ'] });
    expect(r.questions.some((q) => /^Which of the following is NOT a (?:function|problem|type) of (?:money|barter)\?$/.test(q.prompt))).toBe(true);
  });
});
