/** What the hub's examiner API answers, as the board's page reads it (src/hub/routes/*.ts). */
import type { Question } from '../admin/types.js';

export type Role = 'author' | 'publisher' | 'viewer';

/** GET /hub/v1/board/me */
export interface Me {
  id: string;
  name: string;
  roles: Role[];
}

/** A board account (GET /hub/v1/board/accounts). */
export interface Account {
  id: string;
  email: string;
  name: string;
  roles: Role[];
  disabled: boolean;
  createdAt: string;
}

/** A row of GET /hub/v1/exams. */
export interface PaperSummary {
  id: string;
  title: string;
  startsAt: string;
  durationMins: number;
  version: number;
  questions: number;
  candidates: number;
  publishedVersion: number | null;
  hallIds: string[];
}

/** A roster candidate; `hallId` is the hall (centre) the candidate sits at, null when not assigned. */
export interface Candidate {
  studentId: string;
  candidateName: string;
  pin: string;
  hallId?: string | null;
}

/** GET /hub/v1/exams/{id} */
export interface Paper {
  id: string;
  title: string;
  durationMins: number;
  startsAt: string;
  endsAt: string | null;
  version: number;
  publishedVersion: number | null;
  republishNeeded: boolean;
  questions: Question[];
  roster: Candidate[];
}

/** A row of GET /hub/v1/halls. */
export interface Hall {
  id: string;
  name: string;
  enrolled: boolean;
  enrolledAt: string | null;
  lastContactAt: string | null;
  clockOffsetMs: number | null;
  clockFlagged: boolean;
  packagesPublished: number;
  packagesReceived: number;
  examsReleased: number;
  attemptsInProgress: number;
  resultsReceived: number;
  resultsExpected: number;
  /** papers the hall's last heartbeat says RELEASED that the hub could not count (no release proof) */
  releasesUnproven: number;
  /** per paper published to the hall, which version it holds against the paper's current one */
  exams: HallPaperVersion[];
}

/** One paper at one hall (GET /hub/v1/halls, `exams`; docs/hub.md, "Editing after publication"). */
export interface HallPaperVersion {
  examId: string;
  title: string;
  /** the paper as it is now */
  currentVersion: number;
  /** the newest version sealed for this hall */
  sentVersion: number;
  /** the newest version the hall fetched (null: none yet) */
  deliveredVersion: number | null;
  /** the version the hall's last heartbeat reports holding, sealed or released (null: none reported) */
  heldVersion: number | null;
  /** the version released at the hall as far as the hub knows (null: not released) */
  releasedVersion: number | null;
}

/** A row of GET /hub/v1/exams/{id}/release-codes. */
export interface ReleaseCode {
  hallId: string;
  hallName: string;
  packageId: string;
  version: number;
  releaseCode: string;
  downloaded: boolean;
  released: boolean;
}
