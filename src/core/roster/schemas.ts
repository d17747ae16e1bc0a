/**
 * The roster's candidate shape (POST /exams/:id/roster and the roster files): a student
 * ID, a name and an optional phone number for the PIN slip.
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
});

/** A candidate to add to a roster. */
export interface RosterInput {
  studentId: string;
  candidateName: string;
  phone?: string | null;
}
