/**
 * zod shapes of the two generation endpoints (docs/api-overview.md, "POST /api/cbt/ai/generate-questions"
 * and "POST /api/cbt/ai/grade-essay"), shared by the engines, the LLM validator and the
 * OpenAPI document.
 */
import { z } from '../zod.js';

export const DIFFICULTIES = ['simple', 'intermediate', 'hard', 'balanced'] as const;
/** Requested tier: simple = recall, intermediate = relation of two facts, hard = synthesis, balanced = progressive mix. */
export const DifficultySchema = z.enum(DIFFICULTIES);
export type RequestedDifficulty = z.infer<typeof DifficultySchema>;
/** Tier carried by one generated question. */
export type QuestionDifficulty = Exclude<RequestedDifficulty, 'balanced'>;

export const GENERATED_TYPES = ['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY'] as const;
export type GeneratedType = (typeof GENERATED_TYPES)[number];

/** Default and maximum number of questions per request (spec default 10; our cap 50). */
export const DEFAULT_COUNT = 10;
export const MAX_COUNT = 50;

export const GeneratedOptionSchema = z.object({
  id: z.string(),
  keyLabel: z.string(),
  text: z.string(),
  isCorrect: z.boolean(),
});

export const RubricCriterionSchema = z.object({
  id: z.string(),
  title: z.string(),
  maxMarks: z.number(),
  description: z.string(),
});

export const GeneratedQuestionSchema = z
  .object({
    id: z.string().openapi({ example: 'q_3f9a1c0b7d21' }),
    prompt: z.string(),
    type: z.enum(GENERATED_TYPES),
    marks: z.number(),
    difficulty: z.enum(['simple', 'intermediate', 'hard']),
    citation: z.string().openapi({ description: 'Where the question is grounded: "page 12", "slide 4", "paragraph 7" or "03:15"; several places are joined with "; ".' }),
    explanation: z.string().openapi({ description: 'Markdown quoting the source passage(s).' }),
    options: z.array(GeneratedOptionSchema).openapi({ description: 'MCQ and TRUE_FALSE options; empty for essays.' }),
    minWords: z.number().int().optional(),
    maxWords: z.number().int().optional(),
    modelAnswer: z.string().optional(),
    rubric: z.object({ name: z.string(), totalMarks: z.number(), criteria: z.array(RubricCriterionSchema) }).optional(),
    quality: z
      .object({
        score: z.number().openapi({ description: 'The quality model\'s estimate (0–1) that the item is usable as-is (issue 39 §2).' }),
        features: z.record(z.string(), z.number()).openapi({ description: 'The named features the score was computed from (docs/quality.md, "Quality model (issue 39 §2)").' }),
      })
      .optional(),
  })
  .openapi('GeneratedQuestion');
export type GeneratedQuestion = z.infer<typeof GeneratedQuestionSchema>;

export const GenerateResponseSchema = z
  .object({
    success: z.literal(true),
    engine: z.string().openapi({ description: '"hallcbt-extractive-1" (built-in) or the LLM model name.' }),
    difficulty: DifficultySchema,
    totalGenerated: z.number().int(),
    questions: z.array(GeneratedQuestionSchema),
    warnings: z.array(z.string()).openapi({ description: 'Notes for the examiner, e.g. a low-confidence transcript or an LLM fallback.' }),
    truncated: z.boolean().openapi({ description: 'true when the material held more than 1,000,000 characters of text and only the first 1,000,000 were used (a warning says so too).' }),
    withheld: z
      .object({ count: z.number().int(), reasons: z.array(z.object({ reason: z.string(), count: z.number().int() })) })
      .openapi({ description: 'Candidate items not returned because the quality model judged them not worth keeping (or, for "hard", not hard), counted by reason (issue 39 §2).' }),
  })
  .openapi('GenerateQuestionsResponse');
export type GenerateResponse = z.infer<typeof GenerateResponseSchema>;

export const GradeCriterionInputSchema = z.object({
  id: z.string().min(1).max(100),
  title: z.string().min(1).max(300),
  maxMarks: z.number().positive().max(1000),
  description: z.string().max(2000).optional(),
});

export const GradeEssayRequestSchema = z
  .object({
    questionPrompt: z.string().min(1).max(20_000),
    studentResponse: z.string().max(50_000),
    modelAnswer: z.string().min(1).max(50_000),
    rubricCriteria: z.array(GradeCriterionInputSchema).min(1).max(30),
    maxMarks: z.number().positive().max(1000),
    minWords: z.number().int().min(0).max(10_000).optional(),
    maxWords: z.number().int().min(1).max(20_000).optional(),
  })
  .superRefine((v, ctx) => {
    const sum = v.rubricCriteria.reduce((s, c) => s + c.maxMarks, 0);
    if (Math.abs(sum - v.maxMarks) > 1e-9) {
      ctx.addIssue({ code: 'custom', path: ['rubricCriteria'], message: `criteria maxMarks sum to ${sum}, but maxMarks is ${v.maxMarks}` });
    }
    if (v.minWords !== undefined && v.maxWords !== undefined && v.minWords > v.maxWords) {
      ctx.addIssue({ code: 'custom', path: ['minWords'], message: 'minWords is greater than maxWords' });
    }
    if (new Set(v.rubricCriteria.map((c) => c.id)).size !== v.rubricCriteria.length) {
      ctx.addIssue({ code: 'custom', path: ['rubricCriteria'], message: 'criterion ids must be unique' });
    }
  })
  .openapi('GradeEssayRequest');
export type GradeEssayRequest = z.infer<typeof GradeEssayRequestSchema>;

