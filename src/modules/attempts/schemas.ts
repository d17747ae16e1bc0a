/** zod shapes of the candidate session endpoints (docs/api-overview.md, "Attempt", docs/design.md §7). */
import { z } from '@hono/zod-openapi';
import { TELEMETRY_TYPES } from '../../core/proctoring/telemetry.js';
import { EXAM_CALCULATORS } from '../../core/exams/schemas.js';

export const startSchema = z
  .object({
    accessCode: z.string().trim().min(1, 'The room code is required').max(32),
    candidatePin: z.string().trim().max(32).optional(),
    candidateName: z.string().trim().min(1, 'Your full name is required').max(200),
    studentId: z.string().trim().min(1, 'The student ID is required').max(64),
  })
  .openapi('StartAttempt');

/**
 * Highest seq a save may carry or be given (2^31 − 1): far above any exam's saves, and
 * far below 2^53, where a JavaScript number stops counting (issue 22: seq 2^53 − 1 was
 * accepted, the server then assigned 2^53 and every later save equalled it and was ignored).
 */
export const MAX_SEQ = 2_147_483_647;
const seq = z.number().int().min(1).max(MAX_SEQ, `seq must be at most ${MAX_SEQ}`).optional();
const text = z.string().max(50_000).nullable().optional();
const optionId = z.string().max(64).nullable().optional();

export const singleAnswerSchema = z.object({ optionId, text, seq }).openapi('AnswerSave');
export const answerItemSchema = z.object({ questionId: z.string().min(1).max(64), optionId, text, seq });
export type AnswerItem = z.infer<typeof answerItemSchema>;
export const batchAnswersSchema = z.object({ answers: z.array(answerItemSchema).max(500) }).openapi('AnswerBatch');
export const submitSchema = z.object({ answers: z.array(answerItemSchema).max(500).optional() }).openapi('Submit');

export const telemetrySchema = z
  .object({
    type: z.enum(TELEMETRY_TYPES, { message: `type must be one of ${TELEMETRY_TYPES.join(', ')}` }),
    meta: z.object({ action: z.string().max(200).optional() }).passthrough().optional(),
  })
  .openapi('TelemetryEvent');

/**
 * `?math=mathml`: the questions' maths as MathML only (browsers with MathML Core), instead
 * of KaTeX's HTML + MathML (the default, for every browser). Issue 26, docs/decisions.md.
 */
export const mathQuery = z.enum(['mathml'], { message: 'math must be mathml, or left out for KaTeX HTML' }).optional().openapi({
  description: 'How the maths of promptHtml and options[].html is written: `mathml` for MathML only (a browser that renders MathML Core, e.g. Chromium 109+, needs no KaTeX stylesheet or fonts); left out, KaTeX HTML with its MathML copy.',
});
export const paperQuery = z.object({ math: mathQuery });

export const candidateQuestionSchema = z.object({
  id: z.string(),
  type: z.string(),
  prompt: z.string(),
  promptHtml: z.string().openapi({ description: 'The prompt rendered by the server (Markdown + LaTeX → sanitised HTML), what the candidate page shows' }),
  marks: z.number(),
  section: z.string().nullable().openapi({ description: 'The section the question belongs to (with sections on the exam: the one it was given under)' }),
  minWords: z.number().nullable(),
  maxWords: z.number().nullable(),
  options: z.array(z.object({ id: z.string(), keyLabel: z.string(), text: z.string(), html: z.string().openapi({ description: 'The option text rendered by the server to sanitised HTML (inline)' }) })),
});

