/** zod shapes of the exam endpoints (docs/api-overview.md, "Exam", docs/design.md §5). */
import { z } from '../zod.js';
import { storedQuestionSchema } from '../questions/schemas.js';

const isoDateTime = z.string().datetime({ offset: true, message: 'Use an ISO 8601 date-time, e.g. 2026-11-22T09:00:00Z' });
const accessCode = z
  .string()
  .trim()
  .min(4)
  .max(32)
  .regex(/^[A-Za-z0-9-]+$/, 'Room codes use letters, digits and hyphens');

/** Most characters an exam's instructions may have (issue 36). */
export const MAX_INSTRUCTIONS_CHARS = 5000;

/**
 * The exam's instructions to candidates: Markdown + LaTeX, rendered and sanitised as a
 * question's prompt is (src/core/rich-text.ts) on the candidate's instructions
 * screen. Blank or null: none.
 */
const instructions = z
  .string()
  .max(MAX_INSTRUCTIONS_CHARS, `instructions may have at most ${MAX_INSTRUCTIONS_CHARS.toLocaleString('en')} characters`)
  .nullable()
  .optional()
  .openapi({ description: `Instructions the candidate reads before the clock starts (Markdown with $…$ maths; at most ${MAX_INSTRUCTIONS_CHARS} characters; rendered and sanitised like a question's prompt). null or blank clears them.` });

/** The calculators an exam may offer its candidates (issue 37 item 7; docs/decisions.md, "The candidate's calculator"). */
export const EXAM_CALCULATORS = ['none', 'basic', 'scientific'] as const;
export type ExamCalculator = (typeof EXAM_CALCULATORS)[number];

const calculator = z.enum(EXAM_CALCULATORS, { error: 'calculator must be "none", "basic" or "scientific"' }).openapi({
  description: 'The on-screen calculator the candidate page offers (a button and Alt+C): "none" (the default), "basic" (+ − × ÷, %, ±, parentheses) or "scientific" (also sin/cos/tan in degrees, log, ln, √, xʸ, π and memory). Works offline in the page.',
});

/** Most sections an exam may have. */
export const MAX_SECTIONS = 30;

/**
 * The exam's sections (issue 37 items 1–3; docs/decisions.md, "Sections, draws and subject
 * combinations"): an ordered list; a question belongs to the section its `section` names.
 * Names are unique case-insensitively and hold no `,` `;` `|` (they separate subjects in a
 * roster file). [] or null: no sections (every candidate sits every question).
 */
const sections = z
  .array(
    z
      .object({
        name: z.string().trim().min(1, 'A section needs a name').max(60).regex(/^[^,;|]+$/, 'A section name may not contain , ; or | (they separate subjects in a roster file)'),
        draw: z.number().int().min(1, 'draw must be at least 1').max(1000).optional().openapi({ description: 'Give each candidate this many of the section’s questions, drawn at random when the attempt starts (the same on every resume). Absent: every question of the section.' }),
        compulsory: z.boolean().optional().openapi({ description: 'Every candidate sits it (default true); false: only roster candidates listing it in `subjects` (and candidates who list no subjects).' }),
      })
      .strict(),
  )
  .max(MAX_SECTIONS)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((s, i) => {
      const key = s.name.trim().toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `Section "${s.name}" appears twice (names are compared without regard to case)` });
      seen.add(key);
    });
  })
  .nullable()
  .optional()
  .openapi({ description: 'Ordered sections: `{ name (1–60 characters), draw?: n ≥ 1, compulsory?: boolean (default true) }`. With sections, every question names one of them in `section`; candidates sit the compulsory sections plus the subjects the roster lists for them (all sections when none are listed), in this order. [] or null removes them.' });
export type ExamSectionsInput = z.infer<typeof sections>;

