/**
 * Round 55's mends (docs/decisions.md, "Round 55: a table's stems written as a sentence"). Its
 * hormones deck gave ten B items and no A among its table items: "Which of the following is the
 * location of Testes / Ovaries?", "… the location of adrenals?", "… of Pancreas (islets of
 * Langerhans)?", "… has “ripening of fruits” as its main effects?", "… as its use in agric.?",
 * and the slide "Pituitary = master gland (GH, TSH, ACTH, …)" kept its list of hormones.
 */
import { describe, expect, it } from 'vitest';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { reverseStem, rowName } from '../../src/core/generation/engine/table-stems.js';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

const glands = [
  '## ENDOCRINE GLANDS',
  '- Ductless glands → secrete hormones straight into blood; e.g. pancreas',
  '**Thymus gland**',
  '- active in childhood',
  '',
  '| Gland | Location |',
  '|---|---|',
  '| Pituitary | base of brain, below hypothalamus |',
  '| Thyroid | neck, in front of trachea |',
  '| Thymus | chest, behind breastbone, above heart |',
  '| Adrenals | on top of each kidney |',
  '| Pancreas (islets of Langerhans) | abdomen, in loop of duodenum |',
  '| Testes / Ovaries | scrotum / lower abdomen (pelvic cavity) |',
].join('\n');

const plant = [
  'Plant hormones are made in small amounts and control growth.',
  '',
  '| Hormone | Main effects | Use in agric. |',
  '|---|---|---|',
  '| Auxins | cell elongation, tropisms, root formation | rooting of cuttings, seedless fruits |',
  '| Gibberellins | stem elongation, break seed dormancy | bigger fruits, malting of barley |',
  '| Cytokinins | cell division, delay ageing of leaves | tissue culture |',
  '| Abscisic acid | dormancy, closing of stomata, leaf fall | storage of seeds |',
  '| Ethylene | ripening of fruits | ripening of banana |',
].join('\n');

const plan = (md: string, seed: number) => planTableItems(materialTables(textToParagraphPassages(md)), prng(seed), md, kindOf);
const stems = (md: string) => [...new Set(Array.from({ length: 12 }, (_, k) => plan(md, k + 1)).flat().map((it) => it.stem))];

describe("a record table's stems", () => {
  it('give a part of the body its article and write it in lower case, without its bracketed aside', () => {
    const s = stems(glands);
    expect(s).toContain('Which of the following is the location of the pancreas?');
    expect(s).toContain('Which of the following is the location of the adrenals?');
    expect(s).toContain('Which of the following is the location of the thymus?');
    expect(s.join('\n')).not.toMatch(/of (?:pituitary|adrenals|Pancreas|Thymus)\?|Langerhans\)\?/);
  });

  it('ask nothing of a row of two things', () => {
    const items = Array.from({ length: 12 }, (_, k) => plan(glands, k + 1)).flat();
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) expect([it.stem, it.key].join(' ')).not.toMatch(/Testes|scrotum/);
  });

  it('read a slash without spaces as one name, and keep a bracket the name needs', () => {
    expect(rowName('HIV/AIDS')).toBe('HIV/AIDS');
    expect(rowName('Testes / Ovaries')).toBeNull();
    expect(rowName('Maize weevil / rice weevil')).toBeNull();
    expect(rowName('Egg-type (light breeds)')).toBe('Egg-type (light breeds)');
    expect(rowName('Stem borers (larvae of moths)')).toBe('Stem borers');
  });

  it('give no article to a made thing or a substance', () => {
    const transport = ['Modes of transport differ in speed and cost.', '', '| Mode | Speed |', '|---|---|', '| Road | fast over short distances |', '| Rail | moderate |', '| Pipeline | slow but continuous |', '| Air | fastest |', '| Water | slowest |'].join('\n');
    const s = stems(transport);
    expect(s.some((x) => /of (?:rail|pipeline|road)\?/.test(x))).toBe(true);
    expect(s.join('\n')).not.toMatch(/of the (?:rail|pipeline|road)\?/);
  });

  it("read a name's head before its preposition", () => {
    const inks = ['Chromatography separates dyes in ink and the sand from salt.', '', '| Mixture | Method |', '|---|---|', '| Dyes in ink | chromatography |', '| Salt and sand | dissolving and filtration |', '| Iron and sulphur | magnet |', '| Kerosene and water | separating funnel |'].join('\n');
    expect(stems(inks).join('\n')).not.toMatch(/the dyes in ink/);
  });

  it('ask for one of several things an attribute names with "among", and skip a header in shorthand', () => {
    const s = stems(plant);
    expect(s).toContain('Which of the following hormones has “ripening of fruits” among its main effects?');
    expect(s.join('\n')).not.toMatch(/as its main effects|agric/);
  });

  it('keep "as" for an attribute that names one thing', () => {
    expect(reverseStem('diseases', 'Virus', 'cause')).toBe('Which of the following diseases has “Virus” as its cause?');
    expect(reverseStem('crops', 'maize', 'main use')).toBe('Which of the following crops has “maize” as its main use?');
    expect(reverseStem('diseases', 'fever', 'symptoms')).toBe('Which of the following diseases has “fever” among its symptoms?');
    expect(reverseStem('constitutions', 'regions given more powers', 'link with nationalists')).toBe('Which of the following constitutions has “regions given more powers” as its link with nationalists?');
  });
});

describe("a slide's arrow from a substance to a process", () => {
  it('defines nothing, though a service or a process may be defined by a process', () => {
    const md = '- **Prolactin** → milk production after birth\n- **Digestion** → breakdown of large food molecules into small soluble ones';
    expect(equalsBullet('Prolactin → milk production after birth', md, new Set(['Prolactin', 'Digestion']))).toBeNull();
    expect(equalsBullet('Parcel post → sending of goods in packages', '- **Parcel post** → sending of goods in packages', new Set(['Parcel post']))).toBe('Parcel post is the sending of goods in packages.');
    expect(equalsBullet('Digestion → breakdown of large food molecules into small soluble ones', md, new Set(['Prolactin', 'Digestion']))).toBe('Digestion is the breakdown of large food molecules into small soluble ones.');
  });
});

describe('a slide definition with a list in brackets', () => {
  it('drops the list', () => {
    const md = '- Pituitary = master gland that controls other glands (GH, TSH, ACTH, FSH, LH)';
    expect(equalsBullet(md.slice(2), md)).toBe('Pituitary is the master gland that controls other glands.');
  });
});
