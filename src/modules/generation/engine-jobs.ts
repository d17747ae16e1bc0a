/**
 * The hall's jobs in a job process (src/uploads/job-pool.ts): the file that defines them
 * (child-jobs.ts, named to the pool by the hall's composition root) and the calls that
 * run them. The question engine takes seconds of CPU on a long PDF and its language model
 * ~56 MB: it runs off the main thread, and its child is retired after it.
 */
import { fileURLToPath } from 'node:url';
import type { GenerateOptions } from '../../core/generation/engine/extractive.js';
import type { QualityModel } from '../../core/generation/quality/model.js';
import type { SelectedResult, Withheld } from '../../core/generation/quality/select.js';
import type { Passage } from '../../core/generation/passage.js';
import type { Evaluation, GeneratedQuestion, GradeEssaysRequest, RequestedDifficulty } from '../../core/generation/schemas.js';
import type { GradeEssaysResult } from '../../core/grading/essay/calibrate.js';
import type { JobRunner } from '../../uploads/job-pool.js';

/** Absolute path of child-jobs (.ts from sources under tsx, .js compiled), for `new JobPool({ jobModules })`. */
export const GENERATION_JOB_MODULE = fileURLToPath(new URL(`./child-jobs.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url));

/** generateQuestions (the engine and its quality model, issue 39 §2) in a job process of `jobs` (the child is ended after it); `model` defaults to the base model. */
export function generateInChild(jobs: JobRunner, passages: Passage[], options: GenerateOptions, model?: QualityModel): Promise<SelectedResult> {
  return jobs.runJob<SelectedResult>({ op: 'generate', passages, options, model }, { retire: true });
}

/** selectByQuality in a job process (it needs WordNet): an LLM's items scored by the same model, the best `count` kept. */
export function scoreInChild(jobs: JobRunner, questions: GeneratedQuestion[], passages: Passage[], count: number, difficulty: RequestedDifficulty, model?: QualityModel): Promise<{ questions: GeneratedQuestion[]; withheld: Withheld }> {
  return jobs.runJob({ op: 'score', questions, passages, count, difficulty, model }, { retire: true });
}

/** selectPassages in a job process of `jobs`: up to `budget` characters of the most informative passages. */
export function selectInChild(jobs: JobRunner, passages: Passage[], budget: number): Promise<Passage[]> {
  return jobs.runJob<Passage[]>({ op: 'select', passages, budget });
}

/**
 * gradeEssaysCalibrated in a job process of `jobs`: up to 500 scripts take seconds of CPU, kept off the server's thread.
 * `evaluations` (an LLM's, per script in order) replace the rubric engine's as the evidence calibrated.
 */
export function gradeEssaysInChild(jobs: JobRunner, input: GradeEssaysRequest, evaluations?: (Evaluation | null)[]): Promise<GradeEssaysResult> {
  return jobs.runJob<GradeEssaysResult>({ op: 'gradeEssays', input, ...(evaluations ? { evaluations } : {}) });
}
