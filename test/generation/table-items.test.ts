/**
 * Tables make items (docs/decisions.md, "Tables make items"): a teacher's table, uploaded in a
 * Word document, on a slide or pasted as Markdown, reaches the generator row by row, and its
 * rows become MCQs whose distractors come from the same table — of the key's kind and of the
 * topic. Before, a DOCX table reached the generator cell by cell and a slide's table line by
 * line, and the generator made nothing of either (round 48's deck: two comparison tables, no item).
 */
import { describe, expect, it } from 'vitest';
import { readDocx } from '../../src/uploads/material/documents.js';
import { readPptx } from '../../src/uploads/material/pptx.js';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { generateExtractive } from '../../src/core/generation/engine/extractive.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { unescapeMd } from '../../src/core/generation/support.js';
import { itemFeatures, materialContext } from '../../src/core/generation/quality/features.js';
import { scoreItem } from '../../src/core/generation/quality/model.js';
import { BASE_QUALITY_MODEL } from '../../src/core/generation/quality/base-model.js';
import { makeDocx, makePptx } from './helpers/ooxml.js';

const diseases = [
  'Newcastle disease is the most serious viral disease of poultry in Nigeria. Coccidiosis is common where the litter is wet.',
  '| Disease | Cause | Symptoms | Prevention/Control |',
  '|---|---|---|---|',
  '| Newcastle disease | Virus | Twisted neck, difficult breathing, greenish diarrhoea | Vaccination, good hygiene |',
  '| Coccidiosis | Protozoan (Eimeria) | Bloody droppings, weakness, ruffled feathers | Dry litter, coccidiostats in feed |',
  '| Fowl pox | Virus | Wart-like scabs on comb and wattles | Vaccination |',
  '| Gumboro disease | Virus | Watery diarrhoea, depression, deaths in young birds | Vaccination |',
  '| Fowl typhoid | Bacterium | Yellowish diarrhoea, loss of appetite | Antibiotics, hygiene, culling |',
].join('\n');

const inflation = [
  'Inflation is a persistent rise in the general price level. Deflation is a persistent fall in the general price level. Mild inflation may help a growing economy; deflation seldom does.',
  '',
  '| Inflation | Deflation |',
  '|---|---|',
  '| General price level rises | General price level falls |',
  '| Value of money falls | Value of money rises |',
  '| Debtors gain, creditors lose | Creditors gain, debtors lose |',
  '| May encourage investment | Discourages investment; profits fall |',
  '| Employment may rise (mild inflation) | Unemployment usually rises |',
].join('\n');

const prices = ['| Item | Price in 2022 (₦) | Price in 2023 (₦) |', '|---|---|---|', '| Rice (1 mudu) | 1,500 | 2,000 |', '| Garri | 2,000 | 2,600 |', '| Kerosene | 1,000 | 1,200 |', '| Beans | 1,500 | 2,200 |', '| **Total** | **6,000** | **8,000** |'].join('\n');

const plan = (md: string) => planTableItems(materialTables(textToParagraphPassages(md)), prng(7), md);

describe('the material’s tables', () => {
  it('are read row by row from a pasted Markdown table, its rule row dropped; rows of another length leave the table unread', () => {
    const [t] = materialTables(textToParagraphPassages(diseases));
    expect(t!.header).toEqual(['Disease', 'Cause', 'Symptoms', 'Prevention/Control']);
    expect(t!.rows).toHaveLength(5);
    expect(t!.rows[1]).toEqual(['Coccidiosis', 'Protozoan (Eimeria)', 'Bloody droppings, weakness, ruffled feathers', 'Dry litter, coccidiostats in feed']);
    expect(materialTables(textToParagraphPassages('| a | b |\n| c | d | e |'))).toEqual([]);
  });

  it('are read from a Word document as tables ("table N"), not cell by cell', async () => {
    const passages = await readDocx(await makeDocx(['Poultry diseases', diseases.split('\n').slice(1).join('\n'), 'After the table.']));
    expect(passages.map((p) => p.citation)).toEqual(['paragraph 1', 'table 1', 'paragraph 2']);
    expect(passages[1]!.text.split('\n')[2]).toBe('| Coccidiosis | Protozoan (Eimeria) | Bloody droppings, weakness, ruffled feathers | Dry litter, coccidiostats in feed |');
    expect(materialTables(passages)[0]!.rows).toHaveLength(5);
  });

  it('are read from a slide as rows of cells', async () => {
    const passages = await readPptx(await makePptx([['Inflation vs Deflation', ...inflation.split('\n').slice(2)]]));
    expect(passages[0]!.text.split('\n')).toEqual(['Inflation vs Deflation', '| Inflation | Deflation |', '| General price level rises | General price level falls |', '| Value of money falls | Value of money rises |', '| Debtors gain, creditors lose | Creditors gain, debtors lose |', '| May encourage investment | Discourages investment; profits fall |', '| Employment may rise (mild inflation) | Unemployment usually rises |']);
  });
});

