/**
 * The invigilator's view of wrong sign-ins (issue 22 part 3, issue 34 finding 5): failed
 * sign-ins per studentId of an exam (from the PIN throttle, which is kept per exam +
 * studentId + client address), and "clear sign-in throttle", audited: for one studentId,
 * or for the whole exam — every studentId, every address's count of wrong studentIds, and
 * the unknown-room-code waits of the addresses that signed in to it (a hall behind one
 * address). Issuing a new roster PIN clears one studentId too (roster/service.ts).
 */
import type { HallDeps } from '../../hall/deps.js';
import { writeAudit } from '../../hall/audit.js';
import { iso } from '../../platform/clock.js';
import { getExamInWorkspace } from '../exams/index.js';
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
 * Forgets every wrong sign-in of an exam: each studentId from each address, each address's
 * count of wrong studentIds, and the unknown-room-code waits of every address that tried
 * or sat this exam. Returns how many throttle keys were cleared.
 */
export function clearExamThrottle(deps: HallDeps, examId: string): number {
  const addresses = new Set<string>();
  for (const { key } of deps.limits.pinBySeat.list(`${examId}\n`)) addresses.add(key.split('\n')[2]!);
  for (const { key } of deps.limits.pinByAddress.list(`${examId}\n`)) addresses.add(key.split('\n')[1]!);
  const seen = deps.sqlite.prepare('SELECT DISTINCT seat_address AS a FROM attempts WHERE exam_id = ? UNION SELECT DISTINCT client_address FROM attempts WHERE exam_id = ?').all(examId, examId) as { a: string | null }[];
  for (const { a } of seen) if (a) addresses.add(a);
  let n = deps.limits.pinBySeat.clearPrefix(`${examId}\n`) + deps.limits.pinByAddress.clearPrefix(`${examId}\n`);
  for (const a of addresses) {
    if (deps.limits.roomByAddress.state(a).failures > 0) n++;
    deps.limits.roomByAddress.clear(a);
  }
  return n;
}

/**
 * POST /exams/:id/sign-in-throttle/clear: the invigilator lets candidates sign in again at
 * once (audited, with a reason). With a studentId, that candidate from every address
 * (`cleared`: how many addresses were held); addresses throttled for trying many
 * studentIds stay throttled, as that is a different person's guessing. Without one, every
 * key of the exam (`cleared`: how many keys; clearExamThrottle).
 */
export function clearSignInThrottle(deps: HallDeps, workspaceId: string, examId: string, studentId: string | undefined, reason: string) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const id = studentId?.trim() || null;
  const cleared = id === null ? clearExamThrottle(deps, exam.id) : clearStudentThrottle(deps, exam.id, id);
  writeAudit(deps.sqlite, { workspaceId, action: 'sign-in-throttle.clear', targetType: 'exam', targetId: exam.id, reason, detail: id === null ? { studentId: null, keys: cleared } : { studentId: id, addresses: cleared }, at: deps.clock.now() });
  return { examId: exam.id, studentId: id, cleared };
}
