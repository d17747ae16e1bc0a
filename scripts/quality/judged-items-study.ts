/**
 * What the judged items say of the quality model (issue 39 §2; docs/quality.md, "The quality model
 * refitted on every judged round"). Reads the rows `fit-generation-model.ts --all --rows=FILE`
 * writes (each judged item's round, rating and features) and prints, for the items of rounds
 * `--from` (default 6) on:
 * - how well a model refitted on all rounds but the item's own (out of round) and the shipped base
 *   model separate A items from the rest, and C items from the rest (AUC);
 * - the as-is and unusable shares left when the lowest-scored share is held back (base model);
 * - the ratings by kind of item, for rounds `--kinds-from` (default 43) on.
 *
 * Run: `npx tsx scripts/quality/judged-items-study.ts ROWS.json [--from=6] [--kinds-from=43] [--lambda=1]`
 */
import { readFileSync } from 'node:fs';
import { FAULT_FEATURES, FEATURE_NAMES } from '../../src/core/generation/quality/features.js';
import { fitLogistic } from '../../src/core/generation/quality/fit.js';
import { scoreItem } from '../../src/core/generation/quality/model.js';
import { BASE_QUALITY_MODEL } from '../../src/core/generation/quality/base-model.js';

interface Row {
  round: number;
  rating: string;
  features: Record<string, number>;
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const file = args.find((a) => !a.startsWith('--'));
if (!file) throw new Error('usage: judged-items-study.ts ROWS.json [--from=6] [--kinds-from=43] [--lambda=1]');
const all = JSON.parse(readFileSync(file, 'utf8')) as Row[];
const from = option('from', 6);
const lambda = option('lambda', 1);

/** Each item scored by a model fitted on every other round. */
function outOfRound(): number[] {
  const scores = new Array<number>(all.length).fill(0);
  for (const round of new Set(all.map((r) => r.round))) {
    const train = all.filter((r) => r.round !== round).map((r) => ({ features: r.features, target: r.rating === 'A' ? 1 : 0 }));
    const fit = fitLogistic(train, FEATURE_NAMES, { lambda, lambdaBias: 0.01, nonPositive: FAULT_FEATURES });
    const model = { version: 'study', ...fit, threshold: 0.5, judgements: 0 };
    all.forEach((r, i) => {
      if (r.round === round) scores[i] = scoreItem(model, r.features);
    });
  }
  return scores;
}

const studied = all.map((_, i) => i).filter((i) => all[i]!.round >= from);

/** The chance that an item with the rating scores above one without it (ties count half). */
function auc(scores: number[], rating: string): number {
  let wins = 0;
  let pairs = 0;
  for (const i of studied) {
    if (all[i]!.rating !== rating) continue;
    for (const j of studied) {
      if (all[j]!.rating === rating) continue;
      pairs++;
      wins += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
    }
  }
  return wins / pairs;
}

const refit = outOfRound();
const base = all.map((r) => scoreItem(BASE_QUALITY_MODEL, r.features));
const pct = (n: number, d: number) => `${d ? Math.round((100 * n) / d) : 0} %`;
const count = (idx: number[], rating: string) => idx.filter((i) => all[i]!.rating === rating).length;

console.log(`rounds ${from} on: ${studied.length} items, ${pct(count(studied, 'A'), studied.length)} A, ${pct(count(studied, 'C'), studied.length)} C`);
console.log('| model | A against the rest: AUC | C against the rest: AUC (a low score) |');
console.log(`| refitted on the other rounds (lambda ${lambda}) | ${auc(refit, 'A').toFixed(2)} | ${(1 - auc(refit, 'C')).toFixed(2)} |`);
console.log(`| the base model | ${auc(base, 'A').toFixed(2)} | ${(1 - auc(base, 'C')).toFixed(2)} |`);

console.log('\n| held back (lowest base scores) | returned | as-is (A) | unusable (C) |');
const ranked = [...studied].sort((a, b) => base[a]! - base[b]!);
for (const share of [0, 0.1, 0.3, 0.5]) {
  const kept = ranked.slice(Math.round(share * ranked.length));
  console.log(`| ${Math.round(share * 100)} % | ${kept.length} | ${pct(count(kept, 'A'), kept.length)} | ${pct(count(kept, 'C'), kept.length)} |`);
}

const kindsFrom = option('kinds-from', 43);
const kind = (f: Record<string, number>) =>
  (f.isEssay ? 'essay' : f.isTrueFalse ? `true/false, keyed ${f.keyFalse ? 'False' : 'True'}` : f.mcqCloze ? 'MCQ, cloze' : f.mcqDefinition ? 'MCQ, definition' : 'MCQ (not cloze)') +
  (f.tierHard ? ', hard' : f.tierIntermediate ? ', intermediate' : ', simple');
const kinds = new Map<string, Row[]>();
for (const r of all.filter((x) => x.round >= kindsFrom)) kinds.set(kind(r.features), [...(kinds.get(kind(r.features)) ?? []), r]);
console.log(`\nrounds ${kindsFrom} on, by kind:\n| kind | items | A | B | C |`);
for (const [k, rows] of [...kinds].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`| ${k} | ${rows.length} | ${['A', 'B', 'C'].map((g) => rows.filter((r) => r.rating === g).length).join(' | ')} |`);
}
