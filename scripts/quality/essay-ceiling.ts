/**
 * How far calibration alone could take the essay engine (issue 39 §1; docs/quality.md, "How far
 * calibration can go"): per question of a human-marked set, the engine's recommendations before any
 * mark are mapped onto the examiner's marks by the best map of two kinds, each fitted on **every**
 * script of the question with the examiner's marks known (an oracle no examiner has):
 *
 * - affine: mark ≈ a + b · recommendation, by least squares;
 * - monotone: the isotonic regression of the marks on the recommendations (pool-adjacent-violators,
 *   src/core/grading/essay/monotone.ts), which may bend anywhere and still keep the engine's order.
 *
 * Their mean absolute error (share of the question's marks) is a floor for any calibration that
 * keeps the engine's ranking: three marks cannot fit better than every mark. Prints per question
 * and the mean over questions.
 *
 * Run: `npx tsx scripts/quality/essay-ceiling.ts <set directory> [...]`.
 */
import { gradeEssaysCalibrated } from '../../src/core/grading/essay/calibrate.js';
import { isotonicBlocks, predictMonotone } from '../../src/core/grading/essay/monotone.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';
import { loadMarkedQuestions } from '../essay-quality.js';

const dirs = process.argv.slice(2);
if (!dirs.length) {
  console.error('usage: npx tsx scripts/quality/essay-ceiling.ts <set directory> [...]');
  process.exit(2);
}
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const total = { n: 0, raw: 0, affine: 0, monotone: 0 };
for (const dir of dirs) {
  for (const q of loadMarkedQuestions('all', dir)) {
    const rubricCriteria = q.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks }));
    const before = gradeEssaysCalibrated({ questionPrompt: q.prompt, modelAnswer: q.modelAnswer, maxMarks: q.marks, rubricCriteria, scripts: q.scripts.map((s) => ({ id: s.id, studentResponse: s.text })) }, relatedWords);
    const human = new Map(q.scripts.map((s) => [s.id, s.examinerScore]));
    const pts = before.recommendations.map((r) => ({ x: r.totalScore, y: human.get(r.id)! }));
    const n = pts.length;
    const mx = pts.reduce((s, p) => s + p.x, 0) / n;
    const my = pts.reduce((s, p) => s + p.y, 0) / n;
    const sxx = pts.reduce((s, p) => s + (p.x - mx) ** 2, 0);
    const b = sxx > 0 ? pts.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx : 0;
    const blocks = isotonicBlocks(pts);
    const mae = (f: (x: number) => number) => pts.reduce((s, p) => s + Math.abs(f(p.x) - p.y), 0) / n / q.marks;
    const raw = mae((x) => x);
    const affine = mae((x) => my + b * (x - mx));
    const monotone = mae((x) => predictMonotone(blocks, x));
    total.n++;
    total.raw += raw;
    total.affine += affine;
    total.monotone += monotone;
    console.log(`${dir.split('/').pop()} ${q.id}: as recommended ${pct(raw)}, best affine ${pct(affine)}, best monotone ${pct(monotone)}`);
  }
}
console.log(`\nmean over ${total.n} questions: as recommended ${pct(total.raw / total.n)}, best affine map ${pct(total.affine / total.n)}, best monotone map ${pct(total.monotone / total.n)}`);
