/**
 * The hall's own jobs for the job processes (src/uploads/job-pool.ts `jobModules`): run
 * inside a job process, never in the server. `generate` is the question engine with its quality model
 * (issue 39 §2) and WordNet; `score` puts an LLM's items through the same model (read from disk here, in the child: distractors of the key's kind and believable
 * false statements); `select` picks the passages an LLM sees (llm/select.ts);
 * `gradeEssays` marks one question's scripts together, calibrated to the examiner's marks
 * (core/grading/essay/calibrate.ts, with WordNet; on an LLM's evaluations when given).
 */
import type { GenerateOptions } from '../../core/generation/engine/extractive.js';
import type { Passage } from '../../core/generation/passage.js';
import type { Evaluation, GeneratedQuestion, GradeEssaysRequest, RequestedDifficulty } from '../../core/generation/schemas.js';
import type { QualityModel } from '../../core/generation/quality/model.js';

/** Each job by its op; job-child.ts calls the one a job names. */
export const childJobs = {
  async generate(job: { passages: Passage[]; options: GenerateOptions; model?: QualityModel }) {
    return (await import('../../core/generation/quality/select.js')).generateQuestions(job.passages, { ...job.options, model: job.model, lexicon: (await import('./wordnet.js')).kindOf });
  },
  async score(job: { questions: GeneratedQuestion[]; passages: Passage[]; count: number; difficulty: RequestedDifficulty; model?: QualityModel }) {
    return (await import('../../core/generation/quality/select.js')).selectByQuality(job.questions, job.passages, { model: job.model, count: job.count, difficulty: job.difficulty, lexicon: (await import('./wordnet.js')).kindOf, order: 'input' });
  },
  async gradeEssays(job: { input: GradeEssaysRequest; evaluations?: (Evaluation | null)[] }) {
    return (await import('../../core/grading/essay/calibrate.js')).gradeEssaysCalibrated(job.input, (await import('./wordnet.js')).relatedWords, job.evaluations);
  },
  async select(job: { passages: Passage[]; budget: number }) {
    return (await import('./llm/select.js')).selectPassages(job.passages, job.budget);
  },
};
