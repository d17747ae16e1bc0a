/**
 * Round 58's mends (docs/decisions.md, "Round 58: a pupil's answer, a claim turned, a teacher's
 * direction, a thing named by its kind, an odd one out of another sort, a method's name"). Its
 * evolution lecture gave "The giraffe with short neck will eat the leaves" from a pupil's answer
 * (a wrong key), "Lamarck said the animal stretched and acquired the short neck" and "The book is
 * called on the origin of species"; its physics notes "The positive sign shows the direction (Lenz's
 * law); ignore it when calculating magnitude"; its irrigation deck "NOT a problem of irrigation"
 * keyed "Rivers and streams" (a source of water) and "the water use of flood/basin".
 */
import { describe, expect, it } from 'vitest';
import { spokenSentences } from '../../src/core/generation/engine/spoken.js';
import { rejectReason } from '../../src/core/generation/engine/sentences.js';
import { bothSides } from '../../src/core/generation/engine/swap-checks.js';
import { buildOddOneOut, headingLists, planOddOneOut } from '../../src/core/generation/engine/heading-lists.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { wayName } from '../../src/core/generation/engine/table-stems.js';
import { textToParagraphPassages, type Passage } from '../../src/core/generation/passage.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

describe("a pupil's turn in a lecture's captions", () => {
  const cues = [
    'so let us go back to the giraffe',
    "how will darwin explain the giraffe's neck",
    'anybody',
    'yes blessing',
    'ma the giraffe with long neck will eat the leaves',
    'and the one with short neck will die',
    'good the giraffes with long necks reached the leaves on tall trees',
  ];

  it('is no statement of the lesson; the teacher saying it is', () => {
    const said = spokenSentences(cues);
    expect(said.join(' ')).not.toMatch(/will eat the leaves/);
    expect(said).toContain('The giraffes with long necks reached the leaves on tall trees.');
    expect(spokenSentences(['the giraffe with long neck will eat the leaves'])).toEqual(['The giraffe with long neck will eat the leaves.']);
  });

  it('includes a chorus answer and an answer to "sir"', () => {
    expect(spokenSentences(['no ma it cannot move without energy'])).toEqual([]);
    expect(spokenSentences(['sir motion is when something is moving from place to place'])).toEqual([]);
  });

  it('"by the way" opens a new clause, not the end of the one before', () => {
    const said = spokenSentences(['that is what we call natural selection', 'nature is selecting the ones that fit', 'by the way the phrase survival of the fittest', 'it was not darwin who first used it']);
    expect(said).toContain('Nature is selecting the ones that fit.');
    expect(said.join(' ')).not.toMatch(/by the way/i);
  });
});

describe('statements that lean on what the candidate cannot see', () => {
  it("refuses a teacher's direction run on after the fact", () => {
    expect(rejectReason("The negative sign shows the direction (Lenz's law); ignore it when calculating magnitude.", false)).toBe('an instruction');
    expect(rejectReason('Iron is magnetic; cobalt and nickel are magnetic too.', false)).toBeNull();
  });

  it('refuses a thing named only by a word for its kind, as subject or in a claim', () => {
    for (const s of ['The book is called on the origin of species.', 'Lamarck said the animal stretched and acquired the long neck.', "The negative sign shows the direction of the induced e.m.f."]) {
      expect(rejectReason(s, false), s).toBe('refers to something outside the sentence');
    }
    // (the word names which thing, or is part of a longer name)
    for (const s of ['The book value of an asset is its cost less depreciation.', 'The animal kingdom is divided into vertebrates and invertebrates.', 'The sign of the charge on an electron is negative.']) {
      expect(rejectReason(s, false), s).toBeNull();
    }
  });
});

describe('a claim turned about a thing the material describes both ways', () => {
  const material = 'the ancestors of the giraffe had short necks. darwin said the long neck was already there as a variation. the short neck ones died of hunger.';
  const text = 'Darwin said the long neck was already there as a variation.';
  const swap = { start: text.indexOf('long'), end: text.indexOf('long') + 4, original: 'long', replacement: 'short' };

  it('is no false statement', () => {
    expect(bothSides(text, swap, material)).toBe(true);
  });

  it('unless the claim is not reported or the material says one side only', () => {
    const plain = 'The ancestors of the giraffe had short necks.';
    expect(bothSides(plain, { start: plain.indexOf('short'), end: plain.indexOf('short') + 5, original: 'short', replacement: 'long' }, material + ' the long neck ones reproduced.')).toBe(false);
    expect(bothSides(text, swap, 'darwin said the long neck was already there as a variation.')).toBe(false);
  });
});

describe("an odd one out's key", () => {
  const deck: Passage[] = [
    { citation: 'slide 1', text: 'IRRIGATION AND DRAINAGE\nAgricultural Science – SS 2' },
    { citation: 'slide 2', text: 'IMPORTANCE OF IRRIGATION\n- Allows all-year-round cropping\n- Higher yields\n- Softens soil for tillage\n- Makes arid land cultivable' },
    { citation: 'slide 3', text: 'SOURCES OF WATER\n- Rivers and streams\n- Lakes\n- Dams and reservoirs\n- Wells and boreholes' },
    { citation: 'slide 4', text: 'PROBLEMS OF IRRIGATION\n- Salinisation\n- Waterlogging\n- Spread of water-borne diseases\n- Leaching of nutrients' },
  ];

  it('is an item of the opposed verdict, never of another sort of list', () => {
    for (let k = 1; k <= 12; k++) {
      const plans = planOddOneOut(headingLists(deck), prng(k), deck);
      const items = plans.map((p) => buildOddOneOut(p, 'intermediate', prng(k), k));
      for (const q of items) {
        const key = q.options!.find((o) => o.isCorrect)!.text;
        expect(key, q.prompt).not.toMatch(/Rivers|Lakes|Dams|Wells/);
        if (/problem/.test(q.prompt)) expect(['Allows all-year-round cropping', 'Higher yields', 'Softens soil for tillage', 'Makes arid land cultivable']).toContain(key);
        expect(q.prompt).not.toMatch(/source/);
      }
      expect(items.some((q) => /NOT a problem of irrigation/.test(q.prompt))).toBe(true);
    }
  });
});

describe("a table of methods", () => {
  const md = [
    '| Method | Cost | Water use | Best for |',
    '|---|---|---|---|',
    '| Flood | low | high wastage | rice, level land |',
    '| Furrow | moderate | moderate | row crops such as tomato |',
    '| Sprinkler | high | low to moderate | vegetables on uneven land |',
    '| Drip | very high | lowest | orchards in dry areas |',
    '| Watering can | very low | low | small gardens and nurseries |',
  ].join('\n');

  it("names a row's method as a method", () => {
    const stems = Array.from({ length: 8 }, (_, k) => planTableItems(materialTables(textToParagraphPassages(md)), prng(k + 1), md, kindOf)).flat().filter((t) => t.form === 'forward').map((t) => t.stem);
    expect(stems.length).toBeGreaterThan(0);
    for (const s of stems) expect(s).toMatch(/of the [\w\s/]+ method\?$/);
  });

  it('leaves a name proper, or one that says it, as it is', () => {
    expect(wayName('furrow', 'Method')).toBe('the furrow method');
    expect(wayName('Hausa', 'System')).toBe('Hausa');
    expect(wayName('crop rotation system', 'System')).toBe('crop rotation system');
    expect(wayName('the pancreas', 'Gland')).toBe('the pancreas');
    expect(wayName('biotechnology', 'Method', 'examples')).toBe('biotechnology');
  });
});
