/**
 * Writing-quality and length rules of the essay grader: a criterion about organisation,
 * expression or clarity is judged from sentence structure and scaled by how relevant
 * the answer is (a fluent off-topic essay earns nothing); answers outside
 * minWords/maxWords lose half a mark, or a whole mark when far outside (docs/design.md §6
 * length guidance; WAEC practice of deducting for length).
 */
import { splitSentences, wordCount } from '../../generation/text/nlp.js';

/** Share of a quality criterion's marks earned, with feedback. `relevance` in [0, 1]. */
export function judgeQuality(response: string, relevance: number): { share: number; feedback: string } {
  const sentences = splitSentences(response);
  const lengths = sentences.map((s) => wordCount(s));
  const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const complete = sentences.filter((s) => /[.!?]["”’)]?$/.test(s) && /^[\p{Lu}\d"“(]/u.test(s)).length;
  let form = 1;
  const notes: string[] = [];
  if (sentences.length < 2) {
    form = 0.5;
    notes.push('only one sentence');
  }
  if (mean > 40) {
    form = Math.min(form, 0.5);
    notes.push('very long sentences');
  }
  if (complete < sentences.length / 2) {
    form = Math.min(form, 0.5);
    notes.push('many incomplete sentences');
  }
  const rel = relevance >= 0.3 ? 1 : relevance >= 0.12 ? 0.5 : 0;
  if (rel < 1) notes.push(rel === 0 ? 'the answer does not address the question' : 'much of the answer is off the question');
  const share = form * rel;
  return { share, feedback: notes.length ? `Expression limited: ${notes.join('; ')}.` : 'Clear, organised sentences that stay on the question.' };
}

/** The deduction for a response outside the word limits, or null when inside. */
export function lengthPenalty(words: number, minWords?: number, maxWords?: number): { marks: number; reason: string } | null {
  if (minWords !== undefined && words < minWords) {
    return { marks: words < minWords / 2 ? 1 : 0.5, reason: `${words} words, below the minimum of ${minWords}` };
  }
  if (maxWords !== undefined && words > maxWords) {
    return { marks: words > maxWords * 1.25 ? 1 : 0.5, reason: `${words} words, above the maximum of ${maxWords}` };
  }
  return null;
}