const examFields = {
  instructions,
  sections,
  title: z.string().trim().min(1).max(200),
  durationMins: z.number().int().min(1).max(600),
  accessCode: accessCode.optional(),
  startsAt: isoDateTime.nullable().optional(),
  endsAt: isoDateTime.nullable().optional(),
  maxTabViolations: z.number().int().min(0).max(100).optional(),
  shuffleQuestions: z.boolean().optional(),
  shuffleChoices: z.boolean().optional(),
  showResultAfter: z.boolean().optional(),
  calculator: calculator.optional(),
  isPublished: z.boolean().optional(),
  requireSafeExamBrowser: z.boolean().optional().openapi({ description: 'Candidate requests must carry this exam’s Config Key hash (proof that the client has the generated configuration, not that it is SEB) and, when browserExamKeys are set, a registered Browser Exam Key’s hash (default false).' }),
  safeExamBrowser: z
    .object({
      browserExamKeys: z.array(z.string().regex(/^[0-9a-fA-F]{64}$/, 'A Browser Exam Key is 64 hex digits')).max(50).optional().openapi({ description: 'Browser Exam Keys of the SEB versions the centre allows (64 hex digits each, as SEB shows them for this exam’s configuration; one per SEB version and platform). When set, every candidate request must also carry X-SafeExamBrowser-RequestHash = SHA-256(absolute URL + one of them); [] clears (Config Key check only).' }),
      quitPassword: z.string().min(6).max(64).regex(/^[^"\\\s]+$/, 'No spaces, quotes or backslashes').optional().openapi({ description: 'The invigilator’s password to quit SEB (a random one is issued when SEB is switched on).' }),
      baseUrl: z.string().max(200).regex(/^https?:\/\/[^\s"'\\<>#?]+$/, 'An http(s) URL without query or fragment, e.g. http://192.168.1.10:8080').optional().openapi({ description: 'The server address hall PCs use (start URL of the configuration). Fixed when SEB is switched on.' }),
    })
    .strict()
    .optional(),
};

export const createExamSchema = z.object({ workspaceId: z.string().min(1), ...examFields }).openapi('CreateExam');
export type CreateExamInput = z.infer<typeof createExamSchema>;

export const patchExamSchema = z
  .object({
    title: examFields.title.optional(),
    instructions: examFields.instructions,
    sections: examFields.sections,
    durationMins: examFields.durationMins.optional(),
    accessCode: examFields.accessCode,
    startsAt: examFields.startsAt,
    endsAt: examFields.endsAt,
    maxTabViolations: examFields.maxTabViolations,
    shuffleQuestions: examFields.shuffleQuestions,
    shuffleChoices: examFields.shuffleChoices,
    showResultAfter: examFields.showResultAfter,
    calculator: examFields.calculator,
    isPublished: examFields.isPublished,
    requireSafeExamBrowser: examFields.requireSafeExamBrowser,
    safeExamBrowser: examFields.safeExamBrowser,
  })
  .openapi('PatchExam');
export type PatchExamInput = z.infer<typeof patchExamSchema>;

/** `safeExamBrowser` of the exam's read shape (issue 25). */
export const sebReadSchema = z
  .object({
    required: z.boolean(),
    configKey: z.string().nullable().openapi({ description: 'Config Key of the generated configuration (SHA-256 of its SEB-JSON, hex). Anyone holding the .seb file can compute it: its check proves the client has the configuration, not that it is SEB.' }),
    startUrl: z.string().nullable(),
    quitUrl: z.string().nullable(),
    configUrl: z.string().nullable().openapi({ description: 'The .seb file for the hall PCs, behind the download code (no API key; the room code alone is refused)' }),
    sebUrl: z.string().nullable().openapi({ description: 'seb:// or sebs:// form of configUrl: the link (and QR code) the invigilator hands out' }),
    downloadCode: z.string().nullable().openapi({ description: 'The code in configUrl (10 characters); changes with the room code or the quit password' }),
    browserExamKeys: z.array(z.string()).openapi({ description: 'Registered Browser Exam Keys; [] = the BEK is not checked' }),
  })
  .openapi('SafeExamBrowserSettings');

export const examSchema = z
  .object({
    id: z.string(),
    workspaceId: z.string(),
    title: z.string(),
    instructions: z.string().nullable().openapi({ description: 'The instructions as the examiner wrote them (Markdown); null: none' }),
    accessCode: z.string(),
    durationMins: z.number().int(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    maxTabViolations: z.number().int(),
    shuffleQuestions: z.boolean(),
    shuffleChoices: z.boolean(),
    showResultAfter: z.boolean(),
    calculator,
    sections: z.array(z.object({ name: z.string(), draw: z.number().int().nullable(), compulsory: z.boolean() }).openapi('ExamSection')).openapi({ description: 'The exam’s sections in order ([] when it has none); `draw` null: every question of the section' }),
    isPublished: z.boolean(),
    isPaused: z.boolean(),
    requireSafeExamBrowser: z.boolean(),
    safeExamBrowser: sebReadSchema,
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
