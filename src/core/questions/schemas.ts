/**
 * zod shapes of questions (docs/api-overview.md, "Question", docs/design.md §6). The item rules (option counts,
 * exactly one correct, rubric sums) are in `questionInputSchema`'s refinements so that
 * bulk ingestion, spreadsheet import and PATCH share one definition.
 */
import { z } from '../zod.js';
import { MAX_EXPLANATION_CHARS, MAX_MODEL_ANSWER_CHARS, MAX_OPTION_CHARS, MAX_PROMPT_CHARS, MAX_RUBRIC_CHARS, questionMathsProblem, questionSize, rubricChars } from './limits.js';

/** A `.max` message that names the limit and where it comes from. */
const atMost = (what: string, max: number) => `${what} may hold at most ${max.toLocaleString('en-GB')} characters (docs/decisions.md, "Paper size limits")`;

export const QUESTION_TYPES = ['MCQ', 'TRUE_FALSE', 'SHORT_ESSAY', 'LONG_ESSAY'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const DIFFICULTIES = ['simple', 'intermediate', 'hard'] as const;

/** Essay length guidance (spec): short 20–100 words, extended 150–800 words. */
export const ESSAY_WORD_DEFAULTS = { SHORT_ESSAY: { min: 20, max: 100 }, LONG_ESSAY: { min: 150, max: 800 } } as const;

export const optionInputSchema = z.object({
  id: z.string().max(64).optional(),
  keyLabel: z.string().trim().min(1).max(8).optional(),
  text: z.string().trim().min(1, 'Option text is required').max(MAX_OPTION_CHARS, atMost('An option', MAX_OPTION_CHARS)).openapi({ description: `Markdown with $…$ maths; at most ${MAX_OPTION_CHARS} characters (docs/decisions.md, "Paper size limits")` }),
  isCorrect: z.boolean().default(false),
});

export const criterionInputSchema = z.object({
  id: z.string().trim().min(1).max(64).optional(),
  title: z.string().trim().min(1).max(200),
  maxMarks: z.number().positive().max(1000),
  description: z.string().max(2000).optional().default(''),
});

export const rubricInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  totalMarks: z.number().positive().max(1000),
  criteria: z.array(criterionInputSchema).min(1).max(20),
});

const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;

const baseQuestion = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, 'The prompt is required')
    .max(MAX_PROMPT_CHARS, atMost('The prompt', MAX_PROMPT_CHARS))
    .openapi({ description: `Markdown with $…$ / $$…$$ maths; at most ${MAX_PROMPT_CHARS} characters, and with the options at most 150 maths spans holding 2,000 characters of TeX. An exam's questions together: at most 1,000 questions, 100,000 characters of prompts and options, 1,500 maths spans, 10,000 characters of TeX and 1,000,000 authored characters (docs/decisions.md, "Paper size limits")` }),
  type: z.enum(QUESTION_TYPES),
  marks: z.number().positive('marks must be greater than 0').max(1000),
  options: z.array(optionInputSchema).max(10).optional(),
  explanation: z.string().max(MAX_EXPLANATION_CHARS, atMost('The explanation', MAX_EXPLANATION_CHARS)).nullable().optional(),
  section: z.string().trim().max(200).nullable().optional(),
  minWords: z.number().int().min(0).max(10_000).nullable().optional(),
  maxWords: z.number().int().min(1).max(10_000).nullable().optional(),
  modelAnswer: z.string().max(MAX_MODEL_ANSWER_CHARS, atMost('The model answer', MAX_MODEL_ANSWER_CHARS)).nullable().optional(),
  rubric: rubricInputSchema.nullable().optional(),
  difficulty: z.enum(DIFFICULTIES).nullable().optional(),
  citation: z.string().max(200).nullable().optional(),
});

