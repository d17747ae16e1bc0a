/**
 * Per-section scores of a graded attempt (issue 37 item 5): the marks awarded on the
 * questions the candidate was given, added up by section. They sum to the attempt's score
 * (both are sums of the same awarded marks, rounded to two decimals as grade.ts rounds).
 */
import type { GradedQuestion } from './grade.js';

/** One section's part of a result. */
export interface SectionScore {
  section: string;
  score: number;
  maxScore: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Adds up `graded` by section. Sections come in `order` (the exam's), then any other
 * section a question was given under (a section renamed since the attempt started), in
 * the order first met; a section of `order` no graded question belongs to is left out.
 * @param sectionOf the section each graded question was given under (by question id)
 * @param marksOf the question's marks (by question id)
 */
export function sectionScores(order: readonly string[], graded: readonly GradedQuestion[], sectionOf: (questionId: string) => string, marksOf: (questionId: string) => number): SectionScore[] {
  const by = new Map<string, { score: number; maxScore: number }>();
  for (const name of order) by.set(name, { score: 0, maxScore: 0 });
  const used = new Set<string>();
  for (const g of graded) {
    const name = sectionOf(g.questionId);
    let s = by.get(name);
    if (!s) by.set(name, (s = { score: 0, maxScore: 0 }));
    used.add(name);
    s.score += g.awardedMarks;
    s.maxScore += marksOf(g.questionId);
  }
  return [...by].filter(([name]) => used.has(name)).map(([section, s]) => ({ section, score: round2(s.score), maxScore: round2(s.maxScore) }));
}
