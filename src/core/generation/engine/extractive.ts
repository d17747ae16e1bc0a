/**
 * The built-in generation engine `hallcbt-extractive-1` (issue 7 §2): deterministic
 * extractive questions from the material. Hard objective items combine two cited facts
 * (bridge.ts). Plans `count` slots (type × tier), fills each
 * from the FactFinder, downgrades a tier the material cannot support (hard →
 * intermediate → simple) and says so in warnings. Same input → same questions: every
 * choice comes from a PRNG seeded by a hash of the input.
 */
import type { Passage } from '../passage.js';
import type { GeneratedQuestion, GeneratedType, QuestionDifficulty, RequestedDifficulty } from '../schemas.js';
import { stemSet } from '../text/nlp.js';
import { hashHex, prng, seedOf } from '../text/seed.js';
import { buildBridgeItem, findBridge } from './bridge.js';
import { buildEssay } from './essay-items.js';
import { FactFinder, type FactCandidate } from './facts.js';
import { buildMcq, buildTrueFalse } from './objective.js';
import { indexMaterial } from './sentences.js';

export const EXTRACTIVE_ENGINE = 'hallcbt-extractive-1';

/** What to generate. */
export interface GenerateOptions {
  difficulty: RequestedDifficulty;
  count: number;
  subject?: string;
  /** Allowed types; default all three. */
  types?: GeneratedType[];
}

/** Questions plus notes for the examiner. */
export interface EngineResult {
  questions: GeneratedQuestion[];
  warnings: string[];
}

const TIERS: QuestionDifficulty[] = ['simple', 'intermediate', 'hard'];

/** Slots in output order: types interleaved (~60% MCQ, 25% TRUE_FALSE, 15% essays), tiers progressive for "balanced". */
export function planSlots(count: number, difficulty: RequestedDifficulty, types: GeneratedType[]): { type: GeneratedType; tier: QuestionDifficulty }[] {
  const share: Record<GeneratedType, number> = { MCQ: 0.6, TRUE_FALSE: 0.25, SHORT_ESSAY: 0.15 };
  const allowed = types.length ? types : (['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY'] as GeneratedType[]);
  const given = new Map<GeneratedType, number>(allowed.map((t) => [t, 0]));
  const slots: { type: GeneratedType; tier: QuestionDifficulty }[] = [];
  for (let i = 0; i < count; i++) {
    // The type furthest behind its share comes next (ties: MCQ, TRUE_FALSE, essay).
    const type = allowed.reduce((best, t) => ((given.get(t)! + 1) / share[t] < (given.get(best)! + 1) / share[best] - 1e-9 ? t : best), allowed[0]!);
    given.set(type, given.get(type)! + 1);
    const tier: QuestionDifficulty =
      difficulty !== 'balanced' ? difficulty : i < Math.ceil(count * 0.4) ? 'simple' : i < Math.ceil(count * 0.75) ? 'intermediate' : 'hard';
    slots.push({ type, tier });
  }
  return slots;
}

/** One question of `type` at `tier`, or null when the material has nothing left for it. */
function fill(finder: FactFinder, type: GeneratedType, tier: QuestionDifficulty, rand: () => number, seed: number, materialText: string): GeneratedQuestion | null {
  const objective = (want: number, min: number): FactCandidate | null =>
    tier === 'simple' ? finder.single(want, min) : tier === 'intermediate' ? finder.group(2, true, want, min) : finder.group(2, false, want, min);
  if (tier === 'hard' && type !== 'SHORT_ESSAY') {
    // Hard objective items combine two facts (a definition and a statement about the defined thing), or are not made.
    const b = type === 'MCQ' ? findBridge(finder, 3, 3) ?? findBridge(finder, 3, 2) : findBridge(finder, 1, 1);
    return b ? buildBridgeItem(b, type === 'TRUE_FALSE', type === 'TRUE_FALSE' && rand() < 0.5, rand, seed) : null;
  }
  if (type === 'MCQ') {
    const c = objective(3, 3) ?? objective(3, 2);
    return c ? buildMcq(c.facts, tier, c.distractors, rand, seed) : null;
  }
  if (type === 'TRUE_FALSE') {
    const c = objective(1, 1);
    if (!c) return null;
    const f = c.facts[0]!;
    const altered = f.sentence.text.slice(0, f.span.start) + c.distractors[0] + f.sentence.text.slice(f.span.end);
    // An alteration that the material states elsewhere would be true: keep the faithful form then.
    const makeFalse = rand() < 0.5 && !` ${materialText} `.includes(` ${altered.toLowerCase().replace(/\s+/g, ' ')} `);
    return buildTrueFalse(c.facts, tier, makeFalse ? c.distractors[0]! : null, seed);
  }
  const size = tier === 'hard' ? 3 : 2;
  const c = tier === 'hard' ? finder.group(3, false, 0, 0) ?? finder.group(2, false, 0, 0) : finder.group(size, true, 0, 0);
  if (!c) return null;
  const sentences = c.facts.map((f) => f.sentence);
  let related: string | undefined;
  if (tier === 'intermediate') {
    const keyStems = stemSet(c.facts[0]!.span.text);
    related = finder.spans(sentences[1]!).find((s) => s.kind !== 'number' && ![...stemSet(s.text)].some((x) => keyStems.has(x)))?.text;
  }
  return buildEssay({ term: c.facts[0]!.span.text, relatedTerm: related, sentences, difficulty: tier }, seed);
}

/**
 * Generates questions from passages.
 * @returns questions in plan order and warnings (downgraded tiers, fewer than asked).
 */
export function generateExtractive(passages: Passage[], opts: GenerateOptions): EngineResult {
  const types = opts.types?.length ? opts.types : (['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY'] as GeneratedType[]);
  const seed = seedOf(hashHex(JSON.stringify(passages.map((p) => [p.citation, p.text]))), opts.difficulty, opts.count, opts.subject ?? '', types.join(','));
  const rand = prng(seed);
  const index = indexMaterial(passages, opts.subject ?? '');
  const finder = new FactFinder(index, seed);
  const materialText = passages.map((p) => p.text.toLowerCase().replace(/\s+/g, ' ')).join(' ');
  let downgraded = 0;
  const slots = planSlots(opts.count, opts.difficulty, types);
  const filled: (GeneratedQuestion | null)[] = slots.map(() => null);
  // The most demanding slots choose first (hard needs sentences sharing a key across the material);
  // the output keeps the planned, progressive order.
  const byDemand = slots.map((s, i) => ({ s, i })).sort((a, b) => TIERS.indexOf(b.s.tier) - TIERS.indexOf(a.s.tier) || a.i - b.i);
  for (const { s: slot, i } of byDemand) {
    const tiers = TIERS.slice(0, TIERS.indexOf(slot.tier) + 1).reverse();
    const order = [slot.type, ...types.filter((t) => t !== slot.type)];
    outer: for (const type of order) {
      for (const tier of tiers) {
        const q = fill(finder, type, tier, rand, seed, materialText);
        if (q) {
          if (tier !== slot.tier) downgraded++;
          filled[i] = q;
          break outer;
        }
      }
    }
  }
  const questions = filled.filter((q): q is GeneratedQuestion => q !== null);
  const warnings: string[] = [];
  if (downgraded) warnings.push(`The material could not support ${downgraded} question(s) at the requested tier; they were generated at an easier tier (see each question's difficulty).`);
  if (questions.length < opts.count) warnings.push(`Only ${questions.length} of the ${opts.count} requested questions could be generated from this material; add more material or notes for more.`);
  return { questions, warnings };
}
