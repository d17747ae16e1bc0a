/**
 * The shapes of the hub ↔ hall messages (docs/hub-protocol.md), as zod schemas both sides
 * validate with: the enrolment request and answer, the sealed package and the paper inside
 * it, the release answer, a result event and the heartbeat. Pure: zod only.
 */
import { z } from 'zod';
import { storedQuestionSchema } from '../questions/schemas.js';
import { EXAM_CALCULATORS } from '../exams/schemas.js';

const isoDate = z.string().datetime({ offset: true });
const b64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/).max(4_000_000);

export const enrolRequestSchema = z.object({
  enrolmentCode: z.string().trim().min(8).max(64),
  hallName: z.string().trim().min(1).max(200),
  /** base64 SPKI DER of the hall's Ed25519 public key */
  publicKey: b64.min(40).max(200),
  /** the hall's clock when it asked (ISO) */
  clock: isoDate,
});
export type EnrolRequest = z.infer<typeof enrolRequestSchema>;

export const enrolmentPayloadSchema = z.object({
  kind: z.literal('hallcbt.enrolment.v1'),
  hallId: z.string(),
  hallName: z.string(),
  hubPublicKey: b64,
  issuedAt: isoDate,
});
export type EnrolmentPayload = z.infer<typeof enrolmentPayloadSchema>;

const gcmBox = z.object({ alg: z.literal('A256GCM'), iv: b64, tag: b64, ciphertext: b64 });
const wrappedKey = z.object({ alg: z.literal('A256GCM+HKDF-SHA256'), salt: b64, iv: b64, tag: b64, ciphertext: b64 });

export const packagePayloadSchema = z.object({
  kind: z.literal('hallcbt.package.v1'),
  packageId: z.string().min(1).max(64),
  hallId: z.string().min(1).max(64),
  examId: z.string().min(1).max(64),
  version: z.number().int().min(1),
  issuedAt: isoDate,
  title: z.string(),
  startsAt: isoDate,
  endsAt: isoDate.nullable(),
  durationMins: z.number().int().min(1).max(600),
  /**
   * Added in protocol 1.2 (optional): the candidate credits the hub grants this hall with the
   * paper — one per candidate of the package's roster. The hall adds them once, when the
   * package is released (docs/hub-protocol.md, "Credits with the paper"); absent = none.
   */
  credits: z.number().int().min(0).max(20_000).optional(),
  sealed: gcmBox,
  wrappedKey,
});
export type PackagePayload = z.infer<typeof packagePayloadSchema>;

/**
 * A question as a sealed paper carries it: the hall's stored question, less what belongs to
 * one hall's exam (exam, position, dates). Not the grading view of a paper's question
 * (core/grading/paper.ts `PaperQuestion`, with its options indexed), which a hall or the hub
 * builds from this.
 */
const sealedQuestionSchema = storedQuestionSchema.pick({ id: true, prompt: true, type: true, marks: true, options: true, explanation: true, section: true, minWords: true, maxWords: true, modelAnswer: true, rubric: true });
export type SealedQuestion = z.infer<typeof sealedQuestionSchema>;

/** One section of a sealed paper, as the hall stores it (core/exams/sections.ts `ExamSection`). */
const sealedSectionSchema = z.object({ name: z.string().min(1).max(60), draw: z.number().int().min(1).max(1000).nullable(), compulsory: z.boolean() });

/** One candidate of a sealed paper's roster. */
const sealedRosterEntrySchema = z.object({
  studentId: z.string(),
  candidateName: z.string(),
  pin: z.string(),
  /** protocol 1.3 (paper v2, optional): the sections the candidate sits besides the compulsory ones, spelled as the paper's sections */
  subjects: z.array(z.string().max(60)).max(30).optional(),
  /** protocol 1.3 (paper v2, optional): access arrangements, as the hall's roster holds them (core/roster/schemas.ts) */
  extraTimePercent: z.number().int().min(0).max(200).optional(),
  extraTimeMins: z.number().int().min(0).max(600).optional(),
});

/**
 * What `sealed` holds: the exam's settings, questions with keys, roster with PINs.
 * `hallcbt.paper.v2` (protocol 1.3; docs/hub-protocol.md, "Protocol changes") is a v1 paper
 * that uses what a v1 hall would drop and so run wrongly — `sections`, `settings.calculator`,
 * a roster entry's `subjects` or extra time; a hub seals v1 whenever the paper uses none of
 * them, so an older hall refuses (cannot parse) only the papers it could not run as meant.
 */
export const paperSchema = z.object({
  kind: z.enum(['hallcbt.paper.v1', 'hallcbt.paper.v2']),
  examId: z.string(),
  title: z.string(),
  durationMins: z.number().int(),
  startsAt: isoDate,
  endsAt: isoDate.nullable(),
  settings: z.object({ maxTabViolations: z.number().int(), shuffleQuestions: z.boolean(), shuffleChoices: z.boolean(), showResultAfter: z.boolean(), calculator: z.enum(EXAM_CALCULATORS).optional() }),
  /** v2: the exam's sections in order (docs/decisions.md, "Sections, draws and subject combinations"); absent: none */
  sections: z.array(sealedSectionSchema).min(1).max(30).optional(),
  questions: z.array(sealedQuestionSchema).min(1),
  roster: z.array(sealedRosterEntrySchema),
});
export type Paper = z.infer<typeof paperSchema>;