describe('items from a table of records (a row per thing)', () => {
  const items = plan(diseases);

  it('ask for a row’s value with the column’s other values as distractors, or for the row with a value', () => {
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const it of items.filter((i) => i.form === 'forward')) {
      expect(it.stem).toMatch(/^Which of the following (?:is the cause|are the symptoms|is the prevention\/control) of (?:Newcastle disease|coccidiosis|fowl pox|Gumboro disease|fowl typhoid)\?$/);
      expect(it.distractors).toHaveLength(3);
      expect(new Set([it.key, ...it.distractors]).size).toBe(4);
    }
    const reverse = items.filter((i) => i.form === 'reverse');
    expect(reverse.length).toBeGreaterThan(0);
    // (one of several symptoms is "among" them, round 55; a cause is "as its cause")
    for (const it of reverse) expect(it.stem).toMatch(/symptoms\?$/.test(it.stem) ? /^Which of the following diseases has “.+” among its symptoms\?$/ : /^Which of the following diseases has “.+” as its /);
  });

  it('never offer a distractor that is also true: another row with the same value or one inside it is no distractor', () => {
    for (const it of items) {
      const keyRow = it.row;
      if (it.form === 'reverse' && /Vaccination, good hygiene/.test(it.stem)) expect(it.distractors).not.toEqual(expect.arrayContaining(['Fowl pox']));
      if (it.form === 'forward' && /cause for/.test(it.stem)) expect(it.distractors).not.toContain(it.key);
      expect(keyRow).toContain(it.key);
    }
    // "Vaccination" alone (fowl pox) is inside Newcastle disease's "Vaccination, good hygiene": neither is offered against the other
    for (const it of items) {
      if (it.key === 'Vaccination, good hygiene') expect(it.distractors).not.toContain('Vaccination');
      if (it.key === 'Vaccination') expect(it.distractors).not.toContain('Vaccination, good hygiene');
    }
  });

  it('make no item of a table of figures (a worked example’s prices)', () => {
    expect(plan(prices)).toEqual([]);
  });

  it('make no item of a column whose header is a question or a clause, nor of yes/no cells', () => {
    const md = ['| Medium | Good for illiterates? | How to use it |', '|---|---|---|', '| Radio | Yes | Buy airtime |', '| Newspaper | No | Buy space |', '| Billboard | Partly | Rent a site |', '| Town crier | Yes | Pay the crier |', '| Television | Partly | Buy airtime slots |'].join('\n');
    expect(plan(md)).toEqual([]);
  });
});

