/**
 * Chemical notation read as words, definition/significance parts marked apart, and notes
 * that state but do not explain (issue 21 §2): general rules of the essay grader.
 */
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { parseGuidance } from '../../src/core/grading/essay/guidance.js';
import { readNotation } from '../../src/core/grading/essay/notation.js';
import { isNote, sectionFor } from '../../src/core/grading/essay/points.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';

describe('readNotation', () => {
  it('names formulas, ions and old systematic names, and marks a written equation', () => {
    expect(readNotation('Ca(HCO3)2 and CaSO4 or MgCl2')).toBe('calcium hydrogen carbonate and calcium sulphate or magnesium chloride');
    expect(readNotation('Ca2+/Mg2+ ions')).toBe('calcium ion/magnesium ion ions');
    expect(readNotation('calcium hydrogentrioxocarbonate(IV) and tetraoxosulphate(VI)')).toBe('calcium hydrogen carbonate and sulphate');
    expect(readNotation('Ca(HCO3)2(aq) -> CaCO3(s) + H2O(l) + CO2(g)')).toBe('calcium hydrogen carbonate -> calcium carbonate + water + carbon dioxide (equation)');
    expect(readNotation('magnesium sulfate')).toBe('magnesium sulphate');
  });

  it('leaves words and abbreviations alone', () => {
    for (const t of ['IAS 1 and IFRS in the UK', 'He is In NO CO', 'Section IV (ii) of the Act', 'Can he boil it?']) expect(readNotation(t)).toBe(t);
  });
});

describe('parts of an answer with their own marks', () => {
  it('reads "Definition 1 mark (…); explaining the significance 2 marks (e.g. …)"', () => {
    const g = parseGuidance('Definition 1 mark (caution so that assets are not overstated); explaining the significance 2 marks (e.g. provisions for losses, inventory at lower of cost and NRV).', 3);
    expect(g.marked).toEqual([
      { text: 'Definition: caution so that assets are not overstated', marks: 1 },
      { text: 'explaining the significance: provisions for losses, inventory at lower of cost and NRV', marks: 2 },
    ]);
  });

  it('finds the model answer\'s item on the criterion\'s subject', () => {
    expect(sectionFor('ii. Prudence', 'i. Going concern: the entity continues. ii. Prudence: caution in judgement. Provisions are made.')).toBe('caution in judgement. Provisions are made.');
    expect(sectionFor('(a) Meaning', 'Inflation is a rise in prices.')).toBeNull();
  });

  const question = {
    questionPrompt: 'Briefly explain the following accounting concepts: i. Prudence ii. Materiality',
    modelAnswer:
      'i. Prudence: caution is exercised so that income and assets are not overstated and expenses and liabilities are not understated. It leads to provisions for doubtful debts and losses, assets written down to their recoverable amount and inventory valued at the lower of cost and net realisable value. ii. Materiality: information is material if its omission or misstatement could influence the economic decisions of users. Material classes of items are presented separately while immaterial items are aggregated.',
    rubricCriteria: [
      { id: 'c1', title: 'i. Prudence', maxMarks: 3, description: 'Definition 1 mark (caution, income and assets not overstated); explaining the significance 2 marks (e.g. provisions for losses, inventory at lower of cost and NRV).' },
      { id: 'c2', title: 'ii. Materiality', maxMarks: 3, description: 'Definition 1 mark (omission or misstatement could influence decisions of users); explaining the significance 2 marks (material items presented separately, immaterial aggregated).' },
    ],
    maxMarks: 6,
  };

  it('credits a definition without its significance apart, and notes no significance', () => {
    const definitions = gradeEssayBuiltIn({ ...question, studentResponse: 'Prudence means that a business should be careful and should not overstate its income and assets. Materiality means an item is material if its omission could influence the decisions of users.' }, relatedWords);
    const full = gradeEssayBuiltIn({ ...question, studentResponse: 'Prudence means caution, so that income and assets are not overstated. Because of it the business makes provisions for doubtful debts and values inventory at the lower of cost and net realisable value. Materiality: an item is material if its omission or misstatement could influence the decisions of users. Material items are therefore presented separately and immaterial ones aggregated.' }, relatedWords);
    const notes = gradeEssayBuiltIn({ ...question, studentResponse: 'i. Prudence - caution, not overstate, provisions\nii. Materiality - influence decisions of users, presented separately' }, relatedWords);
    // Prudence: its definition only (1 of 3); materiality's definition also shares words with its significance here.
    expect(definitions.criteriaScores[0]!.score).toBe(1);
    expect(notes.criteriaScores.map((c) => c.score)).toEqual([1, 1]);
    expect(full.totalScore).toBeGreaterThan(definitions.totalScore + 1);
    expect(notes.totalScore).toBeLessThan(full.totalScore);
    expect(definitions.criteriaScores[0]!.feedback).toMatch(/Definition/);
    expect(definitions.criteriaScores[0]!.feedback).toMatch(/Not found: explaining the significance/);
  });

  it('tells notes from sentences', () => {
    expect(isNote('Going concern - foreseeable future, no liquidation, IAS 1')).toBe(true);
    expect(isNote('Delegated legislation.')).toBe(true);
    expect(isNote('Immunity: the President cannot be taken to court while in office.')).toBe(false);
  });
});
