/**
 * The generated-item quality model (issue 39 §2; docs/quality.md, "Generation"): every item the
 * engines can make is described by named numeric features, scored 0–1 by a logistic model, and
 * returned only when its score reaches the model's threshold. The base model is learnt from the
 * project's own judged rounds; a workspace's model is the base refitted on its examiners'
 * keep / edit / discard verdicts (stored per workspace by the hall).
 *
 * This file is the contract between the engine (which computes features and scores) and the
 * hall (which stores verdicts and asks for a workspace's model). Pure: no I/O.
 */

/** Named numeric features of one generated item (e.g. `blankIsStopPhrase: 1`); units are the feature's own. */
export type QualityFeatures = Record<string, number>;

/** An examiner's verdict on a generated item: kept as it was, kept after an edit, or discarded. */
export type ItemVerdict = 'keep' | 'edit' | 'discard';

/** One stored verdict with the features the item had when it was generated. */
export interface ItemJudgement {
  verdict: ItemVerdict;
  features: QualityFeatures;
}

/** A logistic model: score = 1 / (1 + e^-(bias + Σ weights[f] × features[f])). */
export interface QualityModel {
  /** where the model came from, e.g. "base-2026-11-28" or "base-2026-11-28+workspace:12" */
  version: string;
  bias: number;
  weights: Record<string, number>;
  /** items scoring below it are withheld */
  threshold: number;
  /**
   * The bar for cloze MCQs ("Which option completes this statement …"), when higher than
   * `threshold`: the kind the judges rated lowest in every round (docs/decisions.md,
   * "Cloze MCQs get their own bar (issue 39 §2)"); absent: `threshold`.
   */
  clozeThreshold?: number;
  /** how many examiner verdicts were folded in (0 for the base model) */
  judgements: number;
}

/**
 * Scores one item's features with a model.
 * @returns the probability-like score in [0, 1]; features the model does not know count 0.
 */
export function scoreItem(model: QualityModel, features: QualityFeatures): number {
  let z = model.bias;
  for (const [name, w] of Object.entries(model.weights)) z += w * (features[name] ?? 0);
  return 1 / (1 + Math.exp(-z));
}
