/**
 * The sections' draw (src/core/exams/sections.ts; issue 37 item 2): a pure function of
 * the attempt's seed — the same seed gives the same questions on any machine — drawing
 * uniformly (every question of a section equally often, every pair of questions as often
 * as another), a section's draw independent of the other sections a candidate sits, and
 * the sections a candidate sits (compulsory ones plus their subjects, in the exam's order).
 */
import { describe, expect, it } from 'vitest';
import { drawProblems, drawSitting, mulberry32, sittingSections, type ExamSection } from '../../src/core/exams/sections.js';
import { sectionScores } from '../../src/core/grading/section-scores.js';

const sections: ExamSection[] = [
  { name: 'English', draw: 2, compulsory: true },
  { name: 'Physics', draw: null, compulsory: false },
  { name: 'Biology', draw: 3, compulsory: false },
];
const questions = [
  ...['e1', 'e2', 'e3', 'e4', 'e5'].map((id) => ({ id, section: 'English' })),
  ...['p1', 'p2'].map((id) => ({ id, section: 'Physics' })),
  ...['b1', 'b2', 'b3', 'b4'].map((id) => ({ id, section: 'Biology' })),
];

describe('the seeded generator', () => {
  it('is mulberry32: a fixed sequence for a seed', () => {
    const next = mulberry32(1);
    // the reference implementation's first values for seed 1 (0.6270739405881613, 0.0027357211…, 0.5274470399…) × 2³²
    expect([next(), next(), next()]).toEqual([2693262067, 11749833, 2265367787]);
    const a = mulberry32(12345);
    const b = mulberry32(12345);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    expect(xs.every((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 32)).toBe(true);
    expect(new Set(xs).size).toBe(100);
  });
});

describe('drawSitting', () => {
  it('is the same for the same seed and differs between seeds', () => {
    const one = drawSitting(sections, questions, null, 42);
    expect(drawSitting(sections, questions, null, 42)).toEqual(one);
    expect(one.map((s) => s.name)).toEqual(['English', 'Physics', 'Biology']);
    expect(one.map((s) => s.questionIds.length)).toEqual([2, 2, 3]);
    const papers = new Set(Array.from({ length: 50 }, (_, seed) => JSON.stringify(drawSitting(sections, questions, null, seed))));
    expect(papers.size).toBeGreaterThan(20);
  });

  it('keeps paper order within a section and draws only from it', () => {
    for (let seed = 0; seed < 200; seed++) {
      const [english, , biology] = drawSitting(sections, questions, null, seed);
      expect(english!.questionIds.every((id) => id.startsWith('e'))).toBe(true);
      expect([...english!.questionIds].sort()).toEqual(english!.questionIds);
      expect(biology!.questionIds.every((id) => id.startsWith('b'))).toBe(true);
    }
  });

  it('draws uniformly: each question and each pair of a section equally often', () => {
    const N = 20_000;
    const single = new Map<string, number>();
    const pairs = new Map<string, number>();
    for (let seed = 0; seed < N; seed++) {
      const ids = drawSitting(sections, questions, null, (seed * 2654435761) >>> 0)[0]!.questionIds;
      for (const id of ids) single.set(id, (single.get(id) ?? 0) + 1);
      pairs.set(ids.join('+'), (pairs.get(ids.join('+')) ?? 0) + 1);
    }
    // each of 5 questions in 2/5 of the draws; each of the 10 pairs in 1/10
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) expect(Math.abs(single.get(id)! / N - 0.4)).toBeLessThan(0.02);
    expect(pairs.size).toBe(10);
    const chi2 = [...pairs.values()].reduce((t, n) => t + (n - N / 10) ** 2 / (N / 10), 0);
    // 9 degrees of freedom: 27.9 is the 0.1% critical value
    expect(chi2).toBeLessThan(27.9);
  });

  it('a section draws the same questions whichever other sections the candidate sits', () => {
    for (let seed = 0; seed < 100; seed++) {
      const all = drawSitting(sections, questions, null, seed);
      const some = drawSitting(sections, questions, ['Biology'], seed);
      expect(some.map((s) => s.name)).toEqual(['English', 'Biology']);
      expect(some[0]).toEqual(all[0]);
      expect(some[1]).toEqual(all[2]);
    }
  });
});

describe('sittingSections and drawProblems', () => {
  it('compulsory sections plus the subjects (any case), in the exam order; no subjects: every section', () => {
    expect(sittingSections(sections, ['biology']).map((s) => s.name)).toEqual(['English', 'Biology']);
    expect(sittingSections(sections, ['Biology', 'Physics']).map((s) => s.name)).toEqual(['English', 'Physics', 'Biology']);
    expect(sittingSections(sections, []).map((s) => s.name)).toEqual(['English', 'Physics', 'Biology']);
    expect(sittingSections(sections, null).map((s) => s.name)).toEqual(['English', 'Physics', 'Biology']);
  });

  it('names a section that draws more than it has', () => {
    expect(drawProblems(sections, questions)).toEqual([]);
    expect(drawProblems([{ name: 'Physics', draw: 3, compulsory: true }], questions)).toEqual(['Section "Physics" draws 3 questions for each candidate but has 2.']);
  });
});

describe('sectionScores', () => {
  it('adds awarded marks by section in the exam order; they sum to the total', () => {
    const graded = [
      { questionId: 'e1', awardedMarks: 1, isCorrect: true },
      { questionId: 'b2', awardedMarks: 0, isCorrect: false },
      { questionId: 'e3', awardedMarks: 0.5, isCorrect: null },
      { questionId: 'b1', awardedMarks: 1.25, isCorrect: true },
    ];
    const section = new Map(questions.map((q) => [q.id, q.section]));
    const out = sectionScores(['English', 'Physics', 'Biology'], graded, (id) => section.get(id)!, () => 1.5);
    expect(out).toEqual([
      { section: 'English', score: 1.5, maxScore: 3 },
      { section: 'Biology', score: 1.25, maxScore: 3 },
    ]);
  });
});