export const EvaluationSchema = z.object({
  criteriaScores: z.array(z.object({ criterionId: z.string(), score: z.number(), maxMarks: z.number(), feedback: z.string() })),
  totalScore: z.number(),
  maxScore: z.number(),
  overallComment: z.string(),
  strengths: z.array(z.string()),
  areasForImprovement: z.array(z.string()),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;

export const GradeEssayResponseSchema = z
  .object({ success: z.literal(true), engine: z.string(), evaluation: EvaluationSchema })
  .openapi('GradeEssayResponse');
export type GradeEssayResponse = z.infer<typeof GradeEssayResponseSchema>;

/** Scripts in one POST /api/cbt/ai/grade-essays batch (one question's scripts). */
export const MAX_BATCH_SCRIPTS = 500;

/** One question's scripts for calibrated marking (issue 39 §1; docs/api-overview.md, "POST /api/cbt/ai/grade-essays"). */
export const GradeEssaysRequestSchema = z
  .object({
    questionPrompt: z.string().min(1).max(20_000),
    modelAnswer: z.string().min(1).max(50_000),
    rubricCriteria: z.array(GradeCriterionInputSchema).min(1).max(30),
    maxMarks: z.number().positive().max(1000),
    minWords: z.number().int().min(0).max(10_000).optional(),
    maxWords: z.number().int().min(1).max(20_000).optional(),
    scripts: z
      .array(
        z.object({
          id: z.string().min(1).max(100),
          studentResponse: z.string().max(50_000),
          examinerScore: z.number().min(0).optional().openapi({ description: 'The mark the examiner gave (0 to maxMarks), when marked: the engine learns the examiner\'s scale from these.' }),
        }),
      )
      .min(1)
      .max(MAX_BATCH_SCRIPTS),
  })
  .superRefine((v, ctx) => {
    const sum = v.rubricCriteria.reduce((s, c) => s + c.maxMarks, 0);
    if (Math.abs(sum - v.maxMarks) > 1e-9) ctx.addIssue({ code: 'custom', path: ['rubricCriteria'], message: `criteria maxMarks sum to ${sum}, but maxMarks is ${v.maxMarks}` });
    if (v.minWords !== undefined && v.maxWords !== undefined && v.minWords > v.maxWords) ctx.addIssue({ code: 'custom', path: ['minWords'], message: 'minWords is greater than maxWords' });
    if (new Set(v.rubricCriteria.map((c) => c.id)).size !== v.rubricCriteria.length) ctx.addIssue({ code: 'custom', path: ['rubricCriteria'], message: 'criterion ids must be unique' });
    if (new Set(v.scripts.map((s) => s.id)).size !== v.scripts.length) ctx.addIssue({ code: 'custom', path: ['scripts'], message: 'script ids must be unique' });
    v.scripts.forEach((s, i) => {
      if (s.examinerScore !== undefined && s.examinerScore > v.maxMarks) ctx.addIssue({ code: 'custom', path: ['scripts', i, 'examinerScore'], message: `examinerScore ${s.examinerScore} is more than maxMarks ${v.maxMarks}` });
    });
  })
  .openapi('GradeEssaysRequest');
export type GradeEssaysRequest = z.infer<typeof GradeEssaysRequestSchema>;

export const GradeEssaysResponseSchema = z
  .object({
    success: z.literal(true),
    engine: z.string(),
    markFirst: z.array(z.string()).openapi({ description: 'Unmarked scripts the examiner should mark next, most informative first (at least 3 while fewer than 3 are marked, when there are that many).' }),
    recommendations: z.array(
      z.object({
        id: z.string(),
        totalScore: z.number(),
        criteriaScores: EvaluationSchema.shape.criteriaScores,
        confidence: z.enum(['high', 'medium', 'low']),
        calibrated: z.boolean().openapi({ description: 'true when the total is fitted to the examiner\'s marks in this request' }),
      }),
    ),
  })
  .openapi('GradeEssaysResponse');
export type GradeEssaysResponse = z.infer<typeof GradeEssaysResponseSchema>;

const fileField = z.any().openapi({ type: 'string', format: 'binary' });

/** The multipart form of POST /api/cbt/ai/generate-questions (spec fields plus `captions` and `types`). */
export const GenerateFormSchema = z
  .object({
    file: fileField.optional().openapi({ description: 'PDF, DOCX, TXT/Markdown, PPTX, MP3, WAV or MP4 (or SRT/VTT captions), up to 40 MB' }),
    captions: fileField.optional().openapi({ description: 'Optional .srt/.vtt for the audio or video: used as the transcript instead of speech recognition' }),
    notes: z.string().max(500_000).optional().openapi({ description: 'Plain-text or Markdown notes or transcript' }),
    difficulty: DifficultySchema.optional().openapi({ description: 'simple | intermediate | hard | balanced (default balanced)' }),
    count: z.string().regex(/^\s*\d{1,4}\s*$/, 'a whole number').optional().openapi({ description: `Target number of questions; default ${DEFAULT_COUNT}, at most ${MAX_COUNT}` }),
    subject: z.string().max(200).optional().openapi({ description: 'Topic or curriculum context' }),
    types: z
      .string()
      .regex(/^\s*(?:MCQ|TRUE_FALSE|SHORT_ESSAY)(?:\s*,\s*(?:MCQ|TRUE_FALSE|SHORT_ESSAY))*\s*$/, 'comma-separated MCQ, TRUE_FALSE, SHORT_ESSAY')
      .optional()
      .openapi({ description: 'Question types to generate, e.g. "MCQ,TRUE_FALSE" (default all three)' }),
  })
  .openapi('GenerateQuestionsForm');
