/**
 * The built-in essay grader `hallcbt-rubric-1` (issue 7 §4): a recommendation for the
 * examiner, per rubric criterion, from how well the response covers the criterion's and
 * the model answer's key ideas (stemmed terms), with a word-count penalty outside
 * minWords/maxWords and feedback naming the ideas found and missing. Scores are half
 * marks within [0, maxMarks]. Deterministic. Related words come only from the `lexicon` the
 * caller passes (the hall passes WordNet's). Where a part asks for N points, only the first N
 * items a candidate lists there are marked (`firstOffered`).
 */
import type { Evaluation, GradeEssayRequest } from '../../generation/schemas.js';
import { splitSentences, stemSet, wordCount } from '../../generation/text/nlp.js';
import { coverage, foundAndMissing, hasStem, ideaTexts, ideaUnit, reweight, responseStems, type IdeaUnit, type Lexicon, type ResponseStems } from './ideas.js';
import { parseGuidance } from './guidance.js';
import { creditPairs, CRITERION_LABEL, planPoints, responseUnits, type PointCredit, type PointPlan, type ResponseUnit } from './points.js';
import { readNotation } from './notation.js';
import { judgeQuality, lengthPenalty } from './quality.js';

export const RUBRIC_ENGINE = 'hallcbt-rubric-1';

/** Share of an idea's weighted stems that earns it full credit. */
const FULL_CREDIT_AT = 0.6;
/** A criterion's part, from its title: "(c) Agents of dispersal" → c. */
const PART_OF_TITLE = /^\s*\(?([a-h])\)/i;
/** Words that name how an answer is written, not what it says ("Organisation", "Expression", "Spelling"). */
const QUALITY_WORD = /^(?:organi[sz]ation|expression|clarity|language|grammar|spelling|punctuation|paragraphing|presentation|style|structure|coherence|mechanics|communication|neatness)$/i;
/** Words that may stand beside them in such a title ("Organisation and relevance", "Use of English"). */
const QUALITY_COMPANION = /^(?:and|of|the|relevance|accuracy|logical|sequence|overall|general|use|english|essay|answer|marks?|level|levels|bands?|descriptors?)$/i;

/**
 * True when a criterion's title names the answer's writing alone ("(c) Organisation and
 * relevance - 3 marks", "Expression/organisation (2)"): its label, brackets and mark hint
 * set aside, every word is a quality word or a companion, and one is a quality word. A
 * title naming the subject's own matter is content however it is worded ("Meaning of file
 * organisation", "iv. Fair presentation": an accounting concept).
 */
function isQualityTitle(title: string): boolean {
  const rest = title.replace(CRITERION_LABEL, '').replace(/\([^)]*\)/g, ' ').replace(/\s[-–—]\s.*$/, '');
  const ws = rest.split(/[^\p{L}]+/u).filter(Boolean);
  return ws.some((w) => QUALITY_WORD.test(w)) && ws.every((w) => QUALITY_WORD.test(w) || QUALITY_COMPANION.test(w));
}

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

type Outcome = { score: number; found: string[]; missing: string[]; feedback: string };

