/** Exams (rooms) and their questions. Options and rubrics are JSON columns of a question. */
import { sqliteTable, text, integer, real, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { workspaces } from './workspaces.js';
import { QUESTION_TYPES } from '../../core/questions/schemas.js';
import { EXAM_CALCULATORS } from '../../core/exams/schemas.js';

export const exams = sqliteTable(
  'exams',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references(() => workspaces.id),
    title: text('title').notNull(),
    /** upper-cased room code, unique on the installation (docs/design.md §5) */
    accessCode: text('access_code').notNull(),
    durationMins: integer('duration_mins').notNull(),
    startsAt: integer('starts_at'),
    endsAt: integer('ends_at'),
    maxTabViolations: integer('max_tab_violations').notNull(),
    shuffleQuestions: integer('shuffle_questions', { mode: 'boolean' }).notNull(),
    shuffleChoices: integer('shuffle_choices', { mode: 'boolean' }).notNull(),
    showResultAfter: integer('show_result_after', { mode: 'boolean' }).notNull(),
    isPublished: integer('is_published', { mode: 'boolean' }).notNull(),
    /** epoch ms the whole exam was paused at; null when running */
    pausedAt: integer('paused_at'),
    /** candidates must use Safe Exam Browser with this exam's configuration (issue 25) */
    requireSeb: integer('require_seb', { mode: 'boolean' }).notNull().default(false),
    /** base URL of the generated SEB start/quit URLs, fixed when SEB is switched on */
    sebBaseUrl: text('seb_base_url'),
    /** the invigilator's SEB quit password, sealed (crypto.ts) */
    sebQuitPassword: text('seb_quit_password'),
    /** SHA-256 hex of the quit password, as it goes into the configuration */
    sebQuitHash: text('seb_quit_hash'),
    /** JSON array of accepted Browser Exam Keys (lower-case hex) */
    sebBrowserExamKeys: text('seb_browser_exam_keys'),
    /** the exam's instructions to candidates (Markdown, ≤ 5,000 characters; null: none), issue 36 */
    instructions: text('instructions'),
    /** the on-screen calculator candidates get: none, basic or scientific (issue 37 item 7) */
    calculator: text('calculator', { enum: EXAM_CALCULATORS }).notNull().default('none'),
    /** JSON: the exam's sections in order, [{name, draw, compulsory}] (core/exams/sections.ts); null: none (issue 37) */
    sectionsJson: text('sections_json'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('exams_access_code_uq').on(t.accessCode), index('exams_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const questions = sqliteTable(
  'questions',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull().references(() => exams.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    position: integer('position').notNull(),
    type: text('type', { enum: QUESTION_TYPES }).notNull(),
    prompt: text('prompt').notNull(),
    marks: real('marks').notNull(),
    /** JSON: [{id, keyLabel, text, isCorrect}] */
    optionsJson: text('options_json').notNull(),
    explanation: text('explanation'),
    section: text('section'),
    minWords: integer('min_words'),
    maxWords: integer('max_words'),
    modelAnswer: text('model_answer'),
    /** JSON: {name, totalMarks, criteria: [{id, title, maxMarks, description}]} */
    rubricJson: text('rubric_json'),
    difficulty: text('difficulty'),
    citation: text('citation'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('questions_exam_idx').on(t.examId, t.position), index('questions_workspace_idx').on(t.workspaceId)],
);

/** Roster of an exam: candidates the examiner listed, each with a server-issued PIN. */
export const rosterEntries = sqliteTable(
  'roster_entries',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull().references(() => exams.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    studentId: text('student_id').notNull(),
    candidateName: text('candidate_name').notNull(),
    phone: text('phone'),
    pinSealed: text('pin_sealed').notNull(),
    /** JSON: the candidate's subjects (names of the exam's sections, as the exam spells them); null: none listed (issue 37) */
    subjectsJson: text('subjects_json'),
    createdAt: integer('created_at').notNull(),
    /** access arrangements: extra time as a percentage of the exam's duration (0–200), copied to the attempt at start */
    extraTimePercent: integer('extra_time_percent').notNull().default(0),
    /** access arrangements: extra minutes on top (0–600), copied to the attempt at start */
    extraTimeMins: integer('extra_time_mins').notNull().default(0),
  },
  (t) => [uniqueIndex('roster_exam_student_uq').on(t.examId, t.studentId)],
);
