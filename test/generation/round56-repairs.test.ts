/**
 * Round 56's mends (docs/decisions.md, "Round 56: a class activity, a step of a test, a pair of
 * verbs, a list among single options"). Its eye deck's speaker notes ("Let students face each other
 * in pairs. One covers both eyes … The partner watches the pupil get smaller.") gave two
 * statements, one of them a wrong key; its sulphur notes' "Add dilute HCl to the test solution …"
 * was put as a statement; "run into tanks to cool and solidify" was turned into "to heat and
 * solidify"; and a table gave "Touch, pain, heat, cold" among single words and "temp." as an option.
 */
import { describe, expect, it } from 'vitest';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { rejectReason } from '../../src/core/generation/engine/sentences.js';
import { antonymSwap } from '../../src/core/generation/engine/falsehood.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';
import { timedTextToPassages } from '../../src/uploads/material/captions.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';

describe('a sentence of a class activity', () => {
  it('is no statement', () => {
    expect(rejectReason('One covers both eyes with the palms for about a minute, then uncovers them facing the window.', false)).not.toBeNull();
    expect(rejectReason('The partner watches the pupil get smaller.', false)).not.toBeNull();
  });

  it('leaves a statement that opens with "One" and a noun', () => {
    expect(rejectReason('One mole of a gas occupies 22.4 dm³ at s.t.p.', false)).toBeNull();
  });
});

describe("a step of a test that opens with a verb and an adjective's noun", () => {
  it('is no statement', () => {
    expect(rejectReason('Add dilute HCl to the test solution, then barium chloride solution.', false)).not.toBeNull();
    expect(rejectReason('Pour dilute acid into the flask containing the marble chips.', false)).not.toBeNull();
  });

  it('leaves a statement whose subject is a noun', () => {
    expect(rejectReason('Dilute sulphuric acid reacts with zinc to give hydrogen.', false)).toBeNull();
  });
});

describe('a verb joined to another by "and"', () => {
  it('is not turned into its antonym', () => {
    expect(antonymSwap('The molten sulphur is run into tanks to cool and solidify.', kindOf)).toBeNull();
  });

  it('still turns alone', () => {
    expect(antonymSwap('The molten sulphur is run into tanks where it cools slowly.', kindOf)?.replacement).toBe('heats');
  });
});

describe("a table's options", () => {
  const senses = [
    '| Sense organ | Sense | Stimulus |',
    '|---|---|---|',
    '| Eye | Sight | Light |',
    '| Ear | Hearing & balance | Sound, change of position |',
    '| Nose | Smell | Chemicals in air |',
    '| Tongue | Taste | Chemicals in solution |',
    '| Skin | Touch, pain, heat, cold | Pressure, temp., pain |',
  ].join('\n');
  const items = Array.from({ length: 12 }, (_, k) => planTableItems(materialTables(textToParagraphPassages(senses)), prng(k + 1), senses, kindOf)).flat();

  it('keep a list of three or more from standing out among single options, as key or distractor', () => {
    const forward = items.filter((it) => it.form === 'forward' && /the sense of/.test(it.stem));
    expect(forward.length).toBeGreaterThan(0);
    for (const it of forward) expect([it.key, ...it.distractors]).not.toContain('Touch, pain, heat, cold');
  });

  it('still ask when a list key has a list beside it', () => {
    const breeds = ['| Type | Examples | Main use |', '|---|---|---|', '| Egg-type (light breeds) | White Leghorn, Minorca, Ancona | Egg production |', '| Meat-type (heavy breeds) | Cornish, Light Sussex, Brahma | Meat production |', '| Dual-purpose breeds | Rhode Island Red, Plymouth Rock, New Hampshire | Both eggs and meat |', '| Local (indigenous) fowl | Nigerian local chicken | Eggs, meat, hardiness |'].join('\n');
    const got = Array.from({ length: 12 }, (_, k) => planTableItems(materialTables(textToParagraphPassages(breeds)), prng(k + 1), breeds, kindOf)).flat();
    expect(got.some((it) => it.form === 'forward' && it.key === 'White Leghorn, Minorca, Ancona')).toBe(true);
  });

  it('carry no shorthand', () => {
    for (const it of items) expect([it.key, ...it.distractors].join(' | ')).not.toMatch(/temp\./);
  });
});

describe('a caption track with a decimal point or a stray full stop', () => {
  const lines = [
    'okay so probability is about chance',
    'probability is the measure of the chance or likelihood',
    'that an event will occur',
    'have you written it',
    'the sample space is the set of all the possible outcomes',
    'for example if the probability that it will rain tomorrow is 0.7',
    'then the probability that it will not rain is 0.3',
    'probability is always between zero and one',
    'an impossible event has a probability of zero',
    'a certain event has a probability of one',
    'mr. adewale will take the next class',
    'the complement of an event is everything else in the sample space',
    'are we together',
    'yes ma',
    'an event is a subset of the sample space',
    'mutually exclusive events cannot happen at the same time',
    'independent events do not affect each other',
    'the sum of the probabilities of all outcomes is one',
    'a fair die has six equally likely outcomes',
    'a fair coin has two equally likely outcomes',
    'write this down',
  ];
  const cues = lines.map((text, i) => ({ start: i * 2, end: i * 2 + 1.8, text }));

  it('is read as unpunctuated, its cues on lines of their own', () => {
    const passages = timedTextToPassages(cues);
    expect(passages[0]!.text.split('\n')[0]).toBe('okay so probability is about chance');
  });

  it('gives its statements', () => {
    const usable = indexMaterial(timedTextToPassages(cues)).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(usable).toContain('Probability is the measure of the chance or likelihood that an event will occur.');
  });
});
