/**
 * Shapes the candidate page receives from the server (docs/api-overview.md,
 * "Candidate session"). Kept as plain interfaces: the page reads them defensively
 * instead of shipping a validation library to old hall PCs.
 */

export type QuestionType = 'MCQ' | 'TRUE_FALSE' | 'SHORT_ESSAY' | 'LONG_ESSAY';

/** One option as a candidate sees it: never `isCorrect`. */
export interface SessionOption {
  id: string;
  keyLabel: string;
  text: string;
  /** the text rendered by the server to sanitised HTML (issue 26) */
  html?: string;
}

/** One question in the candidate's fixed order. */
export interface SessionQuestion {
  id: string;
  type: QuestionType;
  prompt: string;
  /** the prompt rendered by the server to sanitised HTML (issue 26) */
  promptHtml?: string;
  marks: number;
  section?: string | null;
  minWords?: number | null;
  maxWords?: number | null;
  options: SessionOption[];
}

/** One section (subject) of the candidate's paper, in the paper's order: `sections` of the start/resume response. */
export interface SessionSection {
  name: string;
  questionIds: string[];
}

/** An answer the server holds, with the client counter (`seq`) it was saved under. */
export interface ServerAnswer {
  questionId: string;
  optionId?: string | null;
  text?: string | null;
  seq: number;
}

export type AttemptStatus = 'IN_PROGRESS' | 'COMPLETED' | 'DISQUALIFIED';

/** Result fields, present once an attempt is completed (when the exam shows results). */
export interface ResultFields {
  score?: number;
  maxScore?: number;
  percentage?: number;
  grade?: string;
  pendingReview?: boolean;
  completedAt?: string | null;
  showResult?: boolean;
  /** an exam with sections: the score of each section sat, in the exam's order */
  sectionScores?: SectionScore[] | null;
}

/** One section's part of a result (the server's `sectionScores`). */
export interface SectionScore {
  section: string;
  score: number;
  maxScore: number;
}

/** Start/resume response and `GET /attempts/:id` body. */
export interface Session extends ResultFields {
  isResumed?: boolean;
  attemptId: string;
  examId: string;
  examTitle: string;
  candidateName: string;
  studentId: string;
  status: AttemptStatus;
  remainingSeconds: number;
  durationMins: number;
  violations: number;
  maxTabViolations: number;
  showResultAfter: boolean;
  /** the on-screen calculator the exam offers (absent from a copy cached by an older page: none) */
  calculator?: 'none' | 'basic' | 'scientific';
  isPaused: boolean;
  durableSeq: number;
  answers: ServerAnswer[];
  questions: SessionQuestion[];
  /** the paper's sections (subjects) in order; absent: grouped by each question's `section` */
  sections?: SessionSection[];
  /** ids of the questions flagged for review, as the server keeps them (with the paper only) */
  flagged?: string[];
  /** why a DISQUALIFIED attempt is locked (SAFE_EXAM_BROWSER: a failed SEB check) */
  lockReason?: string | null;
  /** present when the exam requires Safe Exam Browser */
  safeExamBrowser?: { quitUrl?: string };
}

/** `POST /attempts/preview`: what signing in opens, before any clock starts. */
export interface Preview {
  examId: string;
  examTitle: string;
  candidateName: string;
  studentId: string;
  /** an attempt is in progress (its clock runs); start resumes it */
  isResumed: boolean;
  durationMins: number;
  questionCount: number;
  essayCount: number;
  totalMarks: number;
  maxTabViolations: number;
  remainingSeconds: number;
  isPaused: boolean;
  endsAt: string | null;
  /** the exam's instructions rendered and sanitised by the server (issue 36); null: none */
  instructionsHtml?: string | null;
}

/** The sign-in form's values (the body of preview and start). */
export interface Credentials {
  accessCode: string;
  candidateName: string;
  studentId: string;
  candidatePin: string;
}

/** `PUT /attempts/:id/answers/:qid` and `POST /attempts/:id/answers` body. */
export interface SaveResponse {
  saved: number | boolean;
  remainingSeconds: number;
  durableSeq: number;
  seq?: number;
}

/** `POST /attempts/:id/telemetry` body. */
export interface TelemetryResponse {
  attemptId: string;
  violations: number;
  maxTabViolations: number;
  status: AttemptStatus;
  remainingSeconds?: number;
  durableSeq?: number;
}

/** `POST /attempts/:id/submit` body. */
export interface SubmitResponse extends ResultFields {
  attemptId: string;
  status: AttemptStatus;
}

/** RFC 7807 problem body with the `code` member the page switches on. */
export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  code?: string;
  opensAt?: string;
  retryAfterSeconds?: number;
  [k: string]: unknown;
}
