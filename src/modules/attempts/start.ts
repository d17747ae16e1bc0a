/**
 * Starting and resuming a candidate session (spec "POST /attempts/start", DESIGN §7).
 * Identity within an exam is studentId. With a roster the issued PIN must match; without
 * one the first start sets the PIN (4–8 digits) and every resume must repeat it. A new
 * attempt costs one workspace credit (402 when none are left); a resume costs nothing.
 */
import { randomInt } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { enforceSeb } from './seb-lock.js';
import { Conflict, Forbidden, NotFound, PaymentRequired, TooManyRequests, Unauthorized, ValidationError } from '../../platform/errors.js';
import { consume, isBlocked, recordFailure } from '../../platform/rate-limit.js';
import { safeEqual } from '../../platform/crypto.js';
import { newId } from '../../platform/ids.js';
import { iso } from '../../platform/clock.js';
import { withWriteTurn } from '../../db/index.js';
import type { ExamRow } from '../exams/service.js';
import { newLayout, type Paper } from './paper.js';
import type { AttemptRow } from './session-cache.js';
import { remainingMs, GRACE_MS } from './timer.js';
import { sessionView } from './views.js';
import { finalizeAttempt } from './finalize.js';

export interface StartInput {
  accessCode: string;
  candidateName: string;
  studentId: string;
  candidatePin?: string;
}

function checkWindow(exam: ExamRow, now: number): void {
  if (!exam.is_published) throw new Forbidden('This exam is not open to candidates yet (it is not published). Ask the invigilator.', { code: 'EXAM_NOT_PUBLISHED' });
  if (exam.starts_at !== null && now < exam.starts_at) {
    throw new Forbidden(`This exam opens at ${iso(exam.starts_at)}.`, { code: 'EXAM_NOT_OPEN', opensAt: iso(exam.starts_at) });
  }
  if (exam.ends_at !== null && now >= exam.ends_at) {
    throw new Forbidden(`This exam closed at ${iso(exam.ends_at)}.`, { code: 'EXAM_CLOSED', closedAt: iso(exam.ends_at) });
  }
}

async function pinFailure(deps: HallDeps, pinKey: string, detail: string, code: string): Promise<never> {
  await recordFailure(deps.limits.pinFailures, pinKey);
  throw new Unauthorized(detail, { code });
}

/**
 * Starts or resumes. `address` is the client's address, shown to the invigilator; `req`
 * the HTTP request, judged when the exam requires Safe Exam Browser.
 * @throws NotFound (room code), Forbidden (window, unpublished, disqualified), Unauthorized
 *   (PIN, roster), PaymentRequired, Conflict (no questions, already submitted), TooManyRequests
 */
