/**
 * Round 33 (docs/quality.md): seven of eleven items were unusable. Mended here, each on
 * hand-written material in the manner of the round's economics notes and government lecture
 * (docs/decisions.md, "Round 33"):
 * - odd-one-out keys that named the list's own subject ("Galloping inflation" as NOT a cause of
 *   inflation) or were a subheading of the list ("(b) Beneficial effects" as NOT a type), and
 *   members that all said "inflation" while the key did not;
 * - a glossary line whose description is a clause ("General price level – the prices of most
 *   goods … must be rising") made into "The general price level is the prices … must be rising";
 * - a teacher's reply kept as part of a caption statement ("No obasanjo was a military head of
 *   state before").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { headingLists, planOddOneOut } from '../../src/core/generation/engine/heading-lists.js';
import { recaseNames } from '../../src/core/generation/engine/recase.js';
import { dashDefinition } from '../../src/core/generation/engine/repair.js';
import { spokenSentences } from '../../src/core/generation/engine/spoken.js';
import type { Passage } from '../../src/core/generation/passage.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

const notes: Passage[] = [
  { citation: 'paragraph 1', text: 'UNEMPLOYMENT' },
  { citation: 'paragraph 2', text: '2. TYPES OF UNEMPLOYMENT' },
  { citation: 'paragraph 3', text: '1. **Seasonal unemployment** – workers are idle in the off-season. 2. **Frictional unemployment** – workers are between jobs. 3. **Structural unemployment** – skills no longer match the jobs. 4. **Cyclical unemployment** – demand falls in a depression.' },
  { citation: 'paragraph 7', text: '3. CAUSES OF UNEMPLOYMENT' },
  { citation: 'paragraph 8', text: '1. **Rapid population growth** – more people seek jobs than there are. 2. **Wrong type of education** – school leavers lack the skills employers want. 3. **Rural-urban migration** – young people leave farms for the cities. 4. **Use of machines** – machines replace workers.' },
  { citation: 'paragraph 12', text: '4. EFFECTS OF UNEMPLOYMENT' },
  { citation: 'paragraph 13', text: '(a) Harmful (negative) effects' },
  { citation: 'paragraph 14', text: '1. **Poverty** – the unemployed cannot meet their needs. 2. **Crime** – some idle youths turn to robbery. 3. **Waste of human resources** – skills are not used.' },
  { citation: 'paragraph 17', text: '(b) Beneficial (positive) effects (mainly in the short run)' },
  { citation: 'paragraph 18', text: '1. **Labour is cheap** – firms can hire workers easily.' },
  { citation: 'paragraph 19', text: '5. FUNCTIONS OF LABOUR OFFICES' },
  { citation: 'paragraph 20', text: '1. **Registering job seekers** – names are kept on file. 2. **Advertising vacancies** – employers send their openings. 3. **Career guidance** – school leavers are advised.' },
];

describe('the odd one out, after round 33', () => {
  const lists = headingLists(notes);

  it('takes no subheading of a list for one of its items', () => {
    const effects = lists.find((l) => l.kind === 'effects');
    expect(effects?.items.map((i) => i.text)).not.toContain('Harmful effects');
    expect(effects?.items.map((i) => i.text)).not.toContain('Beneficial effects');
    expect(effects?.items.map((i) => i.text)).toContain('Poverty');
    // (a numbered item named by the list's kind is one of its items: "3. Revaluation method" under "METHODS …")
    const methods = headingLists([
      { citation: 'paragraph 1', text: 'DEPRECIATION' },
      { citation: 'paragraph 2', text: '3. METHODS OF CALCULATING DEPRECIATION' },
      { citation: 'paragraph 3', text: '1. Straight line method 2. Reducing balance method 3. Revaluation method' },
    ]);
    expect(methods[0]?.items.map((i) => i.text)).toEqual(['Straight line method', 'Reducing balance method', 'Revaluation method']);
  });

  it('never keys an item that names the list\'s own subject, nor sets three members that all name it beside a key that does not', () => {
    for (let seed = 1; seed < 40; seed++) {
      for (const plan of planOddOneOut(lists, prng(seed))) {
        if (plan.list.subject === 'unemployment') expect(plan.key.text.toLowerCase()).not.toContain('unemployment');
        expect(plan.members.every((m) => m.text.toLowerCase().includes('unemployment'))).toBe(false);
      }
    }
    // (nor does a cause give an effect its key, or an effect a cause: the same thing is often both)
    for (let seed = 1; seed < 40; seed++) {
      for (const plan of planOddOneOut(lists, prng(seed))) expect([plan.list.kind, plan.other.kind].sort()).not.toEqual(['causes', 'effects']);
    }
    // (the causes still make an item, with a key from a list that is neither effects nor names unemployment: the labour offices\' functions)
    expect(planOddOneOut(lists, prng(1)).some((p) => p.list.kind === 'causes')).toBe(true);
  });
});

describe('a label among a list\'s items', () => {
  it('is none of them: "Result → poor service delivery" sums the list up (round 19\'s development deck)', async () => {
    const { itemName } = await import('../../src/core/generation/engine/heading-lists.js');
    expect(itemName('- Result → poor service delivery at the grassroots')).toBeNull();
    expect(itemName('- Structure')).toBeNull();
    // (a one-word item that is a thing of the list stays: time is a factor of soil formation)
    expect(itemName('- Time → soils need many years to form')).toBe('Time');
  });
});

describe('an odd-one-out key that names the list\'s subject, as a word or inside one', () => {
  it('is refused ("Galloping inflation", "Hyperinflation" as NOT a cause of inflation)', () => {
    const lists = headingLists([
      { citation: 'paragraph 1', text: 'INFLATION' },
      { citation: 'paragraph 2', text: '3. TYPES OF INFLATION' },
      { citation: 'paragraph 3', text: '1. **Creeping inflation** – prices rise slowly. 2. **Galloping inflation** – prices rise very fast. 3. **Hyperinflation** – prices rise out of control.' },
      { citation: 'paragraph 4', text: '4. CAUSES OF INFLATION' },
      { citation: 'paragraph 5', text: '1. **Excess money supply** – more money chases the goods. 2. **Deficit financing** – the government borrows to spend. 3. **Hoarding and speculation** – traders keep goods back. 4. **Rising production costs** – fuel and wages go up.' },
      { citation: 'paragraph 6', text: '6. METHODS OF CONTROLLING INFLATION' },
      { citation: 'paragraph 7', text: '1. **Higher interest rates on loans** – borrowing costs more. 2. **Price ceilings set by law** – sellers may not charge more. 3. **Cuts in public sector budgets** – less is injected.' },
    ]);
    const keys = new Set<string>();
    for (let seed = 1; seed < 40; seed++) {
      for (const plan of planOddOneOut(lists, prng(seed))) {
        if (plan.list.kind === 'causes') keys.add(plan.key.text);
        // (nor three members that all say "inflation", "Hyperinflation" among them, beside a key that does not)
        expect(plan.members.every((m) => m.text.toLowerCase().includes('inflation'))).toBe(false);
      }
    }
    expect(keys.size).toBeGreaterThan(0);
    for (const key of keys) expect(key.toLowerCase()).not.toContain('inflation');
  });
});

describe('a glossary line whose description is a clause after its preposition', () => {
  it('is no definition: "the prices of most goods and services must be rising"', () => {
    const line = 'General price level – the prices of most goods and services must be rising, not just one or two commodities.';
    expect(dashDefinition(line, line)).toBeNull();
    // (a noun phrase with a preposition and no verb of its own is still one)
    const good = 'Barter – the direct exchange of goods for goods without the use of money.';
    expect(dashDefinition(good, good)).toMatch(/^The barter is the direct exchange of goods for goods without the use of money\.$/);
  });
});

describe('a teacher\'s "no" that answers a pupil', () => {
  it('is dropped before an article or a pronoun, and kept where it begins the statement', () => {
    const out = spokenSentences(['no the senate makes laws for the whole country', 'no state can print its own money', 'no it is the supreme court that settles disputes between states']);
    expect(out).toContain('The senate makes laws for the whole country.');
    expect(out).toContain('No state can print its own money.');
  });

  it('before a name the lexicon does not know takes its comma, and is dropped', () => {
    const cues = ['good morning class', 'who was the first military head of state', 'no ironsi was the first military head of state in nigeria', 'no state in nigeria can print its own money', 'and no money is printed by the states'];
    const passages = recaseNames([{ citation: '00:00', startSeconds: 0, text: cues.join('\n') + '\n' + 'the federal government controls the army and the police\n'.repeat(3) }], kindOf);
    const out = spokenSentences(passages[0]!.text.split('\n'));
    expect(out.some((s) => /^Ironsi was the first military head of state in Nigeria\.$/.test(s))).toBe(true);
    // ("before" with nothing after it leans on the talk around it; "than before" compares)
    expect(spokenSentences(['obasanjo was a military head of state before'])).toEqual([]);
    expect(spokenSentences(['prices of food items are higher than before'])).toEqual(['Prices of food items are higher than before.']);
    expect(out).toContain('No state in Nigeria can print its own money.');
  });
});
