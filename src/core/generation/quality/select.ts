/**
 * Precision before volume (issue 39 §2): every candidate item an engine made is scored by the
 * quality model; only those at or above its threshold, without a fatal fault, and — when "hard"
 * was asked — of the hard tier are returned, best first, up to the count asked; the rest are
 * withheld and counted by reason. The built-in engine asks its generator for more candidates than
 * it returns (generateQuestions); the LLM's items go through selectByQuality alone. Pure.
 */
import { generateExtractive, type EngineResult, type GenerateOptions } from '../engine/extractive.js';
import type { Passage } from '../passage.js';
import type { GeneratedQuestion, RequestedDifficulty } from '../schemas.js';
import { BASE_QUALITY_MODEL } from './base-model.js';
import { FATAL_FEATURES, itemFeatures, materialContext } from './features.js';
import { scoreItem, type QualityModel } from './model.js';
import type { Lexicon } from '../engine/lexicon.js';
import { recaseNames } from '../engine/recase.js';
import { writtenOut } from '../engine/shorthand.js';
import { framedSteps } from '../engine/procedures.js';
import { unescapeMd } from '../support.js';
import { contentStems, stemSet } from '../text/nlp.js';

/** Why items were withheld, most frequent first. */
export interface Withheld {
  count: number;
  reasons: { reason: string; count: number }[];
}

/** Returned questions (with their `quality`), withheld counts, and notes for the examiner. */
export interface SelectedResult extends EngineResult {
  withheld: Withheld;
}

/** The examiner's words for each fault feature (docs/quality-generation-ratings.md's fault classes). */
const REASONS: Record<string, string> = {
  stemFigureReference: 'refers to a figure, table or text the candidate cannot see',
  sourceScenario: 'names or facts of a case scenario, not teaching content',
  sourcePaperTalk: 'question-paper or examiner wording, not teaching content',
  fewOptions: 'fewer than four options',
  stemDanglingOpener: 'statement does not stand alone (dangling opener)',
  stemPronounFirst: 'statement does not stand alone (pronoun without its noun)',
  stemGarbled: 'garbled or incomplete statement',
  optionClause: 'options not of one form (a clause among descriptions)',
  articleMismatch: '"a"/"an" before the blank fits only the key',
  blankStopPhrase: 'blank on a fixed phrase',
  blankGeneralWord: 'blank on a general word',
  blankProperName: 'blank on a proper name',
  blankIncidental: 'blank on an incidental word',
  keyUnknownWord: 'key not a known term',
  distractorGeneral: 'distractors are general words',
  distractorNotInMaterial: 'distractors not from the material',
  optionLengthImbalance: 'the key stands out by its length',
  falseSwapAntonym: 'false statement made by an antonym swap',
  falseSwapOther: 'false statement made by a word swapped into nonsense',
  falseSelfContradiction: 'false statement that contradicts itself',
  essayTemplate: 'essay asks for "points the material makes"',
};
const NOT_HARD = 'not a hard item ("hard" was asked)';
const LOW = 'below the quality bar';
const LOW_CLOZE = 'a fill-in-the-blank item below the higher bar for blanks';
/**
 * Least a fault must lower an item's log-odds to be named as the reason it was withheld (0.15, odds × 0.86): a
 * fault that barely moved the score is not why the item fell short (round 23: "the key stands out by its length"
 * named for blanks that lost 0.07 to it and 0.77 to being blanks).
 */
const NAMED_FAULT = 0.15;

/**
 * The built-in engine's stock essay prompt, which names no point ("Define X and explain one other important point
 * about X"): of the 12 such essays judged blind in rounds 4–23 none was usable as it stood (7 needed the prompt
 * rewritten, 5 were unusable; docs/decisions.md, "Essays and the quality model").
 */
const UNNAMED_POINTS = /\bexplain (?:one|two|three|four|\d+) other important points?\b/i;
const UNNAMED = 'essay does not say which points it asks for';

