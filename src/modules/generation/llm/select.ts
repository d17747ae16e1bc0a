/**
 * Chooses what the LLM sees: the most informative passages (by the extractive engine's
 * sentence scores) up to a character budget, in document order, so that a 100-page PDF
 * fits a small local model's context.
 */
import { indexMaterial } from '../../../core/generation/engine/sentences.js';
import type { Passage } from '../../../core/generation/passage.js';

/** Characters of material sent to the model (~3,000 tokens). */
export const PASSAGE_BUDGET = 12_000;

/** Up to ~12,000 characters of the most informative passages, in document order. */
export function selectPassages(passages: Passage[], budget = PASSAGE_BUDGET): Passage[] {
  const index = indexMaterial(passages);
  const best = new Map<number, number>();
  for (const s of index.sentences) if (s.usable) best.set(s.passageIndex, (best.get(s.passageIndex) ?? 0) + s.score);
  const ranked = [...best.entries()].sort((a, b) => b[1] - a[1]).map(([i]) => i);
  const chosen: number[] = [];
  let used = 0;
  for (const i of ranked.length ? ranked : passages.map((_, i) => i)) {
    const len = passages[i]!.text.length;
    if (used + len > budget && chosen.length) continue;
    chosen.push(i);
    used += Math.min(len, budget);
    if (used >= budget) break;
  }
  return chosen.sort((a, b) => a - b).map((i) => ({ ...passages[i]!, text: passages[i]!.text.slice(0, budget) }));
}
