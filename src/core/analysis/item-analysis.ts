/**
 * Item analysis of one exam (issue 6 §4): from a response matrix (one row per
 * candidate, one column per question) to the per-question facility index,
 * discrimination index, corrected point-biserial correlation and share choosing each
 * option, and the exam's mean, standard deviation and KR-20. Pure: the database side
 * is in response-matrix.ts. Candidates may have been given different questions (issue 37:
 * sections' draws and subjects): an item's statistics count only the candidates who were
 * given it, each judged against their own total (docs/decisions.md, "Sections, draws and
 * subject combinations").
 */
import { discriminationIndex, facilityIndex, kr20, mean, pointBiserial, standardDeviation, upperLowerGroups } from './statistics.js';

export interface MatrixItem {
  questionId: string;
  type: string;
  marks: number;
  prompt?: string;
  /** options in the examiner's order with their canonical key labels (objective items) */
  options: { optionId: string; keyLabel: string; text?: string; isCorrect: boolean }[];
}

export interface MatrixCandidate {
  attemptId: string;
  /** marks awarded per item (0 when unanswered or not yet marked; null: the item was not given to this candidate) */
  scores: (number | null)[];
  /** chosen option id per item; null when omitted or an essay */
  choices: (string | null)[];
}

export interface ResponseMatrix {
  items: MatrixItem[];
  candidates: MatrixCandidate[];
}

export interface OptionShare {
  optionId: string;
  keyLabel: string;
  text?: string;
  isCorrect: boolean;
  count: number;
  /** count / candidates (0–1) */
  share: number;
}

export interface ItemStatistics {
  questionId: string;
  number: number;
  type: string;
  marks: number;
  prompt?: string;
  /** candidates who were given the item (all of them unless papers differ) */
  candidates: number;
  facilityIndex: number | null;
  discriminationIndex: number | null;
  pointBiserial: number | null;
  options: OptionShare[];
  omitted: { count: number; share: number };
  /** hints for the examiner: a possibly wrong key, a weak distractor, … */
  flags: string[];
}

export interface ExamAnalysis {
  candidates: number;
  items: number;
  maxScore: number;
  mean: number | null;
  standardDeviation: number | null;
  kr20: number | null;
  /** size of each of the upper and lower groups (27% of candidates) */
  groupSize: number | null;
  questions: ItemStatistics[];
}

const round = (x: number | null, d = 4) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

/** Examiner hints; thresholds follow common practice (facility 0.2–0.9, D ≥ 0.2). */
function flagsFor(s: Omit<ItemStatistics, 'flags'>): string[] {
  const flags: string[] = [];
  if (s.facilityIndex !== null && s.facilityIndex > 0.9) flags.push('very easy (facility above 0.9)');
  if (s.facilityIndex !== null && s.facilityIndex < 0.2) flags.push('very hard (facility below 0.2)');
  if (s.discriminationIndex !== null && s.discriminationIndex < 0) flags.push('negative discrimination: weaker candidates did better; check the key');
  else if (s.discriminationIndex !== null && s.discriminationIndex < 0.2) flags.push('weak discrimination (below 0.2)');
  const key = s.options.find((o) => o.isCorrect);
  for (const o of s.options) {
    if (key && !o.isCorrect && o.count > key.count) flags.push(`option ${o.keyLabel} was chosen more often than the key ${key.keyLabel}: check the key`);
  }
  const unchosen = s.options.filter((o) => !o.isCorrect && o.count === 0).map((o) => o.keyLabel);
  if (unchosen.length && s.options.length) flags.push(`distractor${unchosen.length > 1 ? 's' : ''} ${unchosen.join(', ')} chosen by nobody`);
  return flags;
}

/**
 * Analyses a response matrix. Statistics are rounded to 4 decimals; they are null
 * where undefined (no candidates, no variance, fewer than 2 items for KR-20).
 */
export function analyseMatrix(m: ResponseMatrix): ExamAnalysis {
  const n = m.candidates.length;
  const totals = m.candidates.map((c) => c.scores.reduce<number>((a, b) => a + (b ?? 0), 0));
  // the same paper for everyone (no null score): one set of groups, and KR-20 is defined
  const samePaper = m.candidates.every((c) => m.items.every((_, j) => c.scores[j] !== null));
  const everyone = m.candidates.map((_, i) => i);
  const allGroups = upperLowerGroups(totals);
  const byItem = m.items.map((_, j) => m.candidates.map((c) => c.scores[j] ?? 0));
  const questions = m.items.map((item, j): ItemStatistics => {
    // the candidates who were given the item; their totals are over their own papers
    const given = samePaper ? everyone : everyone.filter((i) => m.candidates[i]!.scores[j] !== null);
    const nj = given.length;
    const scores = samePaper ? byItem[j]! : given.map((i) => m.candidates[i]!.scores[j] ?? 0);
    const itemTotals = samePaper ? totals : given.map((i) => totals[i]!);
    const groups = samePaper ? allGroups : upperLowerGroups(itemTotals);
    const choices = given.map((i) => m.candidates[i]!.choices[j] ?? null);
    const options = item.options.map((o) => {
      const count = choices.filter((ch) => ch === o.optionId).length;
      return { ...o, count, share: round(nj ? count / nj : 0)! };
    });
    const omittedCount = item.options.length ? choices.filter((ch) => ch === null || !item.options.some((o) => o.optionId === ch)).length : 0;
    const base = {
      questionId: item.questionId,
      number: j + 1,
      type: item.type,
      marks: item.marks,
      ...(item.prompt !== undefined ? { prompt: item.prompt } : {}),
      candidates: nj,
      facilityIndex: round(facilityIndex(scores, item.marks)),
      discriminationIndex: round(discriminationIndex(scores, item.marks, groups)),
      pointBiserial: round(pointBiserial(scores, itemTotals)),
      options,
      omitted: { count: omittedCount, share: round(nj ? omittedCount / nj : 0)! },
    };
    return { ...base, flags: nj ? flagsFor(base) : [] };
  });
  return {
    candidates: n,
    items: m.items.length,
    maxScore: m.items.reduce((a, i) => a + i.marks, 0),
    mean: n ? round(mean(totals)) : null,
    standardDeviation: n ? round(standardDeviation(totals)) : null,
    kr20: samePaper ? round(kr20(byItem, totals)) : null,
    groupSize: allGroups?.size ?? null,
    questions,
  };
}
