/**
 * Round 37 (docs/quality.md): its notes lost most of their facts to a worked example's scope.
 * Hand-written material in the manner of the round's economics notes (none copied from the set):
 * - "**Worked Example 1 (Value added)**" in a paragraph of its own read as a heading of
 *   exercises, and a heading's scope lasts to the next heading. The next ones were not read as
 *   headings ("4.2 Income Method": a section's number before words in title case; "5. PROBLEMS
 *   … IN NIGERIA": a heading in capitals of more than eight words), so 60 of the notes' 142
 *   sentences, among them the whole list of the problems of measuring, were taken for working.
 *   A worked example's label now opens the example's own scope (which ends at plain prose),
 *   and both headings read as headings (docs/decisions.md, "A worked example's label opens its
 *   scope").
 * - the list freed by that, "Illiteracy – many producers … cannot give correct information about
 *   their output", gave no item: its items are names with what the material says of each, and
 *   no other list of the notes could give an odd one out. A list's item is now also asked from
 *   its description (docs/decisions.md, "A list's item is named from its description"); "an
 *   use", a purpose ("For **economic planning**"), an aside ("**Interesting fact:**") and the
 *   lower-cased "nigeria" of a heading in capitals were mended on the way.
 * - the judge asked for a slide's "HALF the radioactive nuclei" in ordinary exam wording: a
 *   slide's capitals of emphasis are lowered on lines of prose (docs/decisions.md, "A teacher's
 *   shorthand is written out").
 */
import { describe, expect, it } from 'vitest';
import { buildDescribedItem, planDescribedItems } from '../../src/core/generation/engine/described-items.js';
import { headingLists, itemDescription } from '../../src/core/generation/engine/heading-lists.js';
import { indexMaterial, isHeadingLine } from '../../src/core/generation/engine/sentences.js';
import { lowerEmphasis } from '../../src/core/generation/engine/shorthand.js';
import { prng } from '../../src/core/generation/text/seed.js';
import type { Passage } from '../../src/core/generation/passage.js';

const usable = (passages: Passage[]) => indexMaterial(passages).sentences.filter((s) => s.reason === null).map((s) => s.text);

