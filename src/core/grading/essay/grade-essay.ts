/**
 * The built-in essay grader `hallcbt-rubric-1` (issue 7 §4): a recommendation for the
 * examiner, per rubric criterion, from how well the response covers the criterion's and
 * the model answer's key ideas (stemmed terms), with a word-count penalty outside
 * minWords/maxWords and feedback naming the ideas found and missing. Scores are half
 * marks within [0, maxMarks]. Deterministic; no synonyms (no offline thesaurus is installed).
 */
import type { Evaluation, GradeEssayRequest } from '../../generation/schemas.js';
import { splitSentences, stemSet, wordCount } from '../../generation/text/nlp.js';
import { coverage, foundAndMissing, ideaTexts, ideaUnit, reweight, responseStems, type IdeaUnit, type ResponseStems } from './ideas.js';
import { judgeQuality, lengthPenalty } from './quality.js';

export const RUBRIC_ENGINE = 'hallcbt-rubric-1';

/** Share of an idea's weighted stems that earns it full credit. */
const FULL_CREDIT_AT = 0.6;
const PER_POINT = /\b(one|1|half a|0\.5|two|2) marks? (?:each|per point|for each)\b/i;
const QUALITY_TITLE = /organi[sz]ation|expression|clarity|language|grammar|spelling|presentation|style|structure|coherence|mechanics|communication/i;

/** Rounds to the nearest half mark inside [0, max]. */
export function toHalfMarks(x: number, max: number): number {
  return Math.min(max, Math.max(0, Math.round(x * 2) / 2));
}

interface CriterionResult {
  criterionId: string;
  score: number;
  maxMarks: number;
  feedback: string;
  title: string;
  found: string[];
  missing: string[];
}

/** Marks a "one mark each: a, b, c or d, …" criterion by counting the listed points covered. */
function gradePoints(c: GradeEssayRequest['rubricCriteria'][number], r: ResponseStems, prompt: Set<string>, perPoint: number, topicFactor: number) {
  const list = (c.description ?? '').replace(/^[^:]*:/, '');
  const items = list.split(/[,;.]/).map((s) => s.trim()).filter(Boolean);
  const found: string[] = [];
  const missing: string[] = [];
  for (const item of items) {
    const hit = item.split(/\s+or\s+/).some((alt) => coverage(ideaUnit(alt, prompt), r) >= 0.5);
    (hit ? found : missing).push(item);
  }
  const score = toHalfMarks(found.length * perPoint * topicFactor, c.maxMarks);
  const feedback = found.length
    ? `Credited ${found.length} point(s): ${found.join(', ')}.${score < c.maxMarks ? ` Other acceptable points: ${missing.slice(0, 4).join(', ')}.` : ''}`
    : `None of the expected points found (e.g. ${missing.slice(0, 4).join(', ')}).`;
  return { score, found, missing: score < c.maxMarks ? missing : [], feedback };
}

/** Marks a content criterion by the mean credit of its idea units. */
function gradeContent(units: IdeaUnit[], max: number, r: ResponseStems, topicFactor: number) {
  const found: string[] = [];
  const missing: string[] = [];
  let credit = 0;
  for (const u of units) {
    credit += Math.min(1, coverage(u, r, true) / FULL_CREDIT_AT);
    const fm = foundAndMissing(u, r);
    found.push(...fm.found);
    missing.push(...fm.missing);
  }
  const score = toHalfMarks((max * credit * topicFactor) / units.length, max);
  const f = [...new Set(found)];
  const m = [...new Set(missing)].filter((x) => !f.includes(x));
  const feedback =
    score >= max
      ? `Fully covered: ${f.slice(0, 6).join(', ')}.`
      : f.length
        ? `Found: ${f.slice(0, 6).join(', ')}. Missing: ${m.slice(0, 6).join(', ')}.`
        : `Not addressed; expected ideas such as ${m.slice(0, 6).join(', ')}.`;
  return { score, found: f, missing: score >= max ? [] : m, feedback };
}

/**
 * Grades one essay response against its rubric.
 * Input is assumed valid (GradeEssayRequestSchema: criteria maxMarks sum to maxMarks).
 */
