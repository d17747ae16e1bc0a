/**
 * The base quality model of generated items (issue 39 §2), written by
 * `npx tsx scripts/quality/fit-generation-model.ts` — do not edit by hand.
 * Fitted on the judged rounds 2, 3 and 4 (docs/quality-generation-ratings.md; items rebuilt from
 * the frozen generators 718f25e, 9d3bca2 and d87debb): logistic regression, A (usable as-is) = 1,
 * B and C = 0, L2 penalty chosen by leave-one-material-out log-loss; the fault features
 * (FAULT_FEATURES) may only lower a score. Development figures, not
 * hold-out ones (docs/quality.md, "Quality model (issue 39 §2)"):
 * 180 judged items (round 2: 74, round 3: 73, round 4: 33; 52 A). Leave-one-material-out (11 materials; kept = score at or above the threshold and no fatal fault), lambda 1, threshold 0.21, cloze MCQs 0.41: kept 41 of 180 (22.8%), as-is 82.9% (all items 28.9%), unusable 12.2% (all items 48.9%), accuracy 86.1%.
 *   r2:ICAN Foundation Nov 2023: 7/36 kept, 6 A, 1 C
 *   r2:Electric circuits: 3/14 kept, 3 A, 0 C
 *   r2:Principles of insurance: 2/14 kept, 2 A, 0 C
 *   r2:Water cycle lecture: 2/10 kept, 1 A, 0 C
 *   r3:ICAN Foundation Nov 2023: 6/36 kept, 2 A, 3 C
 *   r3:Soil fertility and fertilisers: 4/17 kept, 3 A, 1 C
 *   r3:The Nigerian federal system: 1/6 kept, 1 A, 0 C
 *   r3:The cell and its organelles lecture: 3/14 kept, 3 A, 0 C
 *   r4:Rocks and Minerals: Types, Formation and Economic Importance in Nigeria: 4/10 kept, 4 A, 0 C
 *   r4:demand-supply-slides: 3/7 kept, 3 A, 0 C
 *   r4:nervous-system-captions: 6/16 kept, 6 A, 0 C
 */
import type { QualityModel } from './model.js';

/** The model every workspace starts from (fitQualityModel refits it on the workspace's verdicts). */
export const BASE_QUALITY_MODEL: QualityModel = {
  version: 'base-2026-11-28',
  bias: -0.6592,
  weights: {
    isTrueFalse: 1.9291,
    isEssay: -0.8962,
    mcqCloze: -0.8067,
    mcqDefinition: -0.2328,
    statements: 0.0872,
    citations: 0.2398,
    tierIntermediate: -0.4594,
    tierHard: -0.4765,
    keyFalse: -0.4818,
    falseSwapSibling: -0.1668,
    falseSwapAntonym: -0.7825,
    falseSwapOther: 0,
    falseSelfContradiction: -0.2794,
    multiKeyedTrue: -0.0944,
    blankStopPhrase: 0,
    blankGeneralWord: 0,
    blankProperName: -0.1607,
    blankIncidental: 0,
    blankAtStart: 0.0989,
    keyFrequency: -1.0199,
    keyWords: -0.0155,
    keyUnknownWord: -0.4382,
    distractorKindAgreement: -0.2078,
    distractorSharedHypernym: 0.7312,
    distractorGeneral: -0.551,
    distractorSamePassage: 0.8713,
    distractorNotInMaterial: 0,
    articleMismatch: -0.2982,
    optionLengthImbalance: -0.2659,
    optionClause: -0.2328,
    fewOptions: -0.4123,
    stemDanglingOpener: -1.2533,
    stemPronounFirst: -0.4486,
    stemFigureReference: -0.2328,
    stemWords: 0.0862,
    stemGarbled: -0.2328,
    sourceScenario: 0,
    sourcePaperTalk: -0.8063,
    essayTemplate: -0.7486,
  },
  threshold: 0.21,
  clozeThreshold: 0.41,
  judgements: 0,
};
