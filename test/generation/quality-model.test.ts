/**
 * The generated-item quality model (issue 39 §2): features on hand-written items show each judged
 * fault (docs/quality-generation-ratings.md), the base model withholds the faulty items and keeps
 * sound ones, a workspace refit moves scores toward its examiners' verdicts, and "hard" returns hard
 * items or says there were none. WordNet is the real one the generation worker reads.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Passage } from '../../src/core/generation/passage.js';
import type { GeneratedQuestion } from '../../src/core/generation/schemas.js';
import { BASE_QUALITY_MODEL } from '../../src/core/generation/quality/base-model.js';
import { itemFeatures, materialContext } from '../../src/core/generation/quality/features.js';
import { fitQualityModel } from '../../src/core/generation/quality/fit.js';
import { scoreItem, type ItemJudgement } from '../../src/core/generation/quality/model.js';
import { generateQuestions, selectByQuality } from '../../src/core/generation/quality/select.js';
import { closeWordNet, kindOf } from '../../src/modules/generation/wordnet.js';

afterAll(() => closeWordNet());

const material: Passage[] = [
  { citation: 'paragraph 1', text: 'Nitrogen promotes vegetative growth and gives leaves their dark green colour. Phosphorus promotes root development and early maturity. Potassium strengthens the stem and improves resistance to disease.' },
  { citation: 'paragraph 2', text: 'A fertiliser is any material added to the soil to supply one or more plant nutrients. Lime is not a fertiliser; it corrects soil acidity. Calcium and magnesium are secondary nutrients.' },
  { citation: 'paragraph 3', text: 'Ohm\'s law states that the current through a conductor is proportional to the voltage across it. Mr Oghiei bought a farm in Canada last year. Both principles follow from indemnity, since they stop the insured from being paid twice.' },
  { citation: 'paragraph 4', text: 'As shown in the figure above, the root hairs absorb water from the soil. In theory, future needs should be measured in the long-term future. Plants absorb nitrogen mainly as nitrate ions.' },
];
const ctx = materialContext(material, kindOf);

let n = 0;
function mcq(statement: string, key: string, distractors: string[], citation = 'paragraph 1', difficulty: GeneratedQuestion['difficulty'] = 'simple'): GeneratedQuestion {
  const id = `q_${++n}`;
  const source = statement.replace('______', key);
  const opts = [key, ...distractors].map((t, i) => ({ id: `o${i}`, keyLabel: 'ABCD'[i]!, text: t, isCorrect: i === 0 }));
  return { id, type: 'MCQ', marks: 1, difficulty, citation, prompt: `Which option completes this statement from the material?\n\n${statement.replace('______', '\\_\\_\\_\\_\\_\\_')}`, explanation: `The answer is “${key}”. The material says (${citation}) “${source}”.`, options: opts };
}
function tf(shown: string, original: string | null, citation = 'paragraph 1', swap?: [string, string]): GeneratedQuestion {
  const isTrue = swap === undefined;
  return {
    id: `q_${++n}`, type: 'TRUE_FALSE', marks: 1, difficulty: 'simple', citation,
    prompt: `True or false? According to the material: ${shown}`,
    explanation: `${isTrue ? 'True.' : `False: the material says “${swap![0]}”, not “${swap![1]}”.`} The material says (${citation}) “${original ?? shown}”.`,
    options: [{ id: 'a', keyLabel: 'A', text: 'True', isCorrect: isTrue }, { id: 'b', keyLabel: 'B', text: 'False', isCorrect: !isTrue }],
  };
}

// sound items: a technical term with nutrients of its kind from the same passage; a believable false statement (a real confusion); a true definition
const goodMcq = mcq('______ promotes vegetative growth and gives leaves their dark green colour.', 'Nitrogen', ['Phosphorus', 'Potassium', 'Calcium']);
const goodFalse = tf('Phosphorus strengthens the stem and improves resistance to disease.', 'Potassium strengthens the stem and improves resistance to disease.', 'paragraph 1', ['Potassium', 'Phosphorus']);
// the MCQ's fact made false: beside the MCQ it gives the MCQ's key away
const sameFactFalse = tf('Phosphorus promotes vegetative growth and gives leaves their dark green colour.', 'Nitrogen promotes vegetative growth and gives leaves their dark green colour.', 'paragraph 1', ['Nitrogen', 'Phosphorus']);
const goodTrue = tf('A fertiliser is any material added to the soil to supply one or more plant nutrients.', null, 'paragraph 2');

// the judged faults, one item each
const faulty: Record<string, [GeneratedQuestion, string]> = {
  'blank on a fixed phrase ("Ohm\'s ___")': [mcq('Ohm\'s ______ states that the current through a conductor is proportional to the voltage across it.', 'law', ['rule', 'theory', 'principle'], 'paragraph 3'), 'blankStopPhrase'],
  'blank on a proper name of a case scenario': [mcq('Mr Oghiei bought a farm in ______ last year.', 'Canada', ['Ghana', 'Kenya', 'Egypt'], 'paragraph 3'), 'blankProperName'],
  'a reference to a figure the candidate cannot see': [tf('As shown in the figure above, the root hairs absorb water from the soil.', null, 'paragraph 4'), 'stemFigureReference'],
  'a dangling opener': [tf('Both principles follow from indemnity, since they stop the insured from being paid twice.', null, 'paragraph 3'), 'stemDanglingOpener'],
  'a true/false made by an antonym swapped into nonsense': [tf('In theory, past needs should be measured in the long-term future.', 'In theory, future needs should be measured in the long-term future.', 'paragraph 4', ['future', 'past']), 'falseSelfContradiction'],
  'distractors of another kind, from nowhere in the material': [mcq('Plants absorb nitrogen mainly as ______ ions.', 'nitrate', ['country', 'team', 'company'], 'paragraph 4'), 'distractorNotInMaterial'],
  'three options only': [{ ...goodMcq, id: 'q_three', options: goodMcq.options.slice(0, 3) }, 'fewOptions'],
  '"a"/"an" before the blank fits only the key': [mcq('Lime is not a ______; it corrects soil acidity.', 'fertiliser', ['acid', 'ion', 'element'], 'paragraph 2'), 'articleMismatch'],
};

describe('itemFeatures', () => {
  it('names each judged fault on a hand-written item', () => {
    for (const [what, [q, feature]] of Object.entries(faulty)) {
      expect(itemFeatures(q, ctx)[feature], what).toBeGreaterThan(0);
      // the sound items do not carry it
      for (const g of [goodMcq, goodFalse, goodTrue]) expect(itemFeatures(g, ctx)[feature], `${what} on ${g.id}`).toBe(0);
    }
  });

  it('tells a sibling swap from an antonym swap and measures distractors of the key\'s kind', () => {
    const f = itemFeatures(goodFalse, ctx);
    expect(f.falseSwapSibling).toBe(1);
    expect(f.falseSwapAntonym).toBe(0);
    const m = itemFeatures(goodMcq, ctx);
    expect(m.distractorKindAgreement).toBe(1);
    expect(m.distractorSamePassage).toBeGreaterThan(0.5);
    expect(itemFeatures(faulty['distractors of another kind, from nowhere in the material']![0], ctx).distractorKindAgreement).toBe(0);
  });
});

describe('the base model (fitted on judged rounds 2 and 3)', () => {
  it('withholds every faulty item and keeps the sound ones, best first, with reasons', () => {
    const all = [...Object.values(faulty).map(([q]) => q), goodMcq, goodFalse, goodTrue];
    const r = selectByQuality(all, material, { count: 20, difficulty: 'balanced', lexicon: kindOf });
    expect(r.questions.map((q) => q.id).sort()).toEqual([goodMcq.id, goodFalse.id, goodTrue.id].sort());
    expect(r.withheld.count).toBe(Object.keys(faulty).length);
    expect(r.withheld.reasons.reduce((s, x) => s + x.count, 0)).toBe(r.withheld.count);
    const scores = r.questions.map((q) => q.quality!.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const q of r.questions) expect(q.quality!.score).toBeGreaterThanOrEqual(BASE_QUALITY_MODEL.threshold);
  });

  it('keeps one item of a fact: the lower-scored of two that ask the same is withheld, and said', () => {
    const alone = selectByQuality([sameFactFalse], material, { count: 20, difficulty: 'balanced', lexicon: kindOf });
    expect(alone.questions).toHaveLength(1);
    const r = selectByQuality([goodMcq, sameFactFalse, goodTrue], material, { count: 20, difficulty: 'balanced', lexicon: kindOf });
    expect(r.questions).toHaveLength(2);
    expect(r.questions.map((q) => q.id)).toContain(goodTrue.id);
    expect(r.withheld.reasons).toEqual([{ reason: 'asks the same fact as a better item', count: 1 }]);
  });
});

describe('fitQualityModel', () => {
  const features = itemFeatures(goodMcq, ctx);
  const other = itemFeatures(goodTrue, ctx);
  const discards = (k: number): ItemJudgement[] => Array.from({ length: k }, () => ({ verdict: 'discard' as const, features }));

  it('moves a workspace\'s scores toward its verdicts: a few a little, many a lot; deterministic', () => {
    const base = scoreItem(BASE_QUALITY_MODEL, features);
    const few = fitQualityModel(BASE_QUALITY_MODEL, discards(3));
    const many = fitQualityModel(BASE_QUALITY_MODEL, discards(60));
    expect(scoreItem(few, features)).toBeLessThan(base);
    expect(scoreItem(many, features)).toBeLessThan(scoreItem(few, features));
    expect(base - scoreItem(few, features)).toBeLessThan(base - scoreItem(many, features));
    expect(scoreItem(many, features)).toBeLessThan(many.threshold);
    expect(many.judgements).toBe(60);
    expect(fitQualityModel(BASE_QUALITY_MODEL, discards(60))).toEqual(many);
    // kept items of a kind the base doubts move it up
    const kept = fitQualityModel(BASE_QUALITY_MODEL, Array.from({ length: 30 }, () => ({ verdict: 'keep' as const, features: other })));
    expect(scoreItem(kept, other)).toBeGreaterThan(scoreItem(BASE_QUALITY_MODEL, other));
    expect(fitQualityModel(BASE_QUALITY_MODEL, [])).toBe(BASE_QUALITY_MODEL);
  });
});

describe('"hard" is honest', () => {
  it('returns only hard items, or none with a warning saying so', () => {
    for (const passages of [material, [{ citation: 'paragraph 1', text: readFileSync(new URL('../fixtures/generation/photosynthesis.md', import.meta.url), 'utf8') }]]) {
      const r = generateQuestions(passages, { difficulty: 'hard', count: 10, lexicon: kindOf });
      expect(r.questions.every((q) => q.difficulty === 'hard')).toBe(true);
      if (!r.questions.length) expect(r.warnings.join(' ')).toMatch(/no hard items/);
      expect(r.warnings.join(' ')).not.toMatch(/easier tier/);
    }
  });
});

describe('the reason given for a withheld item', () => {
  // a cloze item whose key is a little longer than its distractors: the length costs it little, being a blank much
  const longKey = mcq('______ promotes vegetative growth and gives leaves their dark green colour.', 'Nitrogen gas', ['Phosphorus', 'Potassium', 'Calcium']);
  const model = (lengthWeight: number) => ({ ...BASE_QUALITY_MODEL, bias: 0, weights: { mcqCloze: -3, optionLengthImbalance: lengthWeight }, threshold: 0.5, clozeThreshold: 0.5 });
  it('names a fault only when it lowered the score by a real amount; a blank held back by being a blank says so (round 23)', () => {
    expect(itemFeatures(longKey, ctx).optionLengthImbalance).toBeGreaterThan(0);
    expect(itemFeatures(longKey, ctx).optionLengthImbalance).toBeLessThan(0.5);
    const small = selectByQuality([longKey], material, { count: 5, difficulty: 'balanced', lexicon: kindOf, model: model(-0.1) });
    expect(small.withheld.reasons).toEqual([{ reason: 'a fill-in-the-blank item below the higher bar for blanks', count: 1 }]);
    const large = selectByQuality([longKey], material, { count: 5, difficulty: 'balanced', lexicon: kindOf, model: model(-5) });
    expect(large.withheld.reasons).toEqual([{ reason: 'the key stands out by its length', count: 1 }]);
  });
});
