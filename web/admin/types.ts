/**
 * Shapes the admin page reads from the API (docs/api-overview.md). Only the members the
 * page uses are listed; the server may send more.
 */

export interface Workspace {
  id: string;
  name: string;
  type?: string;
  ownerName?: string;
  ownerEmail?: string;
  credits: number;
  webhookUrl?: string | null;
  hasPassword?: boolean;
  _count?: { exams: number; questions: number };
  /** exams whose roster lists candidates with no attempt yet, most waiting first */
  rosterWaiting?: { examId: string; title: string; waiting: number }[];
}

export interface ExamSummary {
  id: string;
  title: string;
  accessCode: string;
  durationMins: number;
  startsAt: string | null;
  endsAt: string | null;
  isPublished: boolean;
  isPaused?: boolean;
  _count?: { questions: number; attempts: number };
}

export interface Exam extends ExamSummary {
  workspaceId: string;
  maxTabViolations: number;
  shuffleQuestions: boolean;
  shuffleChoices: boolean;
  showResultAfter: boolean;
  /** the on-screen calculator candidates get (issue 37 item 7) */
  calculator?: 'none' | 'basic' | 'scientific';
  /** instructions to candidates (Markdown), shown before the clock starts; null: none (issue 36) */
  instructions?: string | null;
  createdAt?: string;
  questions?: Question[];
  requireSafeExamBrowser?: boolean;
  safeExamBrowser?: SebSettings;
}

/** `safeExamBrowser` of an exam (issue 25). */
export interface SebSettings {
  required: boolean;
  configKey: string | null;
  startUrl: string | null;
  quitUrl: string | null;
  configUrl: string | null;
  sebUrl: string | null;
  /** the code in configUrl/sebUrl that guards the .seb file (issue #34 finding 6) */
  downloadCode?: string | null;
  browserExamKeys: string[];
}

/** A RequestHash a seat sent that matched no registered Browser Exam Key (per client). */
export interface BekSighting {
  client: string;
  seenAt: string;
  requestUrl: string;
  requestHash: string;
  matchesKey: string | null;
}

/** GET /exams/:id/safe-exam-browser: the settings with the invigilator's quit password. */
export interface SebDetails extends SebSettings {
  quitPassword: string | null;
  browserExamKeySightings: BekSighting[];
}

/** The two SEB checks of a seat's last judged request (issue #34 finding 6). */
export interface SebCheck {
  configKey: 'ok' | 'missing' | 'mismatch';
  browserExamKey: 'ok' | 'missing' | 'mismatch' | 'not-checked';
  evidence: 'request' | 'page' | null;
}

export type QuestionType = 'MCQ' | 'TRUE_FALSE' | 'SHORT_ESSAY' | 'LONG_ESSAY';

export interface OptionInput {
  id?: string;
  keyLabel?: string;
  text: string;
  isCorrect: boolean;
}

export interface Criterion {
  id?: string;
  title: string;
  maxMarks: number;
  description?: string;
}

export interface Rubric {
  name: string;
  totalMarks: number;
  criteria: Criterion[];
}

/** QuestionInput of the API, plus the stored fields when it came from the server. */
export interface Question {
  id?: string;
  examId?: string;
  position?: number;
  prompt: string;
  type: QuestionType;
  marks: number;
  options?: OptionInput[];
  explanation?: string | null;
  section?: string | null;
  minWords?: number | null;
  maxWords?: number | null;
  modelAnswer?: string | null;
  rubric?: Rubric | null;
  difficulty?: string | null;
  citation?: string | null;
}

export interface RubricTemplate {
  family: string;
  name: string;
  criteria: Array<{ title: string; weight: number; description?: string }>;
}

export interface RosterEntry {
  id: string;
  studentId: string;
  candidateName: string;
  phone: string | null;
  pin: string;
  /** access arrangements: extra time as a percentage of the duration, and extra minutes */
  extraTimePercent?: number;
  extraTimeMins?: number;
  smsLink: string | null;
  whatsappLink: string | null;
  createdAt: string;
}