/** Marks a criterion by points (see points.ts): the best `count` points, each credited once; `taken` are points another criterion already credited. */
function gradeByPoints(plan: PointPlan, units: ReturnType<typeof responseUnits>, max: number, topicFactor: number, taken: Set<string>, scope?: Set<number>): Outcome & { used: string[] } {
  // Points and sentences are paired best first, each point credited once (a sentence that names a point only in passing leaves it to the sentence about it).
  const credits = creditPairs(plan, units, scope).sort((x, y) => y.credit - x.credit || y.match - x.match);
  const chosen: PointCredit[] = [];
  const claimed = new Map<number, Set<string>>();
  // A sentence whose best point was already credited from another sentence restates it (WAEC: "a point repeated in other words is credited once"):
  // it may still make another point, but only by naming it, not by sharing a few of its words.
  const restates = new Set<number>();
  const seenUnit = new Set<number>();
  for (const c of credits) {
    const first = !seenUnit.has(c.unit);
    seenUnit.add(c.unit);
    if (c.credit > 0 && first && chosen.some((o) => o.point === c.point && o.unit !== c.unit)) restates.add(c.unit);
    if (restates.has(c.unit) && !c.stated) continue;
    if (c.credit <= 0 || taken.has(c.point.label) || chosen.some((o) => o.point === c.point)) continue;
    if (plan.perPoint && chosen.length >= plan.count) break;
    // The same words in the same sentence are one point, however many listed alternatives they meet.
    const words = new Set(c.point.heads.flatMap((h) => [...h.stems.keys()]).filter((st) => units[c.unit]!.exact.has(st)));
    const seen = claimed.get(c.unit);
    if (seen && [...words].some((w) => seen.has(w))) continue;
    // One sentence explained by the same model-answer sentence is one point, not one per alternative it names.
    // (Items with their own marks are distinct facts even when the model answer states them in one sentence.)
    if (plan.perPoint && c.point.body && chosen.some((o) => o.unit === c.unit && o.point.body?.text === c.point.body!.text)) continue;
    // One sentence or list item is one point of a list, unless it is long enough to make two (WAEC: a point repeated or run together is credited once).
    const inUnit = chosen.filter((o) => o.unit === c.unit).length;
    if (plan.perPoint && inUnit >= 1 + (units[c.unit]!.text.match(/[,;/]|\band\b|\bor\b|\balso\b/gi)?.length ?? 0)) continue;
    claimed.set(c.unit, new Set([...(seen ?? []), ...words]));
    chosen.push(c);
  }
  const raw = chosen.reduce((sum, c) => sum + (plan.perPoint ? plan.perPoint : c.point.marks) * c.credit, 0);
  const score = toHalfMarks(raw * topicFactor, max);
  const describe = (c: PointCredit) => `${c.point.label} (${c.credit >= 0.99 ? 'full' : !c.stated ? 'partly' : plan.statedShare < 1 && c.explained < 0.5 ? 'stated, not explained' : 'partly explained'})`;
  const found = chosen.map((c) => c.point.label);
  const missing = plan.points.filter((pt) => !found.includes(pt.label) && !taken.has(pt.label)).map((pt) => pt.label);
  const wanted = plan.perPoint ? `${plan.count} point(s) × ${+plan.perPoint.toFixed(2)} mark(s)` : `${plan.points.length} marked item(s)`;
  const feedback = chosen.length
    ? `Credited ${chosen.length} point(s) of ${wanted}: ${chosen.map(describe).join('; ')}.${score < max && missing.length ? ` Not found: ${missing.slice(0, 5).join('; ')}.` : ''}`
    : `No creditable point found (${wanted}); expected e.g. ${missing.slice(0, 4).join('; ')}.`;
  const scaled = chosen.length && topicFactor < 0.95 ? ` Points worth ${toHalfMarks(Math.min(raw, max), max)} scaled to ${score}: much of the answer is not about the question's material.` : '';
  return { score, found, missing: score < max ? missing : [], feedback: feedback + scaled, used: found };
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
 * `lexicon` gives related words for paraphrase (the hall passes WordNet); without it only
 * the words themselves, their stems and misspellings match.
 */
export function gradeEssayBuiltIn(original: GradeEssayRequest, lexicon?: Lexicon): Evaluation {
  // Chemical notation is read as words on every side alike ("Ca(HCO3)2" meets "calcium hydrogencarbonate").
  const req = {
    ...original,
    questionPrompt: readNotation(original.questionPrompt),
    modelAnswer: readNotation(original.modelAnswer),
    studentResponse: readNotation(original.studentResponse),
    rubricCriteria: original.rubricCriteria.map((c) => ({ ...c, title: readNotation(c.title), description: c.description === undefined ? undefined : readNotation(c.description) })),
  };
  const prompt = stemSet(req.questionPrompt);
  const r = responseStems(req.studentResponse, lexicon);
  const modelUnits = ideaTexts(req.modelAnswer).map((t) => ideaUnit(t, prompt)).filter((u) => u.stems.size);
  const whole = ideaUnit(req.modelAnswer, prompt);
  // Topic gate: an answer that never touches the question's own subject words is off-topic, however many shared terms it has.
  const shared = [...prompt].filter((s) => whole.stems.has(s));
  // (A model answer that never repeats the question's words leaves the question's own words as its subject.)
  const topic = ideaUnit((shared.length ? shared : [...prompt].filter((s) => !/^\d/.test(s))).join(' '), new Set());
  const topicShare = topic.stems.size ? coverage(topic, r) : 1;
  // Focus: the share of the response's own content words that belong to the question's material. Padding and
  // another topic's essay share a few words with the rubric but are mostly about something else; notes that
  // name the points without the question's words are all material.
  const material = responseStems(`${req.questionPrompt} ${req.modelAnswer} ${req.rubricCriteria.map((c) => `${c.title} ${c.description ?? ''}`).join(' ')}`, lexicon);
  const own = [...r.exact];
  const focus = own.length ? own.reduce((sum, st) => sum + (hasStem(material, st) ? 1 : material.related.has(st) ? 0.5 : 0), 0) / own.length : 0;
  const focusScale = (f: number) => Math.min(1, Math.max(Math.min(1, topicShare / 0.2) ** 2, f >= 0.6 ? 1 : 0)) * Math.min(1, Math.max(0, (f - 0.1) / 0.5));
  let topicFactor = focusScale(focus);
  let relevance = coverage(whole, r) * topicFactor;
  const words = wordCount(original.studentResponse);
  const units = responseUnits(req.studentResponse, lexicon);
  const explainVerb = /\b(?:explain|discuss|describe|examine|account for|analy[sz]e|evaluate|justify|why)\b/i.test(req.questionPrompt);
  let previous: PointPlan | null = null;
  const plans = req.rubricCriteria.map((c) => {
    const g = parseGuidance(c.description, c.maxMarks);
    const units = ideaTexts(c.description ?? '').map((t) => ideaUnit(t, prompt)).filter((u) => u.stems.size);
    const specific = new Set(units.flatMap((u) => [...u.stems.keys()]));
    const byPoints = g.sameAsPrevious || g.count !== undefined || g.alternatives.length > 0 || g.marked.length > 0;
    const kind = isQualityTitle(c.title) ? 'quality' : byPoints ? 'points' : specific.size === 0 && !modelUnits.length ? 'quality' : 'content';
    const pointPlan: PointPlan | null = kind !== 'points' ? null : g.sameAsPrevious && previous ? previous : planPoints(g, c.title, c.description ?? '', c.maxMarks, req.modelAnswer, prompt, explainVerb);
    if (pointPlan) previous = pointPlan;
    // The title may name the criterion's headline idea ("Evaporation and transpiration") or only say what it is about ("Products").
    const title = ideaUnit(c.title, prompt);
    const titleUnit = [...title.stems.values()].some((w) => w === 1) ? title : null;
    return { c, kind, pointPlan, shared: g.sameAsPrevious, titleUnit, units: kind === 'content' && specific.size < 2 && modelUnits.length ? modelUnits : units };
  });
  // Words every criterion shares ("price", "demand") tell criteria apart poorly: weigh by rarity across criteria.
  const content = plans.filter((p) => p.kind === 'content');
  const df = new Map<string, number>();
  for (const p of content) for (const st of new Set(p.units.flatMap((u) => [...u.stems.keys()]))) df.set(st, (df.get(st) ?? 0) + 1);
  const n = content.length;
  const rarity = (st: string) => Math.log(1 + n / (df.get(st) ?? 1)) / Math.log(1 + n);
  if (n > 1) for (const p of content) reweight(p.titleUnit ? [...p.units, p.titleUnit] : p.units, rarity);
  const scopes = subjectScopes(req.rubricCriteria.map((c) => c.title), units);
  // A paraphrase is all points in other words: the share of its sentences that state a point also counts as focus (padding states none).
  const stating = new Set(plans.flatMap((p) => (p.pointPlan ? creditPairs(p.pointPlan, units).filter((c) => c.stated && c.credit >= 0.5).map((c) => c.unit) : [])));
  if (units.length && stating.size / units.length > focus) {
    topicFactor = focusScale(stating.size / units.length);
    relevance = coverage(whole, r) * topicFactor;
  }
  const results: CriterionResult[] = [];
  let taken = new Set<string>();
  for (const [index, { c, kind, pointPlan, shared, units: ideaUnits, titleUnit }] of plans.entries()) {
    let out: Outcome;
    if (!shared) taken = new Set();
    if (!words) out = { score: 0, found: [], missing: [], feedback: 'No response.' };
    else if (kind === 'points') {
      const parts = pointPlan!.points.some((p) => p.evidence);
      const first = pointPlan!.perPoint ? firstOffered(c.title, req.rubricCriteria, units, pointPlan!.count) : undefined;
      const scope = parts ? scopes[index] : undefined;
      const got = gradeByPoints(pointPlan!, units, c.maxMarks, topicFactor, taken, first && scope ? new Set([...scope].filter((i) => first.has(i))) : first ?? scope);
      got.used.forEach((l) => taken.add(l));
      out = got;
    } else if (kind === 'quality') {
      const q = judgeQuality(req.studentResponse, relevance);
      out = { score: toHalfMarks(c.maxMarks * q.share, c.maxMarks), found: [], missing: [], feedback: q.feedback };
    } else {
      out = gradeContent(ideaUnits, c.maxMarks, r, topicFactor);
      // The title's headline idea may only raise the credit (a title word met is evidence; a title word missed is often just a label).
      const withTitle = titleUnit ? gradeContent([...ideaUnits, titleUnit], c.maxMarks, r, topicFactor) : null;
      if (withTitle && withTitle.score > out.score) out = withTitle;
    }
    results.push({ criterionId: c.id, maxMarks: c.maxMarks, title: c.title, ...out });
  }
  // The floor looks at the evidence before the focus scale: a short on-topic answer may be all "off the material".
  floorOnTopic(results, coverage(whole, r), topicShare >= 0.2 || (focus >= 0.5 && topicFactor > 0));
  const penalty = words ? lengthPenalty(words, req.minWords, req.maxWords) : null;
  if (penalty) applyPenalty(results, penalty.marks, penalty.reason);
  return summarise(results, req.maxMarks, words, splitSentences(original.studentResponse).length, penalty?.reason);
}

/**
 * For criteria that each name a subject ("i. Going concern", "ii. Consistency"): the
 * response's sentences about each, from a sentence naming it to the next naming another.
 * A definition or significance is looked for there only; undefined when the response
 * never names the subject (then the whole response is searched).
 */
function subjectScopes(titles: string[], units: ReturnType<typeof responseUnits>): (Set<number> | undefined)[] {
  const names = titles.map((t) => ideaUnit(t.replace(CRITERION_LABEL, ''), new Set()));
  const scopes = titles.map(() => new Set<number>());
  let current: number[] = [];
  units.forEach((u, i) => {
    const named = names.flatMap((n, j) => (n.stems.size && coverage(n, u) >= 0.99 ? [j] : []));
    if (named.length) current = named;
    for (const j of current) scopes[j]!.add(i);
  });
  return scopes.map((s) => (s.size ? s : undefined));
}

/**
 * "Only the first N points are marked" (WAEC/NECO/ICAN marking practice): for a criterion
 * asking for `count` points of one part ("(c) … any three"), when the candidate labelled
 * that part and listed more items there than asked, the part's sentences up to the
 * (count + 1)th item; undefined otherwise (every sentence may earn a point). An item is a
 * numbered or bulleted line (responseUnits); the lines after an item belong to it. Not
 * applied when another criterion names the same part (its items may be that criterion's
 * sub-parts). docs/decisions.md, "Only the first N points are marked".
 */
function firstOffered(title: string, criteria: readonly { title: string }[], units: ResponseUnit[], count: number): Set<number> | undefined {
  const part = PART_OF_TITLE.exec(title)?.[1]?.toLowerCase();
  if (!part || criteria.filter((c) => PART_OF_TITLE.exec(c.title)?.[1]?.toLowerCase() === part).length > 1) return undefined;
  const inPart = units.flatMap((u, i) => (u.part === part ? [i] : []));
  if (inPart.filter((i) => units[i]!.item).length <= count) return undefined;
  const kept = new Set<number>();
  let items = 0;
  for (const i of inPart) {
    if (units[i]!.item && ++items > count) break;
    kept.add(i);
  }
  return kept;
}

/**
 * An answer on the question never gets 0 because one signal is missing: when every
 * criterion scored 0 but the response shares the question's subject and some of the model
 * answer's ideas, the criterion with the most evidence gets half a mark, and says why.
 */
function floorOnTopic(results: CriterionResult[], relevance: number, onQuestion: boolean): void {
  if (results.some((c) => c.score > 0) || !onQuestion || relevance < 0.04) return;
  const target = results.find((c) => c.found.length) ?? results[0]!;
  target.score = Math.min(target.maxMarks, 0.5);
  target.feedback += ' Half a mark: the answer is on the question but makes no creditable point in full.';
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
    .filter((c) => c.score < c.maxMarks * 0.75)
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
