/**
 * The built-in essay grader hallcbt-rubric-1: half marks in range, totals add up,
 * feedback names ideas found and missing, word limits cost marks, off-topic earns nothing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradeEssayBuiltIn } from '../../src/core/grading/essay/grade-essay.js';
import { relatedWords } from '../../src/modules/generation/wordnet.js';
import { lengthPenalty } from '../../src/core/grading/essay/quality.js';
import type { GradeEssayRequest } from '../../src/core/generation/schemas.js';

/** The grader as the hall runs it, with WordNet. */
const gradeWithWordNet = (r: GradeEssayRequest) => gradeEssayBuiltIn(r, relatedWords);

const data = JSON.parse(readFileSync(new URL('../fixtures/generation/essays.json', import.meta.url), 'utf8'));
const q1 = data.questions[0];
const req = (studentResponse: string, extra: Partial<GradeEssayRequest> = {}): GradeEssayRequest => ({
  questionPrompt: q1.questionPrompt,
  modelAnswer: q1.modelAnswer,
  rubricCriteria: q1.rubricCriteria,
  maxMarks: q1.maxMarks,
  minWords: q1.minWords,
  maxWords: q1.maxWords,
  studentResponse,
  ...extra,
});
const answer = (label: string) => q1.answers.find((a: { label: string }) => a.label === label).text as string;

describe('hallcbt-rubric-1', () => {
  it('scores each criterion in half marks within [0, maxMarks], totals add up', () => {
    for (const a of q1.answers) {
      const ev = gradeWithWordNet(req(a.text));
      expect(ev.criteriaScores.map((c) => c.criterionId)).toEqual(q1.rubricCriteria.map((c: { id: string }) => c.id));
      for (const c of ev.criteriaScores) {
        expect(c.score).toBeGreaterThanOrEqual(0);
        expect(c.score).toBeLessThanOrEqual(c.maxMarks);
        expect(Number.isInteger(c.score * 2)).toBe(true);
        expect(c.feedback.length).toBeGreaterThan(5);
      }
      expect(ev.totalScore).toBe(ev.criteriaScores.reduce((s, c) => s + c.score, 0));
      expect(ev.maxScore).toBe(10);
    }
  });

  it('ranks a full answer far above a weak one and gives an off-topic one almost nothing', () => {
    const full = gradeWithWordNet(req(answer('excellent')));
    const weak = gradeWithWordNet(req(answer('below average')));
    const off = gradeWithWordNet(req(answer('off-topic, different subject')));
    expect(full.totalScore).toBeGreaterThanOrEqual(9);
    expect(weak.totalScore).toBeLessThanOrEqual(4);
    expect(off.totalScore).toBe(0);
    expect(full.strengths.length).toBeGreaterThan(2);
    expect(off.areasForImprovement.length).toBeGreaterThan(2);
    expect(full.overallComment).toMatch(/^Recommended 9\.?5? of 10|^Recommended 10 of 10/);
  });

  it('names the ideas found and missing', () => {
    const ev = gradeWithWordNet(req('Plants make food from carbon dioxide and water in their leaves using light. Oxygen is given off as the plant makes glucose for growth.'));
    const sources = ev.criteriaScores.find((c) => c.criterionId === 'c2')!;
    expect(sources.feedback).toMatch(/Found: .*carbon/);
    expect(sources.feedback).toMatch(/Missing: .*(stomata|xylem|root)/);
    expect(ev.areasForImprovement.join(' ')).toMatch(/stomata|xylem|root|chlorophyll/);
  });

  it('deducts for answers outside the word limits', () => {
    expect(lengthPenalty(10, 40, 200)).toEqual({ marks: 1, reason: '10 words, below the minimum of 40' });
    expect(lengthPenalty(30, 40, 200)!.marks).toBe(0.5);
    expect(lengthPenalty(260, 40, 200)!.marks).toBe(1);
    expect(lengthPenalty(100, 40, 200)).toBeNull();
    const text = answer('excellent');
    const within = gradeWithWordNet(req(text)).totalScore;
    const tooLong = gradeWithWordNet(req(text, { maxWords: 60 }));
    expect(tooLong.totalScore).toBe(within - 1);
    expect(tooLong.areasForImprovement.join(' ')).toMatch(/above the maximum of 60/);
  });

  it('gives an empty response zero and is deterministic', () => {
    expect(gradeWithWordNet(req('')).totalScore).toBe(0);
    expect(JSON.stringify(gradeWithWordNet(req(answer('good'))))).toBe(JSON.stringify(gradeWithWordNet(req(answer('good')))));
  });
});