export function gradeEssayBuiltIn(req: GradeEssayRequest): Evaluation {
  const prompt = stemSet(req.questionPrompt);
  const r = responseStems(req.studentResponse);
  const modelUnits = ideaTexts(req.modelAnswer).map((t) => ideaUnit(t, prompt)).filter((u) => u.stems.size);
  const whole = ideaUnit(req.modelAnswer, prompt);
  // Topic gate: an answer that never touches the question's own subject words is off-topic, however many shared terms it has.
  const topic = ideaUnit([...prompt].filter((s) => whole.stems.has(s)).join(' '), new Set());
  const topicShare = topic.stems.size ? coverage(topic, r) : 1;
  const topicFactor = Math.min(1, topicShare / 0.2) ** 2;
  const relevance = coverage(whole, r) * topicFactor;
  const words = wordCount(req.studentResponse);
  const plans = req.rubricCriteria.map((c) => {
    const perPoint = PER_POINT.exec(c.description ?? '');
    const units = ideaTexts(c.description ?? '').map((t) => ideaUnit(t, prompt)).filter((u) => u.stems.size);
    const specific = new Set(units.flatMap((u) => [...u.stems.keys()]));
    const kind = perPoint ? 'points' : specific.size === 0 || QUALITY_TITLE.test(c.title) ? 'quality' : 'content';
    // The title may name the criterion's headline idea ("Evaporation and transpiration") or only say what it is about ("Products").
    const title = ideaUnit(c.title, prompt);
    const titleUnit = [...title.stems.values()].some((w) => w === 1) ? title : null;
    return { c, kind, perPoint, titleUnit, units: kind === 'content' && specific.size < 2 && modelUnits.length ? modelUnits : units };
  });
  // Words every criterion shares ("price", "demand") tell criteria apart poorly: weigh by rarity across criteria.
  const content = plans.filter((p) => p.kind === 'content');
  const df = new Map<string, number>();
  for (const p of content) for (const st of new Set(p.units.flatMap((u) => [...u.stems.keys()]))) df.set(st, (df.get(st) ?? 0) + 1);
  const n = content.length;
  const rarity = (st: string) => Math.log(1 + n / (df.get(st) ?? 1)) / Math.log(1 + n);
  if (n > 1) for (const p of content) reweight(p.titleUnit ? [...p.units, p.titleUnit] : p.units, rarity);
  const results: CriterionResult[] = [];
  for (const { c, kind, perPoint, units, titleUnit } of plans) {
    let out: { score: number; found: string[]; missing: string[]; feedback: string };
    if (!words) out = { score: 0, found: [], missing: [], feedback: 'No response.' };
    else if (kind === 'points') out = gradePoints(c, r, prompt, /half|0\.5/.test(perPoint![1]!) ? 0.5 : /two|2/.test(perPoint![1]!) ? 2 : 1, topicFactor);
    else if (kind === 'quality') {
      const q = judgeQuality(req.studentResponse, relevance);
      out = { score: toHalfMarks(c.maxMarks * q.share, c.maxMarks), found: [], missing: [], feedback: q.feedback };
    } else {
      out = gradeContent(units, c.maxMarks, r, topicFactor);
      // The title's headline idea may only raise the credit (a title word met is evidence; a title word missed is often just a label).
      const withTitle = titleUnit ? gradeContent([...units, titleUnit], c.maxMarks, r, topicFactor) : null;
      if (withTitle && withTitle.score > out.score) out = withTitle;
    }
    results.push({ criterionId: c.id, maxMarks: c.maxMarks, title: c.title, ...out });
  }
  const penalty = words ? lengthPenalty(words, req.minWords, req.maxWords) : null;
  if (penalty) applyPenalty(results, penalty.marks, penalty.reason);
  return summarise(results, req.maxMarks, words, splitSentences(req.studentResponse).length, penalty?.reason);
}

/** Deducts `marks` in half marks, from quality-like criteria first, then the highest scores. */
function applyPenalty(results: CriterionResult[], marks: number, reason: string): void {
  let left = marks;
  const order = [...results].sort((a, b) => Number(b.found.length === 0 && b.missing.length === 0) - Number(a.found.length === 0 && a.missing.length === 0) || b.score - a.score);
  for (const c of order) {
    if (left <= 0) break;
    const take = Math.min(c.score, left);
    if (take > 0) {
      c.score = toHalfMarks(c.score - take, c.maxMarks);
      c.feedback += ` ${take} mark(s) deducted: ${reason}.`;
      left -= take;
    }
  }
}

function summarise(results: CriterionResult[], maxMarks: number, words: number, sentences: number, lengthIssue?: string): Evaluation {
  const total = toHalfMarks(results.reduce((s, c) => s + c.score, 0), maxMarks);
  const strengths = results.filter((c) => c.score >= c.maxMarks * 0.75 && c.score > 0).map((c) => (c.found.length ? `${c.title}: covers ${c.found.slice(0, 4).join(', ')}.` : `${c.title}.`));
  const areas = results
    .filter((c) => c.score < c.maxMarks * 0.5)
    .map((c) => (c.missing.length ? `${c.title}: add ${c.missing.slice(0, 4).join(', ')}.` : `${c.title}: ${c.feedback}`));
  if (lengthIssue) areas.push(`Length: ${lengthIssue}.`);
  const pct = Math.round((total / maxMarks) * 100);
  const band = pct >= 75 ? 'a strong answer' : pct >= 50 ? 'a fair answer with gaps' : pct > 0 ? 'a weak answer' : 'no creditable content';
  const overallComment =
    `Recommended ${total} of ${maxMarks} (${pct}%): ${band}. ${words} words in ${sentences} sentence(s); ` +
    `${results.filter((c) => c.score >= c.maxMarks * 0.75).length} of ${results.length} criteria well covered. ` +
    'This is a recommendation from key-idea matching: review it against the response before approving.';
  return {
    criteriaScores: results.map((c) => ({ criterionId: c.criterionId, score: c.score, maxMarks: c.maxMarks, feedback: c.feedback })),
    totalScore: total,
    maxScore: maxMarks,
    overallComment,
    strengths,
    areasForImprovement: areas,
  };
}
