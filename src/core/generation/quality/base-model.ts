/**
 * The base quality model of generated items (issue 39 §2), written by
 * `npx tsx scripts/quality/fit-generation-model.ts` — do not edit by hand.
 * Fitted on the judged rounds 2 and 3 (docs/quality-generation-ratings.md; items rebuilt from
 * the frozen generators 718f25e and 9d3bca2): logistic regression, A (usable as-is) = 1,
 * B and C = 0, L2 penalty chosen by leave-one-material-out log-loss; the fault features
 * (FAULT_FEATURES) may only lower a score. Development figures, not
 * hold-out ones (docs/quality.md, "Quality model (issue 39 §2)"):
 * 147 judged items (round 2: 74, round 3: 73; 37 A). Leave-one-material-out (8 materials; kept = score at or above the threshold and no fatal fault), lambda 2, threshold 0.23: kept 40 of 147 (27.2%), as-is 60.0% (all items 25.2%), unusable 25.0% (all items 51.7%), accuracy 80.3%.
 *   r2:ICAN Foundation Nov 2023: 9/36 kept, 6 A, 1 C
 *   r2:Electric circuits: 4/14 kept, 4 A, 0 C
 *   r2:Principles of insurance: 2/14 kept, 2 A, 0 C
 *   r2:Water cycle lecture: 3/10 kept, 1 A, 1 C
 *   r3:ICAN Foundation Nov 2023: 10/36 kept, 2 A, 6 C
 *   r3:Soil fertility and fertilisers: 7/17 kept, 4 A, 2 C
 *   r3:The Nigerian federal system: 1/6 kept, 1 A, 0 C
 *   r3:The cell and its organelles lecture: 4/14 kept, 4 A, 0 C
 */
import type { QualityModel } from './model.js';

/** The model every workspace starts from (fitQualityModel refits it on the workspace's verdicts). */
export const BASE_QUALITY_MODEL: QualityModel = {
  version: 'base-2026-11-28',
  bias: -0.686,
  weights: {
    isTrueFalse: 1.2883,
    isEssay: -0.5706,
    mcqCloze: -0.5842,
    mcqDefinition: -0.1369,
    statements: 0.0949,
    citations: 0.1348,
    tierIntermediate: -0.4338,
    tierHard: -0.2659,
    keyFalse: -0.4173,
    falseSwapSibling: -0.0485,
    falseSwapAntonym: -0.403,
    falseSwapOther: 0,
    falseSelfContradiction: -0.1459,
    multiKeyedTrue: 0.3261,
    blankStopPhrase: -0.073,
    blankGeneralWord: -0.015,
    blankProperName: -0.1008,
    blankIncidental: 0,
    blankAtStart: 0.0659,
    keyFrequency: -0.6523,
    keyWords: -0.1207,
    keyUnknownWord: -0.2843,
    distractorKindAgreement: -0.1991,
    distractorSharedHypernym: 0.7818,
    distractorGeneral: -0.3648,
    distractorSamePassage: 0.38,
    distractorNotInMaterial: 0,
    articleMismatch: -0.224,
    optionLengthImbalance: -0.0937,
    optionClause: -0.1369,
    fewOptions: -0.2704,
    stemDanglingOpener: -0.1948,
    stemPronounFirst: -0.2461,
    stemFigureReference: -0.1369,
    stemWords: -0.0355,
    stemGarbled: -0.1369,
    sourceScenario: 0,
    sourcePaperTalk: -0.5894,
    essayTemplate: -0.5706,
  },
  threshold: 0.23,
  judgements: 0,
};
