/**
 * The roster's candidate shape (POST /exams/:id/roster and the roster files): a student
 * ID, a name, an optional phone number for the PIN slip, and optional subjects: names of
 * the exam's sections the candidate sits besides its compulsory ones (issue 37 item 3).
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
  /** section names (issue 37 item 3); absent, null or []: none listed */
  subjects?: string[] | null;
}
