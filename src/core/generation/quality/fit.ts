/**
 * Fitting the generated-item quality model (issue 39 §2; docs/quality.md, "Quality model (issue 39 §2)"):
 * an L2-regularised logistic regression whose penalty pulls the weights toward a prior — zero
 * for the base model fitted on the judged rounds, the base model's weights for a workspace's
 * refit on its examiners' verdicts (so a few verdicts move it a little, many move it a lot).
 * Newton's method with a fixed number of steps: the same data give the same model. Pure.
 */
import { FAULT_FEATURES } from './features.js';
import type { ItemJudgement, QualityFeatures, QualityModel } from './model.js';

/** One training example: features and a target in [0, 1] (1 = usable as-is / kept). */
export interface Example {
  features: QualityFeatures;
  target: number;
}

/** Penalty strengths: `lambda` on the weights, `lambdaBias` on the bias (both toward the prior). */
export interface FitOptions {
  lambda: number;
  lambdaBias: number;
  /** the prior the penalty pulls toward (default: zero weights, zero bias) */
  prior?: { bias: number; weights: Record<string, number> };
  /** Newton steps (default 25) */
  steps?: number;
  /** features that may only lower a score (the judged faults): a positive fitted weight is fixed at the prior's, at most 0, and the rest refitted */
  nonPositive?: readonly string[];
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is n × n, symmetric positive definite here). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const piv = m[c]![c]! || 1e-12;
    for (let r = c + 1; r < n; r++) {
      const k = m[r]![c]! / piv;
      if (k !== 0) for (let j = c; j <= n; j++) m[r]![j]! -= k * m[c]![j]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let j = r + 1; j < n; j++) s -= m[r]![j]! * x[j]!;
    x[r] = s / (m[r]![r]! || 1e-12);
  }
  return x;
}

/**
 * Fits bias and weights over the named features by penalised maximum likelihood:
 * minimise Σ cross-entropy(target, σ(b + w·x)) + λ/2 ‖w − w₀‖² + λ_b/2 (b − b₀)².
 * @param names the features the model weighs (others in the examples are ignored)
 * @returns bias and weights (every name present)
 */
export function fitLogistic(examples: Example[], names: readonly string[], opts: FitOptions): { bias: number; weights: Record<string, number> } {
  const fixed = new Map<string, number>();
  for (;;) {
    const free = names.filter((n) => !fixed.has(n));
    const offset = (e: Example) => [...fixed].reduce((s, [n, w]) => s + w * (e.features[n] ?? 0), 0);
    const fit = newton(examples, free, opts, examples.map(offset));
    const wrong = (opts.nonPositive ?? []).filter((n) => !fixed.has(n) && fit.weights[n]! > 1e-9);
    if (!wrong.length) return { bias: fit.bias, weights: Object.fromEntries(names.map((n) => [n, fixed.get(n) ?? fit.weights[n]!])) };
    for (const n of wrong) fixed.set(n, Math.min(0, opts.prior?.weights[n] ?? 0));
  }
}

/** Newton's method for fitLogistic over the free features; `offsets` adds each example's fixed part to its logit. */
function newton(examples: Example[], names: readonly string[], opts: FitOptions, offsets: number[]): { bias: number; weights: Record<string, number> } {
  const d = names.length + 1; // index 0: the bias
  const prior = [opts.prior?.bias ?? 0, ...names.map((n) => opts.prior?.weights[n] ?? 0)];
  const lam = [opts.lambdaBias, ...names.map(() => opts.lambda)];
  const xs = examples.map((e) => [1, ...names.map((n) => e.features[n] ?? 0)]);
  let w = [...prior];
  for (let step = 0; step < (opts.steps ?? 25); step++) {
    const g = w.map((wi, i) => lam[i]! * (wi - prior[i]!));
    const h = w.map((_, i) => w.map((__, j) => (i === j ? lam[i]! : 0)));
    xs.forEach((x, k) => {
      const z = offsets[k]! + x.reduce((s, xi, i) => s + xi * w[i]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      const r = p - examples[k]!.target;
      const v = Math.max(p * (1 - p), 1e-6);
      for (let i = 0; i < d; i++) {
        if (x[i] === 0) continue;
        g[i]! += r * x[i]!;
        for (let j = 0; j < d; j++) if (x[j] !== 0) h[i]![j]! += v * x[i]! * x[j]!;
      }
    });
    const delta = solve(h, g);
    w = w.map((wi, i) => wi - delta[i]!);
    if (Math.max(...delta.map(Math.abs)) < 1e-9) break;
  }
  return { bias: w[0]!, weights: Object.fromEntries(names.map((n, i) => [n, w[i + 1]!])) };
}

/** The target of an examiner's verdict: keep 1, edit and discard 0 (the model predicts "usable as-is", the target). */
export function verdictTarget(v: ItemJudgement['verdict']): number {
  return v === 'keep' ? 1 : 0;
}

/**
 * The penalty that holds a workspace's refit to the base model: as strong as this many verdicts
 * pulling the other way, roughly (docs/decisions.md, "Generation quality model (issue 39 §2)").
 */
export const REFIT_LAMBDA = 4;

/**
 * Refits the base model on a workspace's examiner verdicts (issue 39 §2): the base weights are
 * the prior, so with a few verdicts the scores move a little toward them and with many a lot.
 * Deterministic; the thresholds stay the base model's (they are bars on "usable as-is").
 * @param base the model to start from (BASE_QUALITY_MODEL)
 * @param judgements stored verdicts with the features their items had
 * @returns a new model; `judgements` counts the verdicts folded in; the base itself when there are none
 */
export function fitQualityModel(base: QualityModel, judgements: ItemJudgement[]): QualityModel {
  if (!judgements.length) return base;
  const names = Object.keys(base.weights);
  const fitted = fitLogistic(
    judgements.map((j) => ({ features: j.features, target: verdictTarget(j.verdict) })),
    names,
    { lambda: REFIT_LAMBDA, lambdaBias: REFIT_LAMBDA / 4, prior: { bias: base.bias, weights: base.weights }, nonPositive: FAULT_FEATURES },
  );
  return { version: `${base.version}+verdicts:${judgements.length}`, bias: fitted.bias, weights: fitted.weights, threshold: base.threshold, ...(base.clozeThreshold !== undefined ? { clozeThreshold: base.clozeThreshold } : {}), judgements: base.judgements + judgements.length };
}