describe('items from a table of contrasts (a column per subject)', () => {
  const items = plan(inflation);

  it('ask what is true of one subject, the other subject’s statements as distractors, and make no record item of it', () => {
    expect(items.length).toBeGreaterThanOrEqual(2);
    for (const it of items) {
      expect(it.form).toBe('contrast');
      expect(it.stem).toMatch(/^Which of the following is true of (?:inflation|deflation)\?$/);
      const [inflations, deflations] = [inflation.split('\n').slice(4).map((l) => l.split('|')[1]!.trim()), inflation.split('\n').slice(4).map((l) => l.split('|')[2]!.trim())];
      const [mine, theirs] = /deflation/.test(it.stem) ? [deflations, inflations] : [inflations, deflations];
      expect(mine).toContain(it.key);
      for (const d of it.distractors) expect(theirs).toContain(d);
    }
  });

  it('name a subject as the prose does, though a title-case heading has it with a capital ("Causes of Inflation")', () => {
    const md = `Causes of Inflation\n\nEffects of Inflation and Deflation\n\n${inflation}`;
    const got = plan(md);
    expect(got.length).toBeGreaterThan(0);
    for (const it of got) expect(it.stem).toMatch(/true of (?:inflation|deflation)\?$/);
  });

  it('offer no option that names a subject ("Employment may rise (mild inflation)" gives itself away)', () => {
    for (const it of items) for (const o of [it.key, ...it.distractors]) expect(o).not.toMatch(/inflation|deflation/i);
  });

  it('with a column of attributes, each option is "attribute: value"', () => {
    const md = [
      'Insect-pollinated flowers are visited by insects; wind-pollinated flowers are not. Draw an insect-pollinated flower.',
      '| Feature | Insect-pollinated flower | Wind-pollinated flower |',
      '|---|---|---|',
      '| Petals | Large, brightly coloured | Small, dull or absent |',
      '| Scent | Usually scented | No scent |',
      '| Nectar | Nectaries present | No nectar |',
      '| Stigma | Sticky, inside the flower | Long, feathery, outside the flower |',
    ].join('\n');
    const got = plan(md);
    expect(got.length).toBeGreaterThan(0);
    for (const it of got) {
      expect(it.stem).toMatch(/^Which of the following is true of (?:an insect-pollinated flower|wind-pollinated flowers)\?$/);
      for (const o of [it.key, ...it.distractors]) expect(o).toMatch(/^(?:Petals|Scent|Nectar|Stigma): /);
    }
  });
});

describe('the generator', () => {
  it('offers table items as MCQs citing the table, with the row quoted in the explanation', async () => {
    const passages = await readDocx(await makeDocx(['Poultry diseases', 'Diseases cause heavy losses to poultry farmers in Nigeria. Vaccination prevents most viral diseases.', diseases.split('\n').slice(1).join('\n')]));
    const { questions } = generateExtractive(passages, { difficulty: 'balanced', count: 6, types: ['MCQ'] });
    const fromTable = questions.filter((q) => q.citation === 'table 1');
    expect(fromTable.length).toBeGreaterThan(0);
    for (const q of fromTable) {
      expect(q.options).toHaveLength(4);
      expect(q.options!.filter((o) => o.isCorrect)).toHaveLength(1);
      // the header and the row quoted word for word, as the material has them
      expect(unescapeMd(q.explanation)).toContain('| Disease | Cause | Symptoms | Prevention/Control |');
      // a value read off a row is simple recall; the thing with a value is asked at the intermediate tier
      expect(q.difficulty).toBe(/^Which of the following (?:is|are) the /.test(q.prompt) ? 'simple' : 'intermediate');
    }
  });
});

