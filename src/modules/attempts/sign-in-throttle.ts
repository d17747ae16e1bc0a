/**
 * The invigilator's view of wrong sign-ins (DESIGN §7, issue 22 part 3): failed sign-ins
 * per studentId of an exam (from the PIN throttle, which is kept per exam + studentId +
 * client address), and "clear sign-in throttle" for one studentId, audited. Issuing a new
 * roster PIN clears it too (roster/service.ts).
 */
import type { HallDeps } from '../../hall/deps.js';
import { writeAudit } from '../../hall/audit.js';
import { iso } from '../../platform/clock.js';
import { getExamInWorkspace } from '../exams/service.js';
import { seatPrefix } from './start.js';

/** One studentId with recent wrong sign-ins (failures forgotten after 15 quiet minutes). */
export interface SignInFailures {
  studentId: string;
  /** wrong PINs (or a studentId not on the roster) from all addresses */
  failures: number;
  /** how many computers (client addresses) tried */
  addresses: number;
  lastFailedAt: string;
  /** longest wait still to run for one of those addresses (0 = none held back) */
  retryAfterSeconds: number;
}

/** Failed sign-ins per studentId of an exam, most failures first. */
export function signInFailures(deps: HallDeps, examId: string): SignInFailures[] {
  const byStudent = new Map<string, SignInFailures & { last: number }>();
  for (const { key, state } of deps.limits.pinBySeat.list(`${examId}\n`)) {
    const studentId = key.split('\n')[1]!;
    const s = byStudent.get(studentId) ?? { studentId, failures: 0, addresses: 0, lastFailedAt: '', retryAfterSeconds: 0, last: 0 };
    s.failures += state.failures;
    s.addresses++;
    s.last = Math.max(s.last, state.lastAt);
    s.retryAfterSeconds = Math.max(s.retryAfterSeconds, state.retryAfterSeconds);
    byStudent.set(studentId, s);
  }
  return [...byStudent.values()]
    .sort((a, b) => b.failures - a.failures || a.studentId.localeCompare(b.studentId))
    .map(({ last, ...s }) => ({ ...s, lastFailedAt: iso(last)! }));
}

/** Forgets the wrong sign-ins of one studentId from every address; returns how many addresses were held. */
export function clearStudentThrottle(deps: HallDeps, examId: string, studentId: string): number {
  return deps.limits.pinBySeat.clearPrefix(seatPrefix(examId, studentId.trim()));
}

/**
 * POST /exams/:id/sign-in-throttle/clear: the invigilator lets a candidate sign in again
 * at once (audited, with a reason). Addresses throttled for trying many studentIds stay
 * throttled: that is a different person's guessing.
 */
export function clearSignInThrottle(deps: HallDeps, workspaceId: string, examId: string, studentId: string, reason: string) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const cleared = clearStudentThrottle(deps, exam.id, studentId);
  writeAudit(deps.sqlite, { workspaceId, action: 'sign-in-throttle.clear', targetType: 'exam', targetId: exam.id, reason, detail: { studentId: studentId.trim(), addresses: cleared }, at: deps.clock.now() });
  return { examId: exam.id, studentId: studentId.trim(), cleared };
}
