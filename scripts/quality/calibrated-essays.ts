/**
 * Measures calibrated essay marking (issue 39 §1) on a human-marked set in the shape of
 * test/fixtures/quality/essay-marking*: for each question the examiner is simulated marking
 * the first 3 scripts of `markFirst` (with the set's human marks), the rest are recommended,
 * and Spearman ρ and the mean absolute error (share of the question's marks) are computed on
 * the rest. Also, before any calibration: the mean absolute error over every script, scripts
 * a person gave ≥ 75% that are recommended below 40% and scripts a person gave ≤ 25% that are
 * recommended 60% or more; on-topic scripts (examiner > 0) recommended 0 after it; and per set, the mean absolute
 * error of the recommendations at each confidence level (does "medium" err less than "low"?).
 *
 * Run: `npx tsx scripts/quality/calibrated-essays.ts <set directory> [...]` (for example
 * test/fixtures/quality/essay-marking-2). Exported for test/generation/calibrated-essays.test.ts.
 */
import { pathToFileURL } from 'node:url';
import { gradeEssaysCalibrated, type GradeEssaysInput } from '../../src/core/grading/essay/calibrate.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';
import { loadMarkedQuestions, type MarkedQuestion } from '../essay-quality.js';
import { spearman } from '../quality.js';

/** Scripts the simulated examiner marks per question. */
export const EXAMINER_MARKS = 3;

/** One question's figures. */
export interface CalibratedQuestion {
  question: string;
  marks: number;
  /** the scripts the examiner marked (markFirst's first 3) */
  marked: string[];
  rho: number;
  maeShare: number;
  /** ρ and MAE of the engine's uncalibrated totals on the same scripts */
  rawRho: number;
  rawMaeShare: number;
  /** before calibration: scripts a person gave ≥ 75% recommended below 40%, with the confidence given */
  highLow: { script: string; examiner: number; recommended: number; confidence: string }[];
  /** before calibration: scripts a person gave ≤ 25% recommended 60% or more, with the confidence given */
  lowHigh: { script: string; examiner: number; recommended: number; confidence: string }[];
  /** before calibration: the mean absolute error over every script of the question (share of its marks) */
  beforeMaeShare: number;
  /** after calibration: on-topic scripts (examiner > 0) recommended 0 */
  onTopicZero: string[];
  rows: { script: string; examiner: number; recommended: number; raw: number; confidence: string }[];
}

function input(q: MarkedQuestion, marks: Map<string, number>): GradeEssaysInput {
  return {
    questionPrompt: q.prompt,
    modelAnswer: q.modelAnswer,
    maxMarks: q.marks,
    rubricCriteria: q.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks })),
    scripts: q.scripts.map((s) => ({ id: s.id, studentResponse: s.text, examinerScore: marks.get(s.id) })),
  };
}

/** Simulates the examiner on one question and measures the recommendations for the rest. */
export function measureQuestion(q: MarkedQuestion): CalibratedQuestion {
  const human = new Map(q.scripts.map((s) => [s.id, s.examinerScore]));
  const before = gradeEssaysCalibrated(input(q, new Map()), relatedWords);
  const marked = before.markFirst.slice(0, EXAMINER_MARKS);
  const after = gradeEssaysCalibrated(input(q, new Map(marked.map((id) => [id, human.get(id)!]))), relatedWords);
  const raw = new Map(before.recommendations.map((r) => [r.id, r.totalScore]));
  const rows = after.recommendations.map((r) => ({ script: r.id, examiner: human.get(r.id)!, recommended: r.totalScore, raw: raw.get(r.id)!, confidence: r.confidence }));
  const mae = (key: 'recommended' | 'raw') => rows.reduce((s, r) => s + Math.abs(r.examiner - r[key]) / q.marks, 0) / rows.length;
  return {
    question: q.id,
    marks: q.marks,
    marked,
    rho: spearman(rows.map((r) => r.examiner), rows.map((r) => r.recommended)),
    maeShare: mae('recommended'),
    rawRho: spearman(rows.map((r) => r.examiner), rows.map((r) => r.raw)),
    rawMaeShare: mae('raw'),
    highLow: before.recommendations.filter((r) => human.get(r.id)! >= 0.75 * q.marks && r.totalScore < 0.4 * q.marks).map((r) => ({ script: r.id, examiner: human.get(r.id)!, recommended: r.totalScore, confidence: r.confidence })),
    lowHigh: before.recommendations.filter((r) => human.get(r.id)! <= 0.25 * q.marks && r.totalScore >= 0.6 * q.marks).map((r) => ({ script: r.id, examiner: human.get(r.id)!, recommended: r.totalScore, confidence: r.confidence })),
    beforeMaeShare: before.recommendations.reduce((s, r) => s + Math.abs(human.get(r.id)! - r.totalScore) / q.marks, 0) / before.recommendations.length,
    onTopicZero: rows.filter((r) => r.examiner > 0 && r.recommended === 0).map((r) => r.script),
    rows,
  };
}

