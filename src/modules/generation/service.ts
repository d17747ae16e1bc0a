/**
 * The generation service behind the two endpoints: read the material, generate with the
 * LLM when one is configured and fall back to the built-in engine on any failure; grade
 * essays the same way. The response's `engine` names what actually ran (docs/design.md §10).
 */
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import { EXTRACTIVE_ENGINE } from '../../core/generation/engine/extractive.js';
import { gradeEssayBuiltIn, RUBRIC_ENGINE } from '../../core/grading/essay/grade-essay.js';
import { relatedWords } from './wordnet.js';
import { llmSettings, LlmFailure, type LlmSettings } from './llm/client.js';
import { gradeWithLlm } from './llm/llm-grade.js';
import { evaluateScriptsWithLlm, evaluationCache } from './llm/llm-batch.js';
import { generateWithLlm } from './llm/llm-generate.js';
import { readMaterial, type MaterialInput } from '../../uploads/material/read-material.js';
import { Gate, processToolEnv, type ToolEnv } from '../../uploads/material/tools.js';
import type { JobRunner } from '../../uploads/job-pool.js';
import { generateInChild, gradeEssaysInChild, scoreInChild } from './engine-jobs.js';
import type { QualityModel } from '../../core/generation/quality/model.js';
import { qualityWarnings } from '../../core/generation/quality/select.js';
import { CALIBRATED_ENGINE } from '../../core/grading/essay/calibrate.js';
import { GENERATED_TYPES, type GenerateResponse, type GeneratedType, type GradeEssayRequest, type GradeEssayResponse, type GradeEssaysRequest, type GradeEssaysResponse, type RequestedDifficulty } from '../../core/generation/schemas.js';

/** A generation request after HTTP parsing. */
export interface GenerateRequest {
  material: MaterialInput;
  difficulty: RequestedDifficulty;
  count: number;
  subject?: string;
  types?: GeneratedType[];
  /** the quality model to score items with (issue 39 §2): a workspace's refit; default the base model */
  qualityModel?: QualityModel;
}

/** Service options; tests shorten the LLM time-out or hide tools. */
export interface GenerationOptions {
  config: Config;
  /** the program's job pool: material is read, and the engine runs, in its processes */
  jobs: JobRunner;
  logger?: Logger;
  llmTimeoutMs?: number;
  toolEnv?: ToolEnv;
}

/** The three operations. */
export interface GenerationService {
  generate(req: GenerateRequest): Promise<GenerateResponse>;
  grade(req: GradeEssayRequest): Promise<GradeEssayResponse>;
  /** One question's scripts, calibrated to the examiner's marks among them: the LLM's evaluations when one is configured and answers for every script, else the rubric engine's. */
  gradeBatch(req: GradeEssaysRequest): Promise<GradeEssaysResponse>;
}

/** Builds the service; one CPU gate per service keeps transcriptions one at a time. */
export function createGenerationService(opts: GenerationOptions): GenerationService {
  const gate = new Gate();
  const llm: LlmSettings | null = llmSettings(opts.config, opts.llmTimeoutMs);
  const llmEvaluations = evaluationCache();
  const fellBack = (what: string, err: unknown) => {
    const reason = err instanceof LlmFailure ? err.message : 'failed unexpectedly';
    if (!(err instanceof LlmFailure)) opts.logger?.error('generation.llm.error', { what, error: String(err) });
    else opts.logger?.warn('generation.llm.fallback', { what, reason });
    return `The language model ${llm!.model} ${reason}; the built-in engine was used instead.`;
  };

  return {
    async generate(req) {
      const material = await readMaterial(opts.jobs, req.material, { toolEnv: opts.toolEnv ?? processToolEnv(), whisperModel: opts.config.CBT_WHISPER_MODEL, gate });
      const types = req.types?.length ? req.types : [...GENERATED_TYPES];
      const warnings = [...material.warnings];
      if (llm) {
        try {
          const out = await generateWithLlm(opts.jobs, llm, material.passages, req.count, req.difficulty, types, req.subject);
          if (out.written > out.questions.length) warnings.push(`${out.written - out.questions.length} question(s) from ${llm.model} were dropped: their answer is not supported by the passage they cite, or their options repeat.`);
          // the LLM's items go through the same quality model as the built-in engine's (issue 39 §2)
          const kept = await scoreInChild(opts.jobs, out.questions, material.passages, req.count, req.difficulty, req.qualityModel);
          warnings.push(...qualityWarnings(kept.questions.length, req.count, kept.withheld, req.difficulty));
          return { success: true, engine: llm.model, difficulty: req.difficulty, totalGenerated: kept.questions.length, questions: kept.questions, warnings, truncated: material.truncated ?? false, withheld: kept.withheld };
        } catch (err) {
          warnings.push(fellBack('generate', err));
        }
      }
      // Seconds of CPU for a long PDF: off the main thread, so candidates' saves are not delayed.
      const built = await generateInChild(opts.jobs, material.passages, { difficulty: req.difficulty, count: req.count, subject: req.subject, types }, req.qualityModel);
      warnings.push(...built.warnings);
      return { success: true, engine: EXTRACTIVE_ENGINE, difficulty: req.difficulty, totalGenerated: built.questions.length, questions: built.questions, warnings, truncated: material.truncated ?? false, withheld: built.withheld };
    },

    async grade(req) {
      if (llm) {
        try {
          return { success: true, engine: llm.model, evaluation: await gradeWithLlm(llm, req) };
        } catch (err) {
          const note = fellBack('grade', err);
          const evaluation = gradeEssayBuiltIn(req, relatedWords);
          return { success: true, engine: RUBRIC_ENGINE, evaluation: { ...evaluation, overallComment: `${evaluation.overallComment} (${note})` } };
        }
      }
      return { success: true, engine: RUBRIC_ENGINE, evaluation: gradeEssayBuiltIn(req, relatedWords) };
    },

    async gradeBatch(req) {
      if (llm) {
        // The LLM's marks go through the same calibration as the rubric engine's (docs/llm.md, "Essays").
        try {
          const evaluations = await evaluateScriptsWithLlm(llm, req, llmEvaluations);
          return { success: true, engine: `${CALIBRATED_ENGINE}+${llm.model}`, ...(await gradeEssaysInChild(opts.jobs, req, evaluations)) };
        } catch (err) {
          fellBack('gradeBatch', err);
        }
      }
      const out = await gradeEssaysInChild(opts.jobs, req);
      return { success: true, engine: CALIBRATED_ENGINE, ...out };
    },
  };
}
