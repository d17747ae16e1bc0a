/**
 * Turns the server's problem `code`s (docs/api-overview.md, "Candidate errors") into
 * plain sentences a candidate in an exam hall can act on. Unknown codes fall back to
 * the problem's own `detail`, then to a generic message by HTTP status.
 */
import { localTime } from './dom.js';
import type { Problem } from './types.js';

/** A message plus a hint whether trying again can help. */
export interface CandidateMessage {
  title: string;
  text: string;
}

/**
 * Message for a failed sign-in (`POST /attempts/start`) or a failed later call.
 * @param problem the problem body (with `status` always set); null for "no answer from the server"
 */
export function messageFor(problem: Problem | null): CandidateMessage {
  if (!problem) {
    return {
      title: 'Cannot reach the exam server',
      text: 'Check that this computer is connected to the hall network, then try again. If it keeps failing, call the invigilator.',
    };
  }
  switch (problem.code) {
    case 'ROOM_NOT_FOUND':
      return { title: 'Room code not recognised', text: 'Check the room code on the board or your exam slip and type it again.' };
    // one answer for "not on the roster" and "wrong PIN" (the server does not say which)
    case 'SIGN_IN_FAILED':
    case 'PIN_INVALID':
    case 'NOT_ON_ROSTER':
      return { title: 'Student ID or PIN not accepted', text: 'Check both your student ID and your PIN and type them again carefully. If they are right, ask the invigilator.' };
    case 'EXAM_NOT_PUBLISHED':
      return { title: 'Exam not available yet', text: 'The examiner has not released this exam. Please wait for the invigilator.' };
    case 'EXAM_NOT_OPEN':
      return {
        title: 'Exam not open yet',
        text: problem.opensAt
          ? `This exam opens at ${localTime(problem.opensAt)}. Please wait and sign in again then.`
          : 'This exam has not opened yet. Please wait for the invigilator.',
      };
    case 'EXAM_CLOSED':
      return { title: 'Exam closed', text: 'The time window for this exam has ended. Please see the invigilator.' };
    case 'CREDITS_EXHAUSTED':
      return { title: 'No exam places left', text: 'The exam centre has used all its candidate credits. Please tell the invigilator.' };
    case 'DISQUALIFIED':
      return { title: 'Exam locked', text: 'This attempt was locked after too many proctoring violations. Only the invigilator can reopen it.' };
    case 'SEB_REQUIRED':
      return { title: 'Safe Exam Browser required', text: 'This exam can only be taken in Safe Exam Browser. Please ask the invigilator.' };
    case 'SEAT_USED':
      return {
        title: 'This computer has already started this exam',
        text: 'Each computer may start this exam once. If you are resuming, type the student ID and PIN you started with. If you have not sat the exam yet, raise your hand: the invigilator can allow another attempt from this computer.',
      };
    case 'ALREADY_SUBMITTED':
      return { title: 'Already submitted', text: 'You have already submitted this exam. You cannot take it again.' };
    case 'NO_QUESTIONS':
      return { title: 'Exam not ready', text: 'This exam has no questions yet. Please tell the invigilator.' };
    case 'TIME_OVER':
      return { title: 'Time is over', text: 'The time for this exam has run out. Your saved answers have been submitted.' };
    case 'EXAM_PAUSED':
      return { title: 'Exam paused', text: 'The invigilator has paused the exam. Please wait.' };
    case 'RATE_LIMITED': {
      const wait = problem.retryAfterSeconds ? ` Wait ${Math.ceil(problem.retryAfterSeconds / 60)} minute(s)` : ' Wait a few minutes';
      return { title: 'Too many attempts', text: `Too many tries with this student ID.${wait} and try again, or ask the invigilator.` };
    }
    case 'VALIDATION':
      return { title: 'Please check the form', text: firstFieldError(problem) || 'Some details are missing or not valid.' };
    default:
      break;
  }
  if (problem.detail) return { title: problem.title || 'Something went wrong', text: problem.detail };
  if (problem.status === 404) return { title: 'Not found', text: 'The exam server does not know this room code or attempt.' };
  if (problem.status >= 500) return { title: 'Server problem', text: 'The exam server had a problem. Try again in a moment; your answers are kept.' };
  return { title: 'Something went wrong', text: `The server answered with status ${problem.status}. Please call the invigilator.` };
}

function firstFieldError(problem: Problem): string {
  const errors = problem.errors;
  if (!Array.isArray(errors) || !errors.length) return problem.detail || '';
  const e = errors[0] as { path?: unknown; message?: unknown };
  const path = Array.isArray(e.path) ? e.path.join('.') : e.path ? String(e.path) : '';
  return (path ? path + ': ' : '') + String(e.message || '');
}
