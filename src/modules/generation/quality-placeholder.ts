/**
 * A stand-in for the engine's quality model until src/core/generation/quality/ gains
 * `BASE_QUALITY_MODEL` and `fitQualityModel` (issue 39 §2): the lead switches the two imports
 * of verdict-store.ts to them at merge and deletes this file. The contract is
 * src/core/generation/quality/model.ts.
 */
import type { ItemJudgement, QualityModel } from '../../core/generation/quality/model.js';

/** The base model: no weights, threshold 0 (withholds nothing), no judgements. */
export const BASE_QUALITY_MODEL: QualityModel = { version: 'base-placeholder', bias: 0, weights: {}, threshold: 0, judgements: 0 };

/**
 * The base model "refitted" on a workspace's verdicts: the base's weights unchanged, with
 * `judgements` the number of verdicts folded in (the contract's meaning) and the version
 * naming them.
 */
export function fitQualityModel(base: QualityModel, judgements: ItemJudgement[]): QualityModel {
  return judgements.length ? { ...base, version: `${base.version}+${judgements.length}-verdicts`, judgements: judgements.length } : base;
}
