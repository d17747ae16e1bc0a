/**
 * Calibrated essay marking (issue 39 §1; docs/decisions.md, "Calibrated essay marking
 * learns from the examiner"): one question's scripts are graded together; the scripts the
 * examiner has marked teach the engine that examiner's scale for this question. Each
 * script's raw evidence (the rubric engine's share of marks, its similarity to the model
 * answer) is fitted to the examiner's marks by a monotone fit (monotone.ts), blended with
 * the marks of the most similar marked scripts, and averaged with the uncalibrated
 * recommendation (PRIOR_MARKS); before any mark, the batch's strongest scripts set the
 * scale (cohortScale). Stateless: refitted on every call. Pure.
 */
import type { Evaluation, GradeEssaysRequest } from '../../generation/schemas.js';
import { isContentWord, stem, words } from '../../generation/text/nlp.js';
import { gradeEssayBuiltIn, toHalfMarks } from './grade-essay.js';
import type { Lexicon } from './ideas.js';
import { isotonicBlocks, predictMonotone, type FitPoint } from './monotone.js';

/** The batch: one question's rubric and its scripts, each with `examinerScore` (0–maxMarks) when the examiner has marked it. */
export type GradeEssaysInput = GradeEssaysRequest;

/** How far to trust a recommendation. */
export type Confidence = 'high' | 'medium' | 'low';

/** The recommendation for one unmarked script. */
export interface EssayRecommendation {
  id: string;
  totalScore: number;
  criteriaScores: Evaluation['criteriaScores'];
  confidence: Confidence;
  calibrated: boolean;
}

/** What the batch returns: the scripts to mark next, and a recommendation per unmarked script. */
export interface GradeEssaysResult {
  markFirst: string[];
  recommendations: EssayRecommendation[];
}

/** The engine's name in responses: the rubric engine (hallcbt-rubric-1) calibrated to the examiner. */
export const CALIBRATED_ENGINE = 'hallcbt-calibrated-1';

/** Scripts `markFirst` names while fewer than this many are marked (at least), and after. */
const MARK_FIRST = 3;
/** Where `markFirst` looks first: these fractions down the batch ranked by raw evidence (a strong, a middling and a weak script). */
const FIRST_AT = [0.15, 0.45, 0.75];
/** Weight of the anchors "no evidence → 0" and "full evidence → full marks" in the isotonic fit, beside each marked script (weight 1). */
const ANCHOR_WEIGHT = 0.5;
/** Most a script's nearest marked scripts move its fitted mark (share of the way to their marks). */
const NEIGHBOUR_SHARE = 0.1;
/**
 * Weight, in examiner marks, of the uncalibrated recommendation beside the fit of the
 * examiner's marks (docs/decisions.md, "A few marks refine the batch's scale; they do not
 * replace it"): with 3 marks the two count alike, with 12 the fit counts four times as much.
 */
const PRIOR_MARKS = 3;
/** Scripts with words a batch needs before its own strongest scripts set the evidence scale (cohortScale). */
const COHORT_MIN = 6;
/** Where the batch's reference script sits: this share of the way down from its strongest (the top decile). */
const COHORT_TOP = 0.1;
/** Power on evidence ÷ the reference's: convex, so a weak script is not lifted as far as a strong one. */
const COHORT_POWER = 1.5;
/** Highest scaled evidence kept (for the fit: scripts beyond the reference stay ranked). */
const COHORT_CAP = 1.5;

type Vector = Map<string, number>;

/** Content-stem term frequencies, with WordNet-related stems at a third of a word's weight. */
function termVector(text: string, lexicon?: Lexicon): Vector {
  const v: Vector = new Map();
  for (const w of words(text)) {
    if (!isContentWord(w)) continue;
    const s = stem(w);
    v.set(s, (v.get(s) ?? 0) + 1);
    if (lexicon) for (const [r, weight] of lexicon(w)) { const rs = stem(r); if (rs !== s) v.set(rs, (v.get(rs) ?? 0) + weight / 3); }
  }
  return v;
}