export const sessionSchema = z
  .object({
    isResumed: z.boolean(),
    attemptId: z.string(),
    examId: z.string(),
    examTitle: z.string(),
    candidateName: z.string(),
    studentId: z.string(),
    status: z.string(),
    remainingSeconds: z.number().int(),
    durationMins: z.number().int(),
    extraTimePercent: z.number().int().optional().openapi({ description: 'Access arrangements from the roster: the clock is durationMins × (1 + extraTimePercent/100) + extraTimeMins; present only for a candidate with extra time (already in remainingSeconds)' }),
    extraTimeMins: z.number().int().optional().openapi({ description: 'Access arrangements from the roster: extra minutes on top of the stretched duration; present only for a candidate with extra time' }),
    violations: z.number().int(),
    maxTabViolations: z.number().int(),
    showResultAfter: z.boolean(),
    calculator: z.enum(EXAM_CALCULATORS).openapi({ description: 'The on-screen calculator the page offers: none, basic or scientific (the exam’s setting)' }),
    isPaused: z.boolean(),
    durableSeq: z.number().int(),
    answers: z.array(z.object({ questionId: z.string(), optionId: z.string().nullable(), text: z.string().nullable(), seq: z.number().int() })),
    questions: z.array(candidateQuestionSchema).optional(),
    sections: z
      .array(z.object({ name: z.string(), questionIds: z.array(z.string()) }))
      .optional()
      .openapi({ description: 'An exam with sections only (issue 37): the sections this candidate sits, in order, each with its questions in the order shown (a drawn section: the questions drawn for this attempt, the same on every resume). Absent without sections, and with questions=0.' }),
    flagged: z.array(z.string()).optional().openapi({ description: 'Ids of the questions the candidate flagged for review (PUT /attempts/{id}/flags/{questionId}), from whichever computer; present with the paper' }),
  })
  .openapi('Session');

export const previewSchema = z
  .object({
    examId: z.string(),
    examTitle: z.string(),
    candidateName: z.string(),
    studentId: z.string(),
    isResumed: z.boolean().openapi({ description: 'an attempt is in progress: its clock is already running, and start resumes it' }),
    durationMins: z.number().int(),
    questionCount: z.number().int(),
    essayCount: z.number().int(),
    totalMarks: z.number(),
    maxTabViolations: z.number().int(),
    remainingSeconds: z.number().int().openapi({ description: 'time the candidate will have (a new attempt: the duration with the roster’s extra time, cut short by endsAt)' }),
    isPaused: z.boolean(),
    endsAt: z.string().nullable(),
    instructions: z.string().nullable().openapi({ description: 'The exam’s instructions as the examiner wrote them (Markdown); null: none' }),
    instructionsHtml: z.string().nullable().openapi({ description: 'The instructions rendered by the server (Markdown + LaTeX → sanitised HTML, as promptHtml), what the instructions screen shows; null: none' }),
  })
  .openapi('SessionPreview');

export const saveResponseSchema = z
  .object({ saved: z.boolean(), applied: z.number().int(), seq: z.number().int(), remainingSeconds: z.number().int(), durableSeq: z.number().int() })
  .openapi('AnswerSaved');

export const submitResponseSchema = z
  .object({
    attemptId: z.string(),
    score: z.number(),
    maxScore: z.number(),
    percentage: z.number(),
    grade: z.string(),
    status: z.string(),
    completedAt: z.string(),
    pendingReview: z.boolean(),
    showResult: z.boolean(),
    sectionScores: z
      .array(z.object({ section: z.string(), score: z.number(), maxScore: z.number() }).openapi('SectionScore'))
      .optional()
      .openapi({ description: 'An exam with sections only (issue 37): the score of each section the candidate sat, in the exam’s order, over the questions they were given; they sum to score and maxScore' }),
  })
  .openapi('SubmitResult');

export const telemetryResponseSchema = z
  .object({ attemptId: z.string(), violations: z.number().int(), maxTabViolations: z.number().int(), status: z.string(), disqualified: z.boolean(), remainingSeconds: z.number().int(), durableSeq: z.number().int() })
  .openapi('TelemetryRecorded');

export const attemptParams = z.object({ id: z.string().min(1).max(64) });

/** `GET /attempts/{id}/instructions`: the exam's instructions during the exam (issue 37, "instructions after a reload"). */
export const attemptInstructionsSchema = z
  .object({
    instructionsHtml: z.string().nullable().openapi({ description: 'The exam’s instructions rendered and sanitised by the server, as in the preview (Markdown + LaTeX → HTML, as promptHtml); null: the exam has none' }),
  })
  .openapi('AttemptInstructions');

export const flagSchema = z.object({ flagged: z.boolean({ message: 'flagged must be true or false' }) }).openapi('FlagSave');
export const flagResponseSchema = z.object({ questionId: z.string(), flagged: z.boolean() }).openapi('FlagSaved');
