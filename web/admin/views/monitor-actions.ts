/**
 * Invigilator actions from the live monitor. Each asks for a reason (kept in the audit
 * log, docs/design.md §7) and calls the API: pause/resume the whole exam, extend one candidate's
 * time, reinstate a disqualified candidate, force-submit, clear a candidate's (or the
 * whole exam's) sign-in throttle after wrong PINs, allow another attempt from a computer
 * of an open room.
 */
import { field, h } from '../dom.js';
import type { Ctx } from '../session.js';
import type { AttemptSummary, ExamSummary, SignInFailure } from '../types.js';
import { withReason } from '../ui.js';

const enc = encodeURIComponent;

/** Pause or resume the exam (clock stops for everyone while paused). Resolves true if done. */
export function pauseOrResume(ctx: Ctx, exam: ExamSummary, paused: boolean): Promise<boolean> {
  const verb = paused ? 'resume' : 'pause';
  return withReason(paused ? 'Resume exam' : 'Pause exam',
    paused ? 'Every candidate’s clock starts again.' : 'Every candidate’s clock stops until you resume. Candidates see that the exam is paused.',
    async (v) => {
      await ctx.api.post(`/exams/${enc(exam.id)}/${verb}`, { reason: v.reason });
    });
}

/** Grants extra minutes to one candidate; `onDone` receives the fresh attempt summary. */
export function extendTime(ctx: Ctx, a: AttemptSummary, onDone: (s: AttemptSummary) => void): Promise<boolean> {
  const minutes = h('input', { name: 'minutes', type: 'number', min: 1, max: 600, value: 5, required: true });
  return withReason('Extend time', `Give ${a.candidateName} (${a.studentId}) extra minutes.`, async (v) => {
    onDone(await ctx.api.post<AttemptSummary>(`/attempts/${enc(a.attemptId)}/extend`, { minutes: Number(v.minutes), reason: v.reason }));
  }, [field('Extra minutes', minutes)]);
}

/** Lifts a disqualification (violations reset to 0). */
export function reinstate(ctx: Ctx, a: AttemptSummary, onDone: (s: AttemptSummary) => void): Promise<boolean> {
  return withReason('Reinstate', `Let ${a.candidateName} (${a.studentId}) continue. Their violation count goes back to 0.`, async (v) => {
    onDone(await ctx.api.post<AttemptSummary>(`/attempts/${enc(a.attemptId)}/reinstate`, { reason: v.reason }));
  });
}

/** Submits the attempt now, with the answers saved so far. */
export function forceSubmit(ctx: Ctx, a: AttemptSummary): Promise<boolean> {
  return withReason('Force submit', `Submit ${a.candidateName}’s (${a.studentId}) attempt now with the answers saved so far. This cannot be undone.`, async (v) => {
    await ctx.api.post(`/attempts/${enc(a.attemptId)}/force-submit`, { reason: v.reason });
  }, [], true);
}

/** Lets a candidate held back by wrong PINs sign in again at once (audited). */
export function clearSignInThrottle(ctx: Ctx, examId: string, f: SignInFailure): Promise<boolean> {
  return withReason('Clear sign-in throttle', `Let student ID ${f.studentId} sign in again now (${f.failures} wrong sign-in(s) from ${f.addresses} computer(s)). Check who they are first.`, async (v) => {
    await ctx.api.post(`/exams/${enc(examId)}/sign-in-throttle/clear`, { studentId: f.studentId, reason: v.reason });
  });
}

/** Lets every candidate of the exam sign in again now: every student ID, every computer (audited). */
export function clearAllSignInThrottles(ctx: Ctx, examId: string): Promise<boolean> {
  return withReason('Clear all sign-in throttles', 'Let every candidate of this exam sign in again now, from every computer — e.g. when the whole hall shares one network address and someone’s wrong tries hold the others back.', async (v) => {
    await ctx.api.post(`/exams/${enc(examId)}/sign-in-throttle/clear`, { reason: v.reason });
  });
}

/** Lets the computer at `address` start one more attempt of this open room (audited). */
export function allowSeatAttempt(ctx: Ctx, examId: string, address: string): Promise<boolean> {
  return withReason('Allow another attempt from this computer', `The computer at ${address} has already started this exam. Allow exactly one more attempt from it (e.g. a second shift). Check who will sit first: without a roster anyone can choose a student ID.`, async (v) => {
    await ctx.api.post(`/exams/${enc(examId)}/seats/allow`, { address, reason: v.reason });
  });
}
