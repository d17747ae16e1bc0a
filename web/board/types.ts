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
