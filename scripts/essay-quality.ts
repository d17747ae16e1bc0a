/**
 * Measures the built-in essay grader against the independent examiner's marks in
 * test/fixtures/quality/essay-marking/ (issue 21 §2): per split, Spearman ρ between
 * recommended and examiner totals, mean absolute error as a fraction of each question's
 * marks, and the number of on-topic scripts (examinerScore > 0) recommended 0.
 *
 * Run: `npm run quality:essays` (the dev questions only),
 * `npm run quality:essays -- --holdout` (dev and the hold-out questions, each apart) or
 * `-- --all` (every question together). Since essay-marking's hold-out was run twice it is
 * all development data; `--set essay-marking-2` measures another set in the same shape
 * (its own holdout.sha256 is checked first). Add `--rows` to print every script. The functions are exported for test/generation/essay-quality.test.ts.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gradeEssayBuiltIn } from '../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../src/modules/generation/index.js';
import { spearman } from './quality.js';

export const ESSAY_SET = join(new URL('..', import.meta.url).pathname, 'test/fixtures/quality/essay-marking');

/** One question of the set (the fixture's shape). */
export interface MarkedQuestion {
  id: string;
  subject: string;
  prompt: string;
  marks: number;
  modelAnswer: string;
  rubric: { totalMarks: number; criteria: { title: string; description?: string; maxMarks: number }[] };
  scripts: { id: string; text: string; examinerScore: number; examinerNote: string; level: string }[];
  split: 'dev' | 'holdout';
}

/** A marking set's folder: `name` under test/fixtures/quality/ ("essay-marking", "essay-marking-2"). */
export function essaySet(name: string): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`not a set name: ${name}`);
  return join(new URL('..', import.meta.url).pathname, 'test/fixtures/quality', name);
}

/** The questions of one split ('all': every question), by file name order. */
export function loadMarkedQuestions(split: 'dev' | 'holdout' | 'all', set = ESSAY_SET): MarkedQuestion[] {
  return readdirSync(set)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(set, f), 'utf8')) as MarkedQuestion)
    .filter((q) => split === 'all' || q.split === split);
}

/** Files named in the set's holdout.sha256 whose sha256 no longer matches (empty when the frozen set is intact). */
export function holdoutMismatches(set = ESSAY_SET): string[] {
  const lines = readFileSync(join(set, 'holdout.sha256'), 'utf8').split('\n').filter((l) => l.trim());
  return lines
    .map((l) => l.split(/\s+\*?/) as [string, string])
    .filter(([sum, file]) => createHash('sha256').update(readFileSync(join(set, file))).digest('hex') !== sum)
    .map(([, file]) => file);
}

/** One script's recommended total beside the examiner's. */
export interface ScoredScript {
  question: string;
  script: string;
  level: string;
  marks: number;
  examiner: number;
  recommended: number;
  feedback: string;
}

/** Grades every script of the questions with the built-in engine. */
export function gradeMarkedQuestions(questions: MarkedQuestion[]): ScoredScript[] {
  return questions.flatMap((q) => {
    const rubricCriteria = q.rubric.criteria.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, maxMarks: c.maxMarks }));
    return q.scripts.map((s) => {
      const ev = gradeEssayBuiltIn({ questionPrompt: q.prompt, modelAnswer: q.modelAnswer, rubricCriteria, maxMarks: q.marks, studentResponse: s.text }, relatedWords);
      const feedback = ev.criteriaScores.map((c, i) => `${q.rubric.criteria[i]!.title} ${c.score}/${c.maxMarks}: ${c.feedback}`).join(' | ');
      return { question: q.id, script: s.id, level: s.level, marks: q.marks, examiner: s.examinerScore, recommended: ev.totalScore, feedback };
    });
  });
}

/** The measures of issue 21 over scored scripts. MAE is the mean of |difference| / the question's marks. */
export function essayMeasures(rows: ScoredScript[]) {
  const rho = spearman(rows.map((r) => r.examiner), rows.map((r) => r.recommended));
  const maeShare = rows.reduce((s, r) => s + Math.abs(r.examiner - r.recommended) / r.marks, 0) / rows.length;
  const onTopicZero = rows.filter((r) => r.examiner > 0 && r.recommended === 0);
  // Ranking within each question as well: pooled ρ mixes questions of different marks.
  const byQuestion = [...new Set(rows.map((r) => r.question))].map((id) => {
    const qs = rows.filter((r) => r.question === id);
    return { question: id, marks: qs[0]!.marks, rho: spearman(qs.map((r) => r.examiner), qs.map((r) => r.recommended)), maeShare: qs.reduce((s, r) => s + Math.abs(r.examiner - r.recommended) / r.marks, 0) / qs.length };
  });
  // Pooled ρ on the share of marks, so a 20-mark question's scripts do not dominate.
  const rhoShare = spearman(rows.map((r) => r.examiner / r.marks), rows.map((r) => r.recommended / r.marks));
  return { scripts: rows.length, rho, rhoShare, maeShare, onTopicZero, byQuestion };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function report(split: 'dev' | 'holdout' | 'all', showRows: boolean, set: string, jsonOut?: string): void {
  const rows = gradeMarkedQuestions(loadMarkedQuestions(split, set));
  if (!rows.length) return;
  const m = essayMeasures(rows);
  console.log(`\n## ${set.split('/').pop()} ${split}: ${m.byQuestion.length} questions, ${m.scripts} scripts`);
  console.log(`Spearman rho (marks) ${m.rho.toFixed(3)} | rho (share of marks) ${m.rhoShare.toFixed(3)} | MAE ${pct(m.maeShare)} of marks | on-topic scripts scored 0: ${m.onTopicZero.length}`);
  for (const q of m.byQuestion) console.log(`  ${q.question} (${q.marks}): rho ${q.rho.toFixed(3)}, MAE ${pct(q.maeShare)}`);
  const worst = [...rows].sort((a, b) => Math.abs(b.examiner - b.recommended) / b.marks - Math.abs(a.examiner - a.recommended) / a.marks);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(rows, null, 1));
  for (const r of showRows ? rows : worst.slice(0, 8)) console.log(`  ${r.question} ${r.script}: examiner ${r.examiner}, recommended ${r.recommended} / ${r.marks}${showRows ? '' : `\n      ${r.feedback.slice(0, 600)}`}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const setArg = args.indexOf('--set');
  const set = setArg >= 0 ? essaySet(args[setArg + 1] ?? '') : ESSAY_SET;
  const bad = holdoutMismatches(set);
  if (bad.length) console.log(`WARNING: hold-out files changed since they were frozen: ${bad.join(', ')}`);
  else console.log(`${set.split('/').pop()}: hold-out files match holdout.sha256`);
  const rows = args.includes('--rows');
  // essay-marking: every question is development data since its hold-out was run twice (docs/quality.md).
  const json = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
  if (args.includes('--all')) report('all', rows, set, json);
  else {
    report('dev', rows, set);
    if (args.includes('--holdout')) report('holdout', rows, set);
  }
}