export type AttemptStatus = 'IN_PROGRESS' | 'COMPLETED' | 'DISQUALIFIED';

export interface AttemptSummary {
  attemptId: string;
  studentId: string;
  candidateName: string;
  status: AttemptStatus;
  startedAt: string;
  completedAt: string | null;
  remainingSeconds: number;
  answered: number;
  totalQuestions: number;
  lastSeenAt: string | null;
  lastSavedAt: string | null;
  clientAddress: string | null;
  /** the computer that started the attempt (in an open room it used that computer's one start) */
  seatAddress?: string | null;
  violations: number;
  maxTabViolations: number;
  score: number | null;
  maxScore: number | null;
  percentage: number | null;
  grade: string | null;
  pendingReview: boolean;
  autoSubmitted: boolean;
  extraSeconds: number;
  /** access arrangements from the roster: the clock is duration × (1 + percent/100) + minutes */
  extraTimePercent?: number;
  extraTimeMins?: number;
  /** when this candidate's own time runs out (null: not in progress, or the exam is paused) */
  timeUpAt?: string | null;
  /** why a DISQUALIFIED attempt is locked (SAFE_EXAM_BROWSER: a failed SEB check) */
  lockReason?: string | null;
  /** SEB exams: whether the seat's last judged request passed the exam's SEB checks */
  sebValid?: boolean | null;
  /** SEB exams: its Config check and Browser Exam Key check, separately */
  sebCheck?: SebCheck | null;
}

export interface AttemptResult extends AttemptSummary {
  /** the questions the candidate was given (all, or their sections' questions), each marked */
  answers: Array<{ questionId: string; section?: string | null; optionId: string | null; keyLabel: string | null; text: string | null; isCorrect: boolean | null; awardedMarks: number | null }>;
  /** per-section scores of an exam with sections (issue 37 item 5); null otherwise */
  sectionScores?: Array<{ section: string; score: number; maxScore: number }> | null;
}

export interface MonitorSnapshot {
  exam: ExamSummary;
  serverTime: string;
  attempts: AttemptSummary[];
  /** roster candidates without an attempt (issue 36); [] in an open room */
  absent?: Array<{ studentId: string; candidateName: string }>;
  /** wrong sign-ins per studentId (last 15 minutes), most first */
  signInFailures?: SignInFailure[];
  /** no roster: each computer starts one attempt unless allowed another */
  openRoom?: boolean;
  /** open rooms: computers that started attempts, and further starts each may make (null: no limit) */
  seats?: Array<{ address: string; attempts: number; allowancesLeft: number | null }>;
}

/** Wrong PINs (or an ID not on the roster) for one studentId, from the monitor snapshot. */
export interface SignInFailure {
  studentId: string;
  failures: number;
  addresses: number;
  lastFailedAt: string;
  retryAfterSeconds: number;
}

/**
 * The monitor stream's `delta` event: the rows whose attempt changed since the last event
 * (apply by attemptId; a new attempt is a new row) and, only when they changed, the absent
 * list, the wrong sign-ins and the open room's seats.
 */
export interface MonitorDelta {
  serverTime: string;
  attempts: AttemptSummary[];
  absent?: MonitorSnapshot['absent'];
  signInFailures?: SignInFailure[];
  seats?: MonitorSnapshot['seats'];
}

export interface MonitorAlert {
  kind: 'disqualified' | 'unseen';
  attemptId: string;
  candidateName: string;
}

/** An outbox row; the server may spell status in capitals and call the try count `tries`. */
export interface OutboxEvent {
  id: string;
  type: string;
  status: string;
  attempts?: number;
  tries?: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  lastStatusCode: number | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface SystemInfo {
  version: string;
  serverTime: string;
  lanUrls: string[];
  /** the server listens on a loopback address: only this machine reaches it */
  thisMachineOnly?: boolean;
  candidateUrl: string | null;
  adminUrl: string | null;
}