describe('round 37', () => {
  it('reads a numbered heading in title case and a long heading in capitals as headings', () => {
    expect(isHeadingLine('4.2 Income Method')).toBe(true);
    expect(isHeadingLine('3.1.2 The Output Method')).toBe(true);
    expect(isHeadingLine('5. PROBLEMS (DIFFICULTIES) OF MEASURING NATIONAL INCOME IN NIGERIA')).toBe(true);
    // a numbered list item in sentence case, and a long line in capitals that ends as a sentence, are not
    expect(isHeadingLine('2. Wages and salaries are paid to labour')).toBe(false);
    expect(isHeadingLine('THE GOVERNMENT COLLECTS TAXES FROM ALL THE WORKERS IN THE COUNTRY.')).toBe(false);
  });

  it('ends a worked example led by a label in its own bold paragraph at plain prose and at the next heading', () => {
    const notes: Passage[] = [
      { text: '**Worked Example 1 (Value added)**', citation: 'paragraph 1' },
      { text: 'A farmer sells cocoa for N20,000 and the processor sells the powder for N35,000.', citation: 'paragraph 2' },
      { text: 'The contribution to national income is N35,000, the price of the final product.', citation: 'paragraph 3' },
      { text: '4.2 Income Method', citation: 'paragraph 4' },
      { text: 'The income method adds up all the incomes earned by the factors of production in the year.', citation: 'paragraph 5' },
      { text: '**Worked Example 2**', citation: 'paragraph 6' },
      { text: 'Real income = (500 ÷ 125) x 100 = N400 billion', citation: 'paragraph 7' },
      { text: '5. PROBLEMS (DIFFICULTIES) OF MEASURING NATIONAL INCOME IN NIGERIA', citation: 'paragraph 8' },
      { text: '- Illiteracy – many producers in rural areas cannot give correct information about their output.\n- A large subsistence sector means that much of what farmers produce never passes through the market.', citation: 'paragraph 9' },
    ];
    const facts = usable(notes);
    expect(facts.some((s) => s.startsWith('The income method adds up all the incomes'))).toBe(true);
    expect(facts.some((s) => /subsistence sector/.test(s))).toBe(true);
    // the examples' own statements stay out
    expect(facts.some((s) => /cocoa|contribution to national income/.test(s))).toBe(false);
  });

  it('keeps a section of worked examples open over the labels of its examples', () => {
    const notes: Passage[] = [
      { text: '9. WORKED EXAMPLES', citation: 'paragraph 1' },
      { text: '**Worked Example 1 (Soap test)**', citation: 'paragraph 2' },
      { text: 'Four samples of water were each shaken with soap solution until a lather was formed. Each sample was then boiled, cooled and tested again.', citation: 'paragraph 3' },
    ];
    expect(usable(notes)).toEqual([]);
  });

  it('still keeps a heading of exercises over everything under it', () => {
    const notes: Passage[] = [
      { text: 'CLASS WORK', citation: 'paragraph 1' },
      { text: 'Explain the income method of measuring national income in a short paragraph.', citation: 'paragraph 2' },
      { text: 'The government of Country Z spent N180 billion on roads and schools in the year.', citation: 'paragraph 3' },
      { text: 'Households in Country Z spent most of their income on food and transport.', citation: 'paragraph 4' },
    ];
    expect(usable(notes)).toEqual([]);
  });

  const problems: Passage[] = [
    { text: '5. PROBLEMS (DIFFICULTIES) OF MEASURING NATIONAL INCOME IN NIGERIA', citation: 'paragraph 1' },
    {
      text: [
        '1. Illiteracy – many producers, especially in rural areas, cannot give correct information about their output.',
        '2. Large subsistence sector – much of what farmers produce is consumed by their families and never sold.',
        '3. Double counting – difficulty in separating final goods from intermediate goods.',
        '4. Unpaid services – e.g. housewives\' services are not valued.',
        '5. Poor records – firms keep no accounts of their sales and records.',
      ].join('\n'),
      citation: 'paragraph 2',
    },
    { text: 'USES (IMPORTANCE) OF NATIONAL INCOME STATISTICS', citation: 'paragraph 3' },
    { text: '- For **economic planning** – government uses them to draw up the budget.\n- **Interesting fact:** Nigeria rebased its GDP in 2014.', citation: 'paragraph 4' },
  ];

  it('reads a list under a heading with another name for its kind in brackets, keeping a name\'s capital', () => {
    const lists = headingLists(problems);
    expect(lists[0]).toMatchObject({ kind: 'problems', one: 'a problem of measuring national income in Nigeria' });
    expect(lists[0]!.items.map((i) => i.text)).toEqual(['Illiteracy', 'Large subsistence sector', 'Double counting', 'Unpaid services', 'Poor records']);
    // a purpose and an aside are no items, so the list of uses has none and is dropped
    expect(lists).toHaveLength(1);
    const uses: Passage[] = [problems[2]!, { text: '- Economic planning\n- Comparing standards of living', citation: 'paragraph 4' }];
    expect(headingLists(uses)[0]).toMatchObject({ kind: 'uses', one: 'a use of national income statistics' });
  });

  it('takes what an item says of its name, not an example, a reference back or a figure', () => {
    expect(itemDescription('- **Illiteracy** – many producers cannot give correct information about their output.')).toBe('many producers cannot give correct information about their output');
    expect(itemDescription('3. Double counting – difficulty in separating final goods from intermediate goods.')).toBe('difficulty in separating final goods from intermediate goods');
    expect(itemDescription('4. Unpaid services – e.g. housewives\' services are not valued.')).toBeNull();
    expect(itemDescription('- Inflation – it makes comparison over time difficult.')).toBeNull();
    expect(itemDescription('- GNP – GDP + net factor income from abroad in the year')).toBeNull();
    expect(itemDescription('- Illiteracy')).toBeNull();
    // examples run together, notes joined by ";", a qualifier, a purpose, shorthand; "&" is "and"
    expect(itemDescription('- Risk bearing – fire, theft, spoilage, fall in price')).toBeNull();
    expect(itemDescription('- Transportation – moving goods to where needed; creates place utility')).toBeNull();
    expect(itemDescription('- Excessive government spending – especially when financed by borrowing from the bank')).toBeNull();
    expect(itemDescription('- Adequate space – for storing and moving goods in the warehouse')).toBeNull();
    expect(itemDescription('- Unity in diversity – diff. groups live together and keep their identity')).toBeNull();
    expect(itemDescription('- Market research – gathering & analysing information on consumers')).toBe('gathering and analysing information on consumers');
  });

  it('names an item of a list from its description, with other items of the list as distractors', () => {
    const plans = planDescribedItems(headingLists(problems), prng(7));
    // "Poor records" is not asked: its description repeats its own name; "Unpaid services" has none
    expect(plans.map((p) => p.key.text).sort()).toEqual(['Double counting', 'Illiteracy', 'Large subsistence sector']);
    for (const plan of plans) {
      // no option's name shares a word with the description
      for (const d of [plan.key, ...plan.distractors]) expect(plan.description.toLowerCase()).not.toMatch(new RegExp(`\\b(?:${d.text.toLowerCase().split(' ').join('|')})\\b`));
      const q = buildDescribedItem(plan, 'intermediate', prng(3), 1);
      expect(q.prompt).toMatch(/^Which of the following problems of measuring national income in Nigeria matches this description: “.+”\?$/);
      expect(q.options!.filter((o) => o.isCorrect).map((o) => o.text)).toEqual([plan.key.text]);
      expect(q.options).toHaveLength(4);
    }
  });

  it('asks nothing of a list under a kind alone, and takes no label for an item', () => {
    const deck: Passage[] = [
      { text: '# Uses of Sedimentary Rocks\n- Limestone → cement making\n- Clay → pottery and bricks', citation: 'slide 1' },
      { text: '# Disadvantages / Problems\n- Quarrying → dust and noise disturb the people living nearby\n- Abandoned pits → accidents happen when children fall into them\n- Hard rock areas → roads and farms are difficult to build there\n- Rocky hills → barriers to the movement of people and goods', citation: 'slide 2' },
      { text: '# Functions of the CBN\n- Banker to banks – banks keep their reserves with the bank\n- Tools: MPR, CRR, OMO\n- Lender of last resort – rescues banks in liquidity trouble', citation: 'slide 3' },
    ];
    const lists = headingLists(deck);
    expect(lists.find((l) => l.kind === 'disadvantages')?.inherited).toBe(true);
    expect(planDescribedItems(lists, prng(1))).toEqual([]);
    expect(lists.find((l) => l.kind === 'functions')!.items.map((i) => i.text)).toEqual(['Banker to banks', 'Lender of last resort']);
  });

  it("lowers a slide's capitals of emphasis in prose, not a heading's nor an acronym", () => {
    expect(lowerEmphasis('- **Half-life** = time taken for HALF the radioactive nuclei in a sample to decay')).toBe('- **Half-life** = time taken for half the radioactive nuclei in a sample to decay');
    expect(lowerEmphasis('- ALL workers in ONE industry')).toBe('- All workers in one industry');
    expect(lowerEmphasis('The CBN is NOT a commercial bank.')).toBe('The CBN is not a commercial bank.');
    expect(lowerEmphasis('## SOME HALF-LIVES\nWHO IS NOT A CIVIL SERVANT?')).toBe('## SOME HALF-LIVES\nWHO IS NOT A CIVIL SERVANT?');
  });
});