describe('after round 50', () => {
  const parties = [
    'Political parties were formed to fight for independence. The NNDP was the first party; the NCNC followed in 1944.',
    '| Party | Leader | Main base |',
    '|---|---|---|',
    '| NNDP | Herbert Macaulay | Lagos |',
    '| NCNC | Nnamdi Azikiwe | East |',
    '| NEPU | Aminu Kano | North (Kano) |',
    '| AG | Obafemi Awolowo | West |',
    '| NPC | Ahmadu Bello | North |',
    '| UMBC | J. S. Tarka | Middle Belt |',
  ].join('\n');

  it('offers no two distractors that are one answer ("North" beside "North (Kano)")', () => {
    const all = Array.from({ length: 10 }, (_, k) => planTableItems(materialTables(textToParagraphPassages(parties)), prng(k + 1), parties, kindOf)).flat();
    const bases = all.filter((i) => /main base/.test(i.stem));
    expect(bases.length).toBeGreaterThan(0);
    for (const it of bases) expect(it.distractors.includes('North') && it.distractors.includes('North (Kano)')).toBe(false);
  });

  it('keeps items whose keys are names: the explanation quotes the rows, so the quality model sees the distractors beside the key', async () => {
    const passages = await readPptx(await makePptx([['Major parties', ...parties.split('\n').slice(1)], ['Nationalism', 'Nationalism is the struggle of a people to rule themselves.']]));
    const ctx = materialContext(passages, kindOf);
    const { questions } = generateExtractive(passages, { difficulty: 'balanced', count: 6, types: ['MCQ'], lexicon: kindOf });
    const fromTable = questions.filter((q) => /is the leader of/.test(q.prompt));
    expect(fromTable.length).toBeGreaterThan(0);
    for (const q of fromTable) {
      expect(itemFeatures(q, ctx).distractorSamePassage).toBe(1);
      expect(scoreItem(BASE_QUALITY_MODEL, itemFeatures(q, ctx))).toBeGreaterThanOrEqual(BASE_QUALITY_MODEL.threshold);
    }
  });
});

describe('after round 49', () => {
  const solvents = [
    'A solvent dissolves a solute to form a solution. Water cannot dissolve grease or iodine well.',
    '| Solute | Suitable solvent |',
    '|---|---|',
    '| Iodine | Ethanol (tincture of iodine), tetrachloromethane |',
    '| Sulphur | Carbon disulphide (CS₂), methylbenzene (toluene) |',
    '| Palm oil, grease, fat | Kerosene, petrol, hexane |',
    '| Nail polish | Propanone (acetone) |',
    '| Paint (oil-based) | Turpentine |',
    '| Gumboro vaccine | Distilled water |',
    '| Newcastle vaccine | Cold boiled water |',
  ].join('\n');
  const items = planTableItems(materialTables(textToParagraphPassages(solvents)), prng(7), solvents, kindOf);

  it('asks nothing of a row whose value names it ("Ethanol (tincture of iodine)" for iodine gives itself away)', () => {
    expect(items.length).toBeGreaterThan(0);
    // (a table gives four items of its rows: over ten seeds every row's turn comes)
    const all = Array.from({ length: 10 }, (_, k) => planTableItems(materialTables(textToParagraphPassages(solvents)), prng(k + 1), solvents, kindOf)).flat();
    expect(all.some((i) => i.row.includes('Sulphur'))).toBe(true);
    expect(all.some((i) => i.row.includes('Iodine'))).toBe(false);
  });

  it('writes an English word the prose lacks in lower case mid-sentence ("nail polish"); a name WordNet does not know keeps its capital', () => {
    const stems = items.filter((i) => i.form === 'forward').map((i) => i.stem);
    expect(stems.some((s) => /for Nail polish\?/.test(s))).toBe(false);
    const nail = Array.from({ length: 10 }, (_, k) => planTableItems(materialTables(textToParagraphPassages(solvents)), prng(k + 1), solvents, kindOf)).flat();
    expect(nail.some((i) => /nail polish/i.test(i.stem)) && nail.some((i) => /newcastle/i.test(i.stem))).toBe(true);
    for (const i of nail.filter((x) => x.form === 'forward')) {
      if (/nail polish/i.test(i.stem)) expect(i.stem).toMatch(/for nail polish\?$/);
      if (/gumboro/i.test(i.stem)) expect(i.stem).toMatch(/for Gumboro vaccine\?$/);
      // (WordNet knows "newcastle" only as a place: a name, kept)
      if (/newcastle/i.test(i.stem)) expect(i.stem).toMatch(/for Newcastle vaccine\?$/);
    }
    // without a lexicon and without the word in the prose, a capital is kept: a blemish, never a name lowered
    const bare = planTableItems(materialTables(textToParagraphPassages(solvents)), prng(1), solvents);
    for (const i of bare.filter((x) => x.form === 'forward' && /gumboro/i.test(x.stem))) expect(i.stem).toMatch(/Gumboro/);
  });
});
