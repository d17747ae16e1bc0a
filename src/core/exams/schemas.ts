/** zod shapes of the exam endpoints (spec "Exam", DESIGN §5). */
import { z } from '../zod.js';
import { storedQuestionSchema } from '../questions/schemas.js';

const isoDateTime = z.string().datetime({ offset: true, message: 'Use an ISO 8601 date-time, e.g. 2026-11-22T09:00:00Z' });
const accessCode = z
  .string()
  .trim()
  .min(4)
  .max(32)
  .regex(/^[A-Za-z0-9-]+$/, 'Room codes use letters, digits and hyphens');

const examFields = {
  title: z.string().trim().min(1).max(200),
  durationMins: z.number().int().min(1).max(600),
  accessCode: accessCode.optional(),
  startsAt: isoDateTime.nullable().optional(),
  endsAt: isoDateTime.nullable().optional(),
  maxTabViolations: z.number().int().min(0).max(100).optional(),
  shuffleQuestions: z.boolean().optional(),
  shuffleChoices: z.boolean().optional(),
  showResultAfter: z.boolean().optional(),
  isPublished: z.boolean().optional(),
};

export const createExamSchema = z.object({ workspaceId: z.string().min(1), ...examFields }).openapi('CreateExam');
export type CreateExamInput = z.infer<typeof createExamSchema>;

export const patchExamSchema = z
  .object({
    title: examFields.title.optional(),
    durationMins: examFields.durationMins.optional(),
    accessCode: examFields.accessCode,
    startsAt: examFields.startsAt,
    endsAt: examFields.endsAt,
    maxTabViolations: examFields.maxTabViolations,
    shuffleQuestions: examFields.shuffleQuestions,
    shuffleChoices: examFields.shuffleChoices,
    showResultAfter: examFields.showResultAfter,
    isPublished: examFields.isPublished,
  })
  .openapi('PatchExam');
export type PatchExamInput = z.infer<typeof patchExamSchema>;

export const examSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    title: z.string(),
    accessCode: z.string(),
    durationMins: z.number().int(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    maxTabViolations: z.number().int(),
    shuffleQuestions: z.boolean(),
    shuffleChoices: z.boolean(),
    showResultAfter: z.boolean(),
    isPublished: z.boolean(),
    isPaused: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('Exam');

export const examListItemSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    accessCode: z.string(),
    durationMins: z.number().int(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    isPublished: z.boolean(),
    isPaused: z.boolean(),
    _count: z.object({ questions: z.number().int(), attempts: z.number().int() }),
  })
  .openapi('ExamListItem');

export const examDetailSchema = examSchema.extend({ questions: z.array(storedQuestionSchema) }).openapi('ExamDetail');

export const reasonSchema = z.object({ reason: z.string().trim().min(1, 'A reason is required for the audit log').max(500) }).openapi('Reason');
export const optionalReasonSchema = z.object({ reason: z.string().trim().max(500).optional() }).openapi('OptionalReason');

export const examIdParam = z.object({ id: z.string().min(1).max(64) });
