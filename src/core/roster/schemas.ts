/**
 * The roster's candidate shape (POST /exams/:id/roster and the roster files): a student
 * ID, a name, an optional phone number for the PIN slip, optional access
 * arrangements: extra time as a percentage of the duration (whole numbers 0–200) and/or
 * extra minutes (0–600); both may be set, and add up (docs/decisions.md, "Extra time
 * from the roster"), and optional subjects: names of the exam's sections the candidate
 * sits besides its compulsory ones (issue 37 item 3).
 */
import { z } from '../zod.js';

export const rosterCandidateSchema = z.object({
  studentId: z.string().trim().min(1).max(64),
  candidateName: z.string().trim().min(1).max(200),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[\d\s-]{6,20}$/, 'Phone numbers have 6 to 20 digits, optionally with a leading +')
    .nullable()
    .optional(),
  extraTimePercent: z
    .number({ error: 'extraTimePercent must be a whole number from 0 to 200' })
    .int('extraTimePercent must be a whole number')
    .min(0, 'extraTimePercent cannot be negative')
    .max(200, 'extraTimePercent is at most 200 (three times the duration)')
    .optional()
    .openapi({ description: 'Access arrangements: extra time as a percentage of the exam’s duration (0–200; default 0). The clock is durationMins × (1 + extraTimePercent/100) + extraTimeMins.' }),
  extraTimeMins: z
    .number({ error: 'extraTimeMins must be a whole number from 0 to 600' })
    .int('extraTimeMins must be a whole number')
    .min(0, 'extraTimeMins cannot be negative')
    .max(600, 'extraTimeMins is at most 600 (10 hours)')
    .optional()
    .openapi({ description: 'Access arrangements: extra minutes (0–600; default 0), added after the percentage; both may be set.' }),
  subjects: z
    .array(z.string().trim().min(1).max(60))
    .max(30)
    .nullable()
    .optional()
    .openapi({ description: 'Names of the exam’s sections this candidate sits besides the compulsory ones (matched without regard to case); none listed: every section. A name that is not a section of the exam is refused (400).' }),
});

/** A candidate to add to a roster. */
export interface RosterInput {
  studentId: string;
  candidateName: string;
  phone?: string | null;
  /** access arrangements: percent of the duration added (0–200) */
  extraTimePercent?: number;
  /** access arrangements: minutes added (0–600) */
  extraTimeMins?: number;
  /** section names (issue 37 item 3); absent, null or []: none listed */
  subjects?: string[] | null;
}