/** Why one item is withheld, or null when it passes. */
function withholdReason(model: QualityModel, q: GeneratedQuestion, features: Record<string, number>, score: number, difficulty: RequestedDifficulty, essaysOnly: boolean): string | null {
  if (difficulty === 'hard' && q.difficulty !== 'hard') return NOT_HARD;
  const fatal = FATAL_FEATURES.find((f) => features[f]);
  if (fatal) return REASONS[fatal]!;
  // The judged rounds hold no essay rated usable as-is (only light edits of the prompt's wording,
  // since fixed at its source), so the model cannot rank essays against each other: an essay
  // without a fatal fault is returned, scored, for the examiner who reads its model answer and
  // rubric anyway (docs/decisions.md, "Essays and the quality model").
  // (asked for essays alone, the examiner gets the stock prompt to edit rather than nothing)
  if (q.type === 'SHORT_ESSAY' && !features.essayTemplate) return UNNAMED_POINTS.test(q.prompt) && !essaysOnly ? UNNAMED : null;
  if (score >= (features.mcqCloze && model.clozeThreshold !== undefined ? model.clozeThreshold : model.threshold)) return null;
  // the fault that lowered the score most
  let worst: string | null = null;
  let low = 0;
  for (const [name, w] of Object.entries(model.weights)) {
    const c = w * (features[name] ?? 0);
    if (REASONS[name] && c < low && c <= -NAMED_FAULT) [worst, low] = [name, c];
  }
  return worst ? REASONS[worst]! : features.mcqCloze ? LOW_CLOZE : LOW;
}

/**
 * Scores items and keeps the best (issue 39 §2).
 * @param candidates an engine's items
 * @param passages the material they came from
 * @param opts the model (default BASE_QUALITY_MODEL), how many to return at most, the requested difficulty, WordNet,
 *   the order of the result (`score`, best first, the default; `input`, the candidates' own order — an LLM's paper),
 *   whether only essays were asked for (the stock essay prompt is then returned, not withheld)
 * @returns at most `count` items at or above the threshold (the best ones), each with `quality: { score, features }`; the withheld ones counted by reason
 */
export function selectByQuality(
  candidates: GeneratedQuestion[],
  passages: Passage[],
  opts: { model?: QualityModel; count: number; difficulty: RequestedDifficulty; lexicon?: Lexicon; order?: 'score' | 'input'; essaysOnly?: boolean },
): { questions: GeneratedQuestion[]; withheld: Withheld } {
  const model = opts.model ?? BASE_QUALITY_MODEL;
  const ctx = materialContext(passages, opts.lexicon);
  const why = new Map<string, number>();
  const kept: { q: GeneratedQuestion; score: number; at: number }[] = [];
  candidates.forEach((q, at) => {
    const features = itemFeatures(q, ctx);
    const score = scoreItem(model, features);
    const reason = withholdReason(model, q, features, score, opts.difficulty, opts.essaysOnly ?? false);
    if (reason) why.set(reason, (why.get(reason) ?? 0) + 1);
    else kept.push({ q: { ...q, quality: { score: Math.round(score * 1e4) / 1e4, features } }, score, at });
  });
  kept.sort((a, b) => b.score - a.score || a.at - b.at);
  // one fact, one item: a lower-scored item that asks what a kept one asks is withheld (issue 39 §2, round 13: a notes'
  // summary restates the body, "The most common fish cultured …" beside "Tilapia and catfish are the main species …")
  const weight = stemWeights(passages);
  const chosen: typeof kept = [];
  const facts: Set<string>[] = [];
  for (const k of kept) {
    if (chosen.length === opts.count) break;
    const text = itemFact(k.q);
    const fact = text === null ? null : new Set(contentStems(text));
    if (fact && facts.some((f) => sameFact(fact, f, weight))) {
      why.set(REPEATS, (why.get(REPEATS) ?? 0) + 1);
      continue;
    }
    chosen.push(k);
    if (fact) facts.push(fact);
  }
  // (an LLM orders its own paper: its best `count` keep that order)
  if (opts.order === 'input') chosen.sort((a, b) => a.at - b.at);
  const reasons = [...why].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  return { questions: chosen.map((k) => k.q), withheld: { count: reasons.reduce((s, r) => s + r.count, 0), reasons } };
}

const REPEATS = 'asks the same fact as a better item';
/** Cosine of two items' facts (stems weighted by their rarity in the material) from which they ask the same (measured: docs/decisions.md, "One fact, one item"). */
const SAME_FACT = 0.62;

