/** Attempts (candidate sessions), their buffered answers, and proctoring events. */
import { sqliteTable, text, integer, real, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { exams } from './exams.js';
import { ATTEMPT_STATUSES } from '../../core/attempts.js';

export const attempts = sqliteTable(
  'attempts',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull().references(() => exams.id),
    workspaceId: text('workspace_id').notNull(),
    studentId: text('student_id').notNull(),
    candidateName: text('candidate_name').notNull(),
    /** keyed hash of the PIN the candidate chose (exams without a roster; crypto.ts pinHash) */
    pinHash: text('pin_hash'),
    /** IN_PROGRESS | COMPLETED | DISQUALIFIED */
    status: text('status', { enum: ATTEMPT_STATUSES }).notNull(),
    startedAt: integer('started_at').notNull(),
    /** ms of clock stoppage credited (power cuts, exam pauses) */
    creditedMs: integer('credited_ms').notNull().default(0),
    /** seconds granted by an invigilator */
    extraSeconds: integer('extra_seconds').notNull().default(0),
    /**
     * access arrangements read from the roster entry at start (timer.ts allowedMs): the
     * candidate's clock is duration × (1 + percent/100) + minutes (+ extraSeconds)
     */
    extraTimePercent: integer('extra_time_percent').notNull().default(0),
    extraTimeMins: integer('extra_time_mins').notNull().default(0),
    violations: integer('violations').notNull().default(0),
    score: real('score'),
    maxScore: real('max_score'),
    percentage: real('percentage'),
    grade: text('grade'),
    pendingReview: integer('pending_review', { mode: 'boolean' }).notNull().default(false),
    autoSubmitted: integer('auto_submitted', { mode: 'boolean' }).notNull().default(false),
    completedAt: integer('completed_at'),
    disqualifiedAt: integer('disqualified_at'),
    /** why a DISQUALIFIED attempt is locked: null (proctoring violations) or SAFE_EXAM_BROWSER */
    lockReason: text('lock_reason'),
    /** address of the computer the attempt was last seen from (changes when the candidate moves) */
    clientAddress: text('client_address'),
    /**
     * address of the computer (seat) that started the attempt; never changes. Without a
     * roster, one attempt per seat per exam (seats.ts; docs/decisions.md, "Open rooms: one attempt per seat")
     */
    seatAddress: text('seat_address'),
    lastSeenAt: integer('last_seen_at'),
    lastSavedAt: integer('last_saved_at'),
    /** the attempt's random 32-bit seed, drawn at start: the sections' draws come from it (core/exams/sections.ts; issue 37) */
    drawSeed: integer('draw_seed'),
    /** JSON: [{section, score, maxScore}] of the last grading; null when the exam has no sections (issue 37) */
    sectionScoresJson: text('section_scores_json'),
    /** durability watermark: every answer with seq ≤ this is committed or superseded (answer-buffer.ts) */
    durableSeq: integer('durable_seq').notNull().default(0),
  },
  (t) => [
    uniqueIndex('attempts_exam_student_uq').on(t.examId, t.studentId),
    index('attempts_status_idx').on(t.status),
    index('attempts_workspace_idx').on(t.workspaceId),
    index('attempts_exam_seat_idx').on(t.examId, t.seatAddress),
  ],
);

/**
 * Extra attempts an invigilator allowed from one seat of an open room (audited): the seat
 * may start 1 + `granted` attempts of the exam (seats.ts).
 */
export const seatAllowances = sqliteTable(
  'seat_allowances',
  {
    examId: text('exam_id').notNull().references(() => exams.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    granted: integer('granted').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.examId, t.address] })],
);

/**
 * The attempt's question and option order, fixed at start (JSON: [{questionId,
 * optionIds: [...]}], ~9 KB for 60 questions). Kept apart from the attempts row so the
 * per-second UPDATEs of that row (durable_seq, last seen) rewrite one small record
 * instead of an overflow chain: ten times cheaper (scripts/bench/micro/wide-row.mjs).
 */
export const attemptLayouts = sqliteTable('attempt_layouts', {
  attemptId: text('attempt_id')
    .primaryKey()
    .references(() => attempts.id, { onDelete: 'cascade' }),
  layoutJson: text('layout_json').notNull(),
});

/**
 * Questions a candidate flagged for review (issue 37 item 8): one row per flag, deleted when
 * the flag is cleared, so the flags follow the candidate to another computer
 * (modules/attempts/flags.ts). Never on the answer save path.
 */
export const attemptFlags = sqliteTable(
  'attempt_flags',
  {
    attemptId: text('attempt_id')
      .notNull()
      .references(() => attempts.id, { onDelete: 'cascade' }),
    questionId: text('question_id').notNull(),
    flaggedAt: integer('flagged_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] })],
);

/** Latest answer per (attempt, question); WITHOUT ROWID is applied in the migration. */
export const answers = sqliteTable(
  'answers',
  {
    attemptId: text('attempt_id').notNull(),
    questionId: text('question_id').notNull(),
    optionId: text('option_id'),
    text: text('text'),
    seq: integer('seq').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** marks awarded (objective: by grading; essays: once an examiner approves) */
    awardedMarks: real('awarded_marks'),
    /** JSON of the approved essay review: {criteriaScores, feedback, reviewedAt, recommended} */
    reviewJson: text('review_json'),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] })],
);

export const telemetryEvents = sqliteTable(
  'telemetry_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    attemptId: text('attempt_id').notNull(),
    type: text('type').notNull(),
    action: text('action'),
    counted: integer('counted', { mode: 'boolean' }).notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('telemetry_attempt_idx').on(t.attemptId, t.createdAt)],
);
