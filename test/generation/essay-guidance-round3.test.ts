/**
 * Round 3 of the essay grader (issue 21 §2): marking guidance as more schemes write it
 * ("1/2 mark each", "1 1/2 marks each", "Any three, 1 mark each (…):", a heading before
 * the first "(1)" item, "1 mark for naming …, 1 mark for a correct example", what earns
 * nothing, "nothing for a restatement of the name"), symbols and units read as words,
 * figures of a worked answer, and an essay's frame (introduction, headings, conclusion)
 * earning no point. Texts are small and written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import type { GradeEssayRequest } from '../../src/core/generation/schemas.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';
import { excludedPoints, parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { readSymbols } from '../../src/core/grading/essay/notation.js';

const grade = (r: GradeEssayRequest) => gradeEssayBuiltIn(r, relatedWords);

describe('guidance read in round 3', () => {
  it('reads "1/2 mark each" and "1 1/2 marks each" with their counts', () => {
    expect(parseGuidance('1/2 mark each for any four correct: yam, cassava, maize, rice, millet. Maximum 2.', 2)).toMatchObject({ count: 4, perPoint: 0.5 });
    expect(parseGuidance('Award 1 1/2 marks each for any 2 methods explained (1 1/2 x 2) = 3.', 3)).toMatchObject({ count: 2, perPoint: 1.5 });
  });

  it('reads "1 mark for naming …, 1 mark for a correct example" as a split and takes the "Accept:" list, not a word like "acceptable"', () => {
    const g = parseGuidance('Any two points, 2 marks each: 1 mark for naming the fallacy correctly, 1 mark for a correct example (everyday examples acceptable). Accept: straw man, false dilemma, slippery slope, ad hominem. Maximum 4.', 4);
    expect(g).toMatchObject({ count: 2, perPoint: 2, statedShare: 0.5 });
    expect(g.alternatives).toEqual(['straw man', 'false dilemma', 'slippery slope', 'ad hominem']);
  });

  it('finds the list after "Any three, 1 mark each (…):" and leaves a lead-in before the list\'s colon out of the first item', () => {
    expect(parseGuidance('Any three, 1 mark each (stating is enough): crop rotation; cover crops; contour ploughing; terracing. Maximum 3.', 3).alternatives).toEqual(['crop rotation', 'cover crops', 'contour ploughing', 'terracing']);
    expect(parseGuidance('Any two, 2 marks each. Accept uses in the home or in industry: cooking fuel; generating electricity; making fertiliser.', 4).alternatives[0]).toBe('cooking fuel');
  });

  it('does not make the heading of a "(1)" list part of its first item', () => {
    const g = parseGuidance('1 mark each for the following points, maximum 3: beaker weighed empty (1); filled with the liquid and weighed again (1); volume read from the cylinder (1).', 3);
    const items = [...g.alternatives, ...g.marked.map((m) => m.text)];
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.join(' | ')).not.toMatch(/following|maximum/i);
    expect(items[0]).toMatch(/^beaker weighed empty/);
  });

  it('reads what earns nothing, and "nothing for a restatement of the name" as marks for the explanation only', () => {
    expect(excludedPoints('Any two benefits to the farmer. Benefits to the government (tax revenue, foreign exchange) earn no marks.')).toEqual(['tax revenue', 'foreign exchange']);
    expect(excludedPoints('Symptoms of malaria (fever, headache) are not causes - no credit.')).toEqual(['fever', 'headache', 'Symptoms of malaria']);
    expect(parseGuidance('Award 1 1/2 marks each for any 2 methods explained. Nothing for a restatement of the name.', 3).statedShare).toBe(0);
  });
});

describe('symbols read as words', () => {
  it('reads compound units, subscripts, θ and Δ, and Dr/Cr when both are written', () => {
    expect(readSymbols('density in kg m⁻³')).toContain('kilogram per metre cubed');
    expect(readSymbols('speed 20 m/s')).toContain('metre per second');
    expect(readSymbols('The unit is Jkg-1K-1')).toContain('joule per kilogram per kelvin');
    expect(readSymbols('read θ₂ then find Δθ')).toMatch(/temperature θ2 .*change in +temperature/);
    expect(readSymbols('Dr Rent account, Cr Cash account')).toBe('debit Rent account, credit Cash account');
    expect(readSymbols('Dr Bello treated the patient.')).toBe('Dr Bello treated the patient.');
  });
});

const mulching: Omit<GradeEssayRequest, 'studentResponse'> = {
  questionPrompt: 'Explain two advantages of mulching to the soil. [4 marks]',
  modelAnswer:
    '(i) Conserves soil moisture: the mulch cuts evaporation from the soil surface, so the soil stays moist in the dry season. (ii) Suppresses weeds: the cover shades weed seedlings so they cannot grow. (iii) Adds organic matter: the mulch rots and adds humus and nutrients to the soil. (iv) Reduces erosion: the cover breaks the impact of raindrops and slows runoff.',
  rubricCriteria: [
    {
      id: 'c1',
      title: 'Advantages to the soil',
      maxMarks: 4,
      description: 'Any two points, 2 marks each: 1 for stating, 1 for explanation. Accept: conserves soil moisture; suppresses weeds; adds organic matter; reduces erosion. Advantages to the farmer (saves labour cost, higher profit) earn no marks.',
    },
  ],
  maxMarks: 4,
};

describe('marking rules of round 3', () => {
  it('gives no point for what the guidance says earns nothing, even when it shares a point\'s words', () => {
    const ev = grade({ ...mulching, studentResponse: 'Mulching saves labour cost because the farmer weeds less often. The farmer also makes a higher profit from the farm.' });
    expect(ev.criteriaScores[0]!.score).toBeLessThanOrEqual(0.5);
    const good = grade({ ...mulching, studentResponse: 'Mulching conserves soil moisture because the mulch reduces evaporation from the soil. It also suppresses weeds, since the cover shades the young weeds.' });
    expect(good.totalScore).toBeGreaterThanOrEqual(3);
  });

  it('gives an introduction, headings in capitals and a conclusion no point', () => {
    const point = 'Mulching conserves soil moisture because the mulch reduces evaporation from the soil.';
    const padded = grade({
      ...mulching,
      studentResponse: `INTRODUCTION\nSoil is the top layer of the earth. Farmers worry about weeds, erosion, organic matter and moisture every season.\n\nADVANTAGES OF MULCHING TO THE SOIL\n${point}\n\nCONCLUSION\nIn conclusion, mulching reduces erosion and suppresses weeds and adds organic matter.`,
    });
    const bare = grade({ ...mulching, studentResponse: point });
    expect(padded.totalScore).toBeLessThanOrEqual(bare.totalScore);
  });

  it('credits a one-mark point in full when it is stated, although the question says "describe"', () => {
    const ev = grade({
      questionPrompt: 'Describe how you would find the density of a liquid. [3 marks]',
      modelAnswer: 'Weigh an empty beaker. Pour in the liquid and weigh the beaker again; the difference is the mass of the liquid. Read the volume of the liquid from a measuring cylinder. Density is mass divided by volume.',
      rubricCriteria: [{ id: 'c1', title: 'Method', maxMarks: 3, description: 'Any three, 1 mark each: beaker weighed empty; beaker with liquid weighed again; volume read from a measuring cylinder; density found as mass divided by volume.' }],
      maxMarks: 3,
      studentResponse: 'The empty beaker is weighed. The beaker with the liquid is weighed again. The volume is read from a measuring cylinder.',
    });
    expect(ev.totalScore).toBe(3);
  });

  it('credits a worked answer by its figures', () => {
    const req = {
      questionPrompt: 'A car travels 120 m in 8 s. Calculate its average speed. [2 marks]',
      modelAnswer: 'Average speed = distance / time = 120 / 8 = 15 m/s.',
      rubricCriteria: [{ id: 'c1', title: 'Calculation', maxMarks: 2, description: 'Correct substitution, speed = 120 / 8 (1); answer 15 m s⁻¹ (1).' }],
      maxMarks: 2,
    };
    expect(grade({ ...req, studentResponse: 'v = 120/8 = 15 m/s' }).totalScore).toBe(2);
    expect(grade({ ...req, studentResponse: 'v = 120/8 = 12 m/s' }).totalScore).toBeLessThan(2);
  });
});