export async function startAttempt(deps: HallDeps, input: StartInput, address: string, req?: Context<AppEnv>) {
  const code = input.accessCode.trim().toUpperCase();
  const studentId = input.studentId.trim();
  await consume(deps.limits.start, `${code}\n${studentId}`, 'start attempts for this candidate');
  const exam = deps.sqlite.prepare('SELECT id FROM exams WHERE access_code = ?').get(code) as { id: string } | undefined;
  if (!exam) throw new NotFound('An exam with this room code', { code: 'ROOM_NOT_FOUND' });
  const paper = deps.sessions.paper(exam.id)!;
  // Safe Exam Browser first: a browser without it learns nothing about PINs or the roster,
  // and a refused start locks nothing (SEB: "don't start the exam")
  if (paper.seb !== null && req) enforceSeb(deps, req, paper);
  const now = deps.clock.now();
  checkWindow(paper.exam, now);

  const pinKey = `${exam.id}\n${studentId}`;
  const blocked = await isBlocked(deps.limits.pinFailures, pinKey);
  if (blocked.blocked) throw new TooManyRequests(`Too many wrong PINs for student ID ${studentId}. Try again in ${Math.ceil(blocked.retryAfterSeconds / 60)} minute(s) or ask the invigilator.`, blocked.retryAfterSeconds);

  const pin = input.candidatePin?.trim() ?? '';
  let candidateName = input.candidateName.trim();
  if (paper.hasRoster) {
    const entry = deps.sqlite.prepare('SELECT candidate_name, pin_sealed FROM roster_entries WHERE exam_id = ? AND student_id = ?').get(exam.id, studentId) as { candidate_name: string; pin_sealed: string } | undefined;
    if (!entry) await pinFailure(deps, pinKey, 'This student ID is not on the exam’s list of candidates. Check it or ask the invigilator.', 'NOT_ON_ROSTER');
    if (!pin || !safeEqual(pin, deps.secrets.open(entry!.pin_sealed))) await pinFailure(deps, pinKey, 'The PIN is wrong for this student ID.', 'PIN_INVALID');
    candidateName = entry!.candidate_name;
  } else if (!/^\d{4,8}$/.test(pin)) {
    throw new ValidationError('Choose a PIN of 4 to 8 digits; you will need it to resume.', [{ path: 'candidatePin', message: 'must be 4 to 8 digits' }]);
  }

  const existing = deps.sqlite.prepare('SELECT id, pin_hash, status FROM attempts WHERE exam_id = ? AND student_id = ?').get(exam.id, studentId) as Pick<AttemptRow, 'id' | 'pin_hash' | 'status'> | undefined;
  const sebChecked = paper.seb !== null && !!req;
  if (existing) return resume(deps, paper, existing, pin, pinKey, address, sebChecked);

  if (paper.questions.length === 0) throw new Conflict('This exam has no questions yet. Ask the invigilator.', { code: 'NO_QUESTIONS' });
  const pinHash = paper.hasRoster ? null : deps.secrets.pinHash(pin, pinKey);
  const id = newId('att');
  const layout = newLayout(paper, randomInt);
  try {
    await withWriteTurn(deps.sqlite, () => deps.sqlite.transaction(() => {
      const debit = deps.sqlite.prepare('UPDATE workspaces SET credits = credits - 1 WHERE id = ? AND credits > 0').run(paper.exam.workspace_id);
      if (debit.changes === 0) throw new PaymentRequired('This exam hall has no candidate testing credits left. Ask the invigilator.');
      deps.sqlite
        .prepare(
          `INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, pin_hash, status, started_at, credited_ms, extra_seconds, violations, client_address, last_seen_at)
           VALUES (?,?,?,?,?,?,'IN_PROGRESS',?,0,0,0,?,?)`,
        )
        .run(id, exam.id, paper.exam.workspace_id, studentId, candidateName.slice(0, 200), pinHash, now, address, now);
      deps.sqlite.prepare('INSERT INTO attempt_layouts (attempt_id, layout_json) VALUES (?, ?)').run(id, JSON.stringify(layout));
    })());
  } catch (e) {
    // two starts of one studentId at once: the loser resumes the winner's attempt
    if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      const won = deps.sqlite.prepare('SELECT id, pin_hash, status FROM attempts WHERE exam_id = ? AND student_id = ?').get(exam.id, studentId) as Pick<AttemptRow, 'id' | 'pin_hash' | 'status'>;
      return resume(deps, paper, won, pin, pinKey, address, sebChecked);
    }
    throw e;
  }
  deps.sessions.rememberLayout(id, layout);
  const st = deps.sessions.attempt(id)!;
  if (sebChecked) st.sebValid = true; // for the monitor: this start passed the SEB check
  deps.events.emit({ kind: 'attempt-changed', examId: exam.id, attemptId: id });
  return sessionView(deps, paper, st, false);
}

async function resume(deps: HallDeps, paper: Paper, a: Pick<AttemptRow, 'id' | 'pin_hash' | 'status'>, pin: string, pinKey: string, address: string, sebChecked: boolean) {
  if (a.pin_hash && !(await deps.secrets.verifyPin(pin, pinKey, a.pin_hash))) await pinFailure(deps, pinKey, 'The PIN is wrong for this student ID. Use the PIN you chose when you started.', 'PIN_INVALID');
  if (a.status === 'DISQUALIFIED') throw new Forbidden('This attempt is locked (disqualified for proctoring violations, or stopped by a failed Safe Exam Browser check). Ask the invigilator.', { code: 'DISQUALIFIED', attemptStatus: 'DISQUALIFIED' });
  if (a.status === 'COMPLETED') throw new Conflict('This exam has already been submitted for this student ID.', { code: 'ALREADY_SUBMITTED', attemptId: a.id });
  const st = deps.sessions.attempt(a.id)!;
  if (remainingMs(paper.exam, st.row, deps.clock.now()) < -GRACE_MS) {
    finalizeAttempt(deps, a.id, { autoSubmitted: true });
    throw new Conflict('The time for this exam is over; it was submitted automatically.', { code: 'TIME_OVER', attemptId: a.id });
  }
  if (st.row.client_address !== address) {
    deps.sqlite.prepare('UPDATE attempts SET client_address = ? WHERE id = ?').run(address, a.id);
    st.row.client_address = address;
  }
  deps.sessions.seen(st, deps.clock.now());
  if (sebChecked) st.sebValid = true;
  // a sign-in may be a new device: what the server holds becomes the base, and answers a
  // lost device never delivered stop holding durability back (the page re-sends any
  // local answer the server does not hold, whatever durableSeq says)
  deps.buffer.seal(a.id);
  deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId: a.id });
  return sessionView(deps, paper, st, true);
}