/** Every question of a set directory (all splits), with the means over questions. */
export function measureSet(dir: string) {
  const questions = loadMarkedQuestions('all', dir).map(measureQuestion);
  const mean = (f: (q: CalibratedQuestion) => number) => questions.reduce((s, q) => s + f(q), 0) / questions.length;
  return { questions, rho: mean((q) => q.rho), maeShare: mean((q) => q.maeShare), rawRho: mean((q) => q.rawRho), rawMaeShare: mean((q) => q.rawMaeShare), beforeMaeShare: mean((q) => q.beforeMaeShare) };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (!dirs.length) {
    console.error('usage: npx tsx scripts/quality/calibrated-essays.ts <set directory> [...] [--rows]');
    process.exit(2);
  }
  for (const dir of dirs) {
    const m = measureSet(dir);
    console.log(`\n## ${dir}: ${m.questions.length} questions; examiner marks ${EXAMINER_MARKS} per question (markFirst), measured on the rest`);
    console.log(`mean rho ${m.rho.toFixed(3)} (uncalibrated ${m.rawRho.toFixed(3)}) | mean MAE ${pct(m.maeShare)} of marks (uncalibrated ${pct(m.rawMaeShare)})`);
    for (const q of m.questions) {
      console.log(`  ${q.question} (${q.marks}): rho ${q.rho.toFixed(3)}, MAE ${pct(q.maeShare)} | uncalibrated rho ${q.rawRho.toFixed(3)}, MAE ${pct(q.rawMaeShare)} | marked ${q.marked.join(', ')}`);
      if (q.highLow.length) console.log(`    before calibration, >=75% recommended <40%: ${q.highLow.map((h) => `${h.script} (${h.examiner} → ${h.recommended}, confidence ${h.confidence})`).join('; ')}`);
      if (q.lowHigh.length) console.log(`    before calibration, <=25% recommended >=60%: ${q.lowHigh.map((h) => `${h.script} (${h.examiner} → ${h.recommended}, confidence ${h.confidence})`).join('; ')}`);
      if (q.onTopicZero.length) console.log(`    on-topic recommended 0: ${q.onTopicZero.join(', ')}`);
      if (process.argv.includes('--rows')) for (const r of q.rows) console.log(`    ${r.script}: examiner ${r.examiner}, recommended ${r.recommended} (${r.confidence}), uncalibrated ${r.raw}`);
    }
    // how far each confidence level's recommendations are from the examiner's marks
    const byConfidence = new Map<string, { n: number; abs: number }>();
    for (const q of m.questions) for (const r of q.rows) {
      const b = byConfidence.get(r.confidence) ?? { n: 0, abs: 0 };
      b.n++;
      b.abs += Math.abs(r.recommended - r.examiner) / q.marks;
      byConfidence.set(r.confidence, b);
    }
    console.log(`by confidence after calibration: ${['high', 'medium', 'low'].filter((c) => byConfidence.has(c)).map((c) => `${c} ${byConfidence.get(c)!.n} scripts, MAE ${pct(byConfidence.get(c)!.abs / byConfidence.get(c)!.n)}`).join('; ')}`);
    const highLow = m.questions.reduce((s, q) => s + q.highLow.length, 0);
    const lowHigh = m.questions.flatMap((q) => q.lowHigh);
    console.log(`before calibration, every script: MAE ${pct(m.beforeMaeShare)}; a person gave >=75% recommended <40%: ${highLow}; a person gave <=25% recommended >=60%: ${lowHigh.length} (${lowHigh.filter((h) => h.confidence === 'low').length} of them "low")`);
    console.log(`on-topic recommended 0 after: ${m.questions.reduce((s, q) => s + q.onTopicZero.length, 0)}`);
  }
}