/** What an objective item asks, as text: a true/false item's statements, an MCQ's stem with its key in the blank; null for an essay. */
function itemFact(q: GeneratedQuestion): string | null {
  if (q.type === 'SHORT_ESSAY') return null;
  const prompt = unescapeMd(q.prompt);
  if (q.type === 'TRUE_FALSE') return prompt.replace(/^True or false\?\s*/, '').replace(/Both of these statements are correct\.?/, '');
  const key = unescapeMd(q.options.find((o) => o.isCorrect)?.text ?? '');
  return /_{3,}/.test(prompt) ? prompt.replace(/_{3,}/g, key) : `${prompt} ${key}`;
}

/** Each content stem's weight: log(1 + sentences ÷ sentences holding it), so a word the material uses everywhere tells two facts apart little. */
function stemWeights(passages: Passage[]): (stem: string) => number {
  const df = new Map<string, number>();
  const sentences = passages.flatMap((p) => p.text.split(/(?<=[.!?])\s+|\n/));
  for (const t of sentences) for (const x of stemSet(t)) df.set(x, (df.get(x) ?? 0) + 1);
  const n = Math.max(1, sentences.length);
  return (x) => Math.log(1 + n / (df.get(x) ?? 1));
}

/** True when two items' facts (their content stems) share most of their weight (cosine ≥ SAME_FACT). */
function sameFact(a: ReadonlySet<string>, b: ReadonlySet<string>, weight: (stem: string) => number): boolean {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const x of a) {
    const w = weight(x) ** 2;
    na += w;
    if (b.has(x)) dot += w;
  }
  for (const x of b) nb += weight(x) ** 2;
  return na > 0 && nb > 0 && dot / Math.sqrt(na * nb) >= SAME_FACT;
}

/** The examiner's note on withheld items and on a short or empty result. */
export function qualityWarnings(returned: number, asked: number, withheld: Withheld, difficulty: RequestedDifficulty): string[] {
  const out: string[] = [];
  if (withheld.count) out.push(`${withheld.count} candidate item(s) were withheld as not worth keeping: ${withheld.reasons.map((r) => `${r.count} ${r.reason}`).join(', ')}.`);
  if (difficulty === 'hard' && returned === 0) out.push('The material gave no hard items worth keeping; none are returned rather than easier ones. Ask for "intermediate" or add material that relates facts across its parts.');
  else if (returned < asked) out.push(`Only ${returned} of the ${asked} requested questions were worth keeping; add more material or notes for more.`);
  return out;
}

/** How many candidates the generator is asked for: enough that withholding the weak ones still leaves `count` (issue 39 §2). */
export function candidateCount(count: number): number {
  return Math.min(count * 5 + 10, 200);
}

/**
 * The built-in engine with the quality model (issue 39 §2): generates candidates (five times the
 * count asked, and ten more; at most 200), scores them, returns the best worth keeping.
 * @returns questions best first, warnings (the generator's own, its "only N of M" replaced by the selection's), withheld counts
 */
export function generateQuestions(material: Passage[], opts: GenerateOptions & { model?: QualityModel }): SelectedResult {
  // (automatic captions come without capitals: names get theirs back before anything reads them; a teacher's
  // shorthand is written out)
  // (and a procedure's steps are framed by the procedure: procedures.ts)
  const passages = framedSteps(writtenOut(recaseNames(material, opts.lexicon), opts.lexicon));
  const raw = generateExtractive(passages, { ...opts, count: candidateCount(opts.count), readAs: material });
  const essaysOnly = opts.types?.length === 1 && opts.types[0] === 'SHORT_ESSAY';
  const { questions, withheld } = selectByQuality(raw.questions, passages, { model: opts.model, count: opts.count, difficulty: opts.difficulty, lexicon: opts.lexicon, essaysOnly });
  // the generator's count notes speak of the candidates, not of what is returned
  const warnings = raw.warnings.filter((w) => !/^Only \d+ of the \d+ requested/.test(w) && !(opts.difficulty === 'hard' && /generated at an easier tier/.test(w)));
  return { questions, warnings: [...warnings, ...qualityWarnings(questions.length, opts.count, withheld, opts.difficulty)], withheld };
}
