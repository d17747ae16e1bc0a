/**
 * Deterministic grading of an attempt (spec: MCQ and TRUE_FALSE graded at once; docs/design.md §7:
 * essays count 0 until an examiner approves a score, and the result is `pendingReview`).
 * Marks may be decimals; the total is rounded to two decimals to avoid float dust.
 */
import type { GradablePaper } from './paper.js';
import { gradeFor, percentageOf } from './scale.js';

export interface AnswerForGrading {
  questionId: string;
  optionId: string | null;
  text: string | null;
  /** examiner-approved marks for an essay, or null */
  approvedMarks: number | null;
}

export interface GradedQuestion {
  questionId: string;
  awardedMarks: number;
  isCorrect: boolean | null;
}

export interface GradeResult {
  score: number;
  maxScore: number;
  percentage: number;
  grade: string;
  pendingReview: boolean;
  perQuestion: GradedQuestion[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Grades answers against the paper's keys. Unanswered questions score 0. */
export function gradeAttempt(paper: GradablePaper, answers: AnswerForGrading[]): GradeResult {
  const byQ = new Map(answers.map((a) => [a.questionId, a]));
  let score = 0;
  let pendingReview = false;
  const perQuestion: GradedQuestion[] = [];
  for (const q of paper.questions) {
    const a = byQ.get(q.id);
    if (q.type === 'MCQ' || q.type === 'TRUE_FALSE') {
      const correct = !!a?.optionId && q.optionsById.get(a.optionId)?.isCorrect === true;
      const awarded = correct ? q.marks : 0;
      score += awarded;
      perQuestion.push({ questionId: q.id, awardedMarks: awarded, isCorrect: correct });
    } else {
      const answered = !!a?.text && a.text.trim().length > 0;
      if (answered && a!.approvedMarks === null) pendingReview = true;
      const awarded = answered && a!.approvedMarks !== null ? Math.min(q.marks, Math.max(0, a!.approvedMarks)) : 0;
      score += awarded;
      perQuestion.push({ questionId: q.id, awardedMarks: awarded, isCorrect: null });
    }
  }
  score = round2(score);
  const maxScore = round2(paper.maxScore);
  const percentage = percentageOf(score, maxScore);
  return { score, maxScore, percentage, grade: gradeFor(percentage), pendingReview, perQuestion };
}