/** The cross-field item rules of docs/design.md §6 (option counts, one key, rubric sums). */
function itemRules(q: z.infer<typeof baseQuestion>, ctx: z.RefinementCtx): void {
  {
    // how much maths one question may make the renderer typeset (src/core/questions/limits.ts)
    const maths = questionMathsProblem(questionSize(q));
    if (maths) ctx.addIssue({ code: 'custom', path: ['prompt'], message: `${maths} (docs/decisions.md, "Paper size limits")` });
    if (rubricChars(q.rubric) > MAX_RUBRIC_CHARS) ctx.addIssue({ code: 'custom', path: ['rubric'], message: atMost('The rubric (name, titles and descriptions)', MAX_RUBRIC_CHARS) });
    const opts = q.options ?? [];
    if (q.type === 'MCQ' || q.type === 'TRUE_FALSE') {
      const [min, max] = q.type === 'MCQ' ? [2, 10] : [2, 2];
      if (opts.length < min || opts.length > max) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: q.type === 'MCQ' ? 'An MCQ has 2 to 10 options' : 'A TRUE_FALSE question has exactly two options (True, False)' });
      }
      const correct = opts.filter((o) => o.isCorrect).length;
      if (correct !== 1) ctx.addIssue({ code: 'custom', path: ['options'], message: `Exactly one option must have isCorrect: true (found ${correct})` });
      const labels = opts.map((o) => o.keyLabel).filter(Boolean);
      if (new Set(labels).size !== labels.length) ctx.addIssue({ code: 'custom', path: ['options'], message: 'Option keyLabels must be unique' });
    } else {
      if (opts.length > 0) ctx.addIssue({ code: 'custom', path: ['options'], message: 'Essay questions have no options' });
      if (q.minWords != null && q.maxWords != null && q.maxWords < q.minWords) ctx.addIssue({ code: 'custom', path: ['maxWords'], message: 'maxWords must be at least minWords' });
      if (q.rubric) {
        const sum = q.rubric.criteria.reduce((s, c) => s + c.maxMarks, 0);
        if (!near(sum, q.rubric.totalMarks)) ctx.addIssue({ code: 'custom', path: ['rubric', 'totalMarks'], message: `The criteria's maxMarks sum to ${sum}, not rubric.totalMarks ${q.rubric.totalMarks}` });
        if (!near(q.rubric.totalMarks, q.marks)) ctx.addIssue({ code: 'custom', path: ['rubric', 'totalMarks'], message: `rubric.totalMarks (${q.rubric.totalMarks}) must equal the question's marks (${q.marks})` });
      }
    }
  }
}

export const questionInputSchema = baseQuestion.superRefine(itemRules).openapi('QuestionInput');
export type QuestionInput = z.infer<typeof baseQuestion>;

/** PATCH: any field; the merged question is re-validated with the item rules. */
export const questionPatchSchema = baseQuestion.partial().openapi('QuestionPatch');

export const bulkQuestionsSchema = z
  .object({
    workspaceId: z.string().min(1),
    examId: z.string().min(1),
    // items are validated one by one in the service so errors carry their index
    questions: z.array(z.unknown()).min(1, 'questions must not be empty').max(500, 'At most 500 questions per request'),
  })
  .openapi('BulkQuestions');

export const storedOptionSchema = z.object({ id: z.string(), keyLabel: z.string(), text: z.string(), isCorrect: z.boolean() });

export const storedQuestionSchema = z
  .object({
    id: z.string(),
    examId: z.string(),
    position: z.number().int(),
    prompt: z.string(),
    type: z.enum(QUESTION_TYPES),
    marks: z.number(),
    options: z.array(storedOptionSchema),
    explanation: z.string().nullable(),
    section: z.string().nullable(),
    minWords: z.number().int().nullable(),
    maxWords: z.number().int().nullable(),
    modelAnswer: z.string().nullable(),
    rubric: z
      .object({ name: z.string(), totalMarks: z.number(), criteria: z.array(z.object({ id: z.string(), title: z.string(), maxMarks: z.number(), description: z.string() })) })
      .nullable(),
    difficulty: z.string().nullable(),
    citation: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('Question');
export type StoredQuestion = z.infer<typeof storedQuestionSchema>;