/** Whether a paper needs `hallcbt.paper.v2` (it uses a field a v1 hall would drop). */
export function paperNeedsV2(p: Pick<Paper, 'settings' | 'sections' | 'roster'>): boolean {
  return !!p.sections?.length || (p.settings.calculator !== undefined && p.settings.calculator !== 'none') || p.roster.some((r) => r.subjects?.length || r.extraTimePercent || r.extraTimeMins);
}

export const releasePayloadSchema = z.object({
  kind: z.literal('hallcbt.release.v1'),
  packageId: z.string(),
  hallId: z.string(),
  releaseCode: z.string(),
  issuedAt: isoDate,
});

const resultAnswer = z.object({
  questionId: z.string().max(64),
  optionId: z.string().max(64).nullable(),
  text: z.string().max(100_000).nullable(),
  awardedMarks: z.number().nullable(),
  reviewed: z.boolean(),
});

/** One completed, disqualified or regraded attempt of a hub exam, sent up through the hall's outbox. */
export const resultEventSchema = z.object({
  eventId: z.string().min(1).max(64),
  type: z.enum(['exam.attempt.completed', 'exam.attempt.disqualified', 'exam.attempt.regraded']),
  packageId: z.string().min(1).max(64),
  examId: z.string().min(1).max(64),
  createdAt: isoDate,
  attempt: z.object({
    attemptId: z.string().min(1).max(64),
    studentId: z.string().min(1).max(64),
    candidateName: z.string().max(200),
    status: z.enum(['COMPLETED', 'DISQUALIFIED', 'IN_PROGRESS']),
    startedAt: isoDate,
    completedAt: isoDate.nullable(),
    disqualifiedAt: isoDate.nullable(),
    creditedMs: z.number().int().min(0),
    violations: z.number().int().min(0),
    score: z.number(),
    maxScore: z.number(),
    percentage: z.number(),
    grade: z.string().max(4),
    pendingReview: z.boolean(),
    /**
     * Protocol 1.3 (optional; a paper with sections): the hall's score per section, in the
     * paper's section order (core/grading/section-scores.ts) — a claim, as `score` is.
     */
    sectionScores: z.array(z.object({ section: z.string().max(60), score: z.number(), maxScore: z.number() })).max(30).optional(),
    /**
     * Protocol 1.3 (optional; a paper with sections): the ids of the questions the candidate
     * was given (their sections and draws), which the hub grades on after checking they are
     * a sitting the paper allows this candidate (hub/result-checks.ts).
     */
    givenQuestionIds: z.array(z.string().max(64)).max(2000).optional(),
    answers: z.array(resultAnswer).max(1000),
    audit: z.array(z.object({ at: isoDate, action: z.string().max(100), actor: z.string().max(200), detail: z.string().max(10_000) })).max(1000),
  }),
});
export type ResultEvent = z.infer<typeof resultEventSchema>;

/** Most events a hall sends in one batch (docs/hub-protocol.md, "Results up"). */
export const MAX_RESULT_BATCH_EVENTS = 500;
/** Most body bytes a hall puts in one batch (the hub takes up to 10 MB; one larger event goes alone). */
export const MAX_RESULT_BATCH_BYTES = 2 * 1024 * 1024;

/** `POST /hub/v1/results/batch`: up to 500 result events, in the hall's outbox order. */
export const resultBatchSchema = z.object({ events: z.array(resultEventSchema).min(1).max(MAX_RESULT_BATCH_EVENTS) });
export type ResultBatch = z.infer<typeof resultBatchSchema>;

/** What the hub did with one event of a batch, in the batch's order. */
export const resultBatchOutcomeSchema = z.object({
  eventId: z.string(),
  status: z.enum(['stored', 'duplicate', 'refused']),
  /** only for `refused`: why, in words */
  error: z.string().optional(),
});
export type ResultBatchOutcome = z.infer<typeof resultBatchOutcomeSchema>;

/**
 * States of a package on a hall: SEALED (waiting for its release), RELEASED (opened into an
 * exam), SUPERSEDED (a newer version of the same hub exam arrived before release; never
 * opened), TOO_LATE (a newer version that arrived after the hall had released an earlier one;
 * not opened, the released exam stays).
 */
export const PACKAGE_STATES = ['SEALED', 'RELEASED', 'SUPERSEDED', 'TOO_LATE'] as const;
export type PackageState = (typeof PACKAGE_STATES)[number];

export const heartbeatSchema = z.object({
  inProgress: z.number().int().min(0),
  packages: z
    .array(
      z.object({
        packageId: z.string().max(64),
        state: z.enum(PACKAGE_STATES),
        /**
         * Added in protocol 1.1 (optional): for a RELEASED package, the release proof
         * (core/sync/release-proof.ts) — the hub counts a release it did not issue only with it.
         */
        releaseProof: z.string().max(64).optional(),
      }),
    )
    .max(1000),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;