/** TF-IDF weighting over the documents, in place; returns the vectors' norms. */
function weigh(vectors: Vector[]): number[] {
  const df = new Map<string, number>();
  for (const v of vectors) for (const t of v.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = vectors.length;
  return vectors.map((v) => {
    let norm = 0;
    for (const [t, tf] of v) {
      // Sublinear term frequency (a related word's fraction stays as it is) times inverse document frequency.
      const w = (tf >= 1 ? 1 + Math.log(tf) : tf) * Math.log(1 + n / df.get(t)!);
      v.set(t, w);
      norm += w * w;
    }
    return Math.sqrt(norm);
  });
}

function cosine(a: Vector, na: number, b: Vector, nb: number): number {
  if (!na || !nb) return 0;
  let dot = 0;
  const [small, big] = a.size < b.size ? [a, b] : [b, a];
  for (const [t, w] of small) dot += w * (big.get(t) ?? 0);
  return dot / (na * nb);
}

/** The engine's evidence about each script, before any examiner mark. */
interface Evidence {
  evaluation: Evaluation;
  /** Raw evidence in [0, 1]: the engine's share of marks beside the similarity to the model answer. */
  x: number;
  /** Similarity to the model answer (0–1). */
  model: number;
  words: number;
}

/**
 * Grades each script with the rubric engine (or takes the evaluation another engine gave it,
 * `given[i]`) and measures its similarity to the model answer; `sim(i, j)` is the similarity
 * of scripts i and j (TF-IDF cosine over the batch).
 */
function gather(input: GradeEssaysInput, lexicon?: Lexicon, given?: readonly (Evaluation | null | undefined)[]): { evidence: Evidence[]; sim: (i: number, j: number) => number } {
  const { scripts, ...rubric } = input;
  const vectors = [rubric.modelAnswer, ...scripts.map((s) => s.studentResponse)].map((t) => termVector(t, lexicon));
  const norms = weigh(vectors);
  const sim = (i: number, j: number) => cosine(vectors[i + 1]!, norms[i + 1]!, vectors[j + 1]!, norms[j + 1]!);
  const evidence = scripts.map((s, i) => {
    const evaluation = given?.[i] ?? gradeEssayBuiltIn({ ...rubric, studentResponse: s.studentResponse }, lexicon);
    const model = cosine(vectors[0]!, norms[0]!, vectors[i + 1]!, norms[i + 1]!);
    const share = evaluation.totalScore / rubric.maxMarks;
    // The engine's share leads; the similarity to the model answer (0.6 is as close as a full answer gets) steadies it.
    return { evaluation, model, x: 0.7 * share + 0.3 * Math.min(1, model / 0.6), words: words(s.studentResponse).length };
  });
  return { evidence, sim };
}

/**
 * The batch's evidence on its own scale (docs/decisions.md, "Before any mark, the batch's
 * strongest scripts set the scale"): each script's evidence divided by that of the script
 * a tenth of the way down from the strongest (COHORT_TOP), to the power COHORT_POWER,
 * capped at COHORT_CAP. The rubric engine's totals are squeezed low on schemes it was not
 * written for (a script an examiner gave full marks can get a third), while its ranking
 * holds up better; in a batch of a class's scripts the top decile are good answers. Null
 * when fewer than COHORT_MIN scripts have words, or none has evidence (the engine's own
 * scale is kept). Each value ≥ 0; 1 is the reference script.
 */
function cohortScale(evidence: readonly Evidence[]): number[] | null {
  const xs = evidence.filter((e) => e.words > 0).map((e) => e.x).sort((a, b) => b - a);
  if (xs.length < COHORT_MIN) return null;
  const ref = xs[Math.ceil(xs.length * COHORT_TOP) - 1]!;
  if (!(ref > 0)) return null;
  return evidence.map((e) => Math.min(COHORT_CAP, (e.x / ref) ** COHORT_POWER));
}

/**
 * The unmarked scripts to mark next, most informative first: spread over the raw evidence
 * scale. First the scripts nearest 15%, 45% and 75% down the batch ranked by evidence (a
 * strong, a middling and a weak script: a blank or off-topic script's mark teaches the fit
 * little), skipping a place a marked script already holds; then the script farthest in
 * evidence from every script marked or chosen. `MARK_FIRST` ids (fewer when fewer are open).
 */
function chooseMarkFirst(input: GradeEssaysInput, evidence: Evidence[]): string[] {
  const ranked = input.scripts.map((s, i) => ({ id: s.id, i, x: evidence[i]!.x, marked: s.examinerScore !== undefined })).filter((o) => evidence[o.i]!.words > 0).sort((a, b) => b.x - a.x || a.i - b.i);
  const place = new Map(ranked.map((o, k) => [o.id, ranked.length > 1 ? k / (ranked.length - 1) : 0]));
  const chosen: string[] = [];
  const held = () => ranked.filter((o) => o.marked || chosen.includes(o.id));
  const open = () => ranked.filter((o) => !o.marked && !chosen.includes(o.id));
  for (const at of FIRST_AT) {
    if (chosen.length >= MARK_FIRST || !open().length) break;
    if (held().some((o) => Math.abs(place.get(o.id)! - at) < 0.15)) continue;
    const near = open().reduce((a, b) => (Math.abs(place.get(b.id)! - at) < Math.abs(place.get(a.id)! - at) ? b : a));
    chosen.push(near.id);
  }
  while (chosen.length < MARK_FIRST && open().length) {
    const at = held().map((o) => o.x);
    const far = open().reduce((a, b) => (distance(b.x, at) > distance(a.x, at) ? b : a));
    chosen.push(far.id);
  }
  return chosen;
}

/** Distance from `x` to the nearest of `at` (x itself when `at` is empty). */
function distance(x: number, at: number[]): number {
  return at.length ? Math.min(...at.map((a) => Math.abs(a - x))) : x;
}

/**
 * The monotone fit of the examiner's marks on the evidence: the mean of the isotonic fit
 * (with the anchors "no evidence → 0" and "full evidence → full marks") and the
 * proportional fit y = k·x by least squares (one parameter, steady with few marks), within
 * [0, max]. `marked` holds evidence in [0, 1] and marks in [0, max].
 */
export function fitMarks(marked: FitPoint[], max: number): (x: number) => number {
  const blocks = isotonicBlocks([...marked, { x: 0, y: 0, w: ANCHOR_WEIGHT }, { x: 1, y: max, w: ANCHOR_WEIGHT }]);
  // No anchor at full evidence here: an engine that squeezes its scale must not pull the slope back down.
  const sxx = marked.reduce((s, p) => s + (p.w ?? 1) * p.x * p.x, 0);
  const k = sxx > 0 ? marked.reduce((s, p) => s + (p.w ?? 1) * p.x * p.y, 0) / sxx : max;
  return (x) => Math.min(max, Math.max(0, 0.5 * predictMonotone(blocks, x) + 0.5 * Math.min(max, k * x)));
}

/** Criterion scores rescaled to a new total, in half marks, each within its criterion's marks, summing to `total` where the criteria allow. */
function rescale(evaluation: Evaluation, total: number): Evaluation['criteriaScores'] {
  const raw = evaluation.totalScore;
  const room = evaluation.criteriaScores.reduce((s, c) => s + c.maxMarks, 0);
  const out = evaluation.criteriaScores.map((c) => ({ ...c, score: toHalfMarks(raw > 0 ? (c.score * total) / raw : (c.maxMarks * total) / room, c.maxMarks) }));
  let left = toHalfMarks(total, room) - out.reduce((s, c) => s + c.score, 0);
  for (const c of [...out].sort((a, b) => b.maxMarks - b.score - (a.maxMarks - a.score))) {
    if (Math.abs(left) < 0.25) break;
    const step = left > 0 ? Math.min(left, c.maxMarks - c.score) : Math.max(left, -c.score);
    c.score += step;
    left -= step;
  }
  return out;
}

/**
 * Grades one question's scripts together (input valid per GradeEssaysRequestSchema).
 * Returns `markFirst` and one recommendation per script without `examinerScore`, totals
 * and criterion scores in half marks. Without an examiner mark: the engine's own totals,
 * lifted (never lowered) to the batch's own scale when it has 6 scripts or more with words
 * and the evidence is the rubric engine's (cohortScale: its top decile taken as full marks),
 * `calibrated: false`, confidence "low" where the engine's own total is under 40% of the
 * marks (a paraphrase looks like a weak answer to it), else "medium". With marks: the
 * monotone fit of the script's evidence (on the batch's scale where there is one)
 * blended with its nearest marked scripts' marks, `calibrated: true`, confidence "low"
 * with 1–2 marks, "medium" from 3, "high" from 5 when a marked script is close (cosine ≥
 * 0.5). A script with no words is 0, "high", `calibrated: false`. Never throws on valid input.
 * `evaluations[i]`, when given, is another engine's evaluation of script i (an LLM's:
 * docs/llm.md, "Essays"), used in place of the rubric engine's as its evidence, so the
 * examiner's marks calibrate either engine the same way; a missing one is the rubric engine's.
 */
export function gradeEssaysCalibrated(input: GradeEssaysInput, lexicon?: Lexicon, evaluations?: readonly (Evaluation | null | undefined)[]): GradeEssaysResult {
  const { evidence, sim } = gather(input, lexicon, evaluations);
  const max = input.maxMarks;
  // Another engine's marks (an LLM's) are on the examiner's scale already: only the rubric engine's are rescaled.
  const scale = evaluations?.some(Boolean) ? null : cohortScale(evidence);
  // The evidence the fit sees, in [0, 1]: the batch-scaled one where there is a scale.
  const x = (i: number) => (scale ? scale[i]! / COHORT_CAP : evidence[i]!.x);
  const marked = input.scripts.flatMap((s, i) => (s.examinerScore === undefined ? [] : [i]));
  const fit = fitMarks(marked.map((i) => ({ x: x(i), y: input.scripts[i]!.examinerScore! })), max);
  const recommendations = input.scripts.flatMap((s, i): EssayRecommendation[] => {
    if (s.examinerScore !== undefined) return [];
    const e = evidence[i]!;
    if (!marked.length || !e.words) {
      const own = e.evaluation.totalScore;
      // Lifted, never lowered, to the batch's scale (its top decile taken as full marks); a blank script stays 0.
      const total = scale && e.words ? Math.max(own, toHalfMarks(max * Math.min(1, scale[i]!), max)) : own;
      // The engine vouches for no response, and for a high share of its own; a low share may be a paraphrase it cannot read.
      const confidence: Confidence = !e.words ? 'high' : own >= max * 0.4 ? 'medium' : 'low';
      const criteriaScores = total === own ? e.evaluation.criteriaScores : rescale(e.evaluation, total);
      return [{ id: s.id, totalScore: total, criteriaScores, confidence, calibrated: false }];
    }
    const fitted = fit(x(i));
    // The marked scripts most like this one (similarity to the 4th power), trusted as far as the closest is close, up to NEIGHBOUR_SHARE.
    const near = marked.map((j) => ({ s: sim(i, j), y: input.scripts[j]!.examinerScore! }));
    const weights = near.map((n) => n.s ** 4);
    const sum = weights.reduce((a, b) => a + b, 0);
    const neighbour = sum > 0 ? near.reduce((a, n, k) => a + n.y * weights[k]!, 0) / sum : fitted;
    const closest = Math.max(...near.map((n) => n.s));
    const trust = Math.min(NEIGHBOUR_SHARE, closest);
    const calibrated = (1 - trust) * fitted + trust * neighbour;
    // The rubric engine's uncalibrated recommendation (on the batch's scale where there is one) counts as PRIOR_MARKS marks' worth
    // beside the fit; an uncalibrated 0 is the engine finding nothing it can read, not a mark, and leaves the fit alone. (Another
    // engine's marks, an LLM's, are fitted alone: the average was measured on the rubric engine only.)
    const own = e.evaluation.totalScore;
    const prior = scale ? Math.max(own, max * Math.min(1, scale[i]!)) : own;
    const weight = prior > 0 && !evaluations?.[i] ? PRIOR_MARKS : 0;
    // A 0 is the examiner's to give: a script in which the engine found any evidence is recommended half a mark at least.
    const total = Math.max(e.x > 0 ? 0.5 : 0, toHalfMarks((marked.length * calibrated + weight * prior) / (marked.length + weight), max));
    const confidence: Confidence = marked.length >= 5 && closest >= 0.5 ? 'high' : marked.length >= MARK_FIRST ? 'medium' : 'low';
    return [{ id: s.id, totalScore: total, criteriaScores: rescale(e.evaluation, total), confidence, calibrated: true }];
  });
  return { markFirst: chooseMarkFirst(input, evidence), recommendations };
}
