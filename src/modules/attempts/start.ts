/**
 * Starting and resuming a candidate session (docs/api-overview.md, "POST /attempts/start").
 * Identity within an exam is studentId. With a roster the issued PIN must match, and a
 * studentId not on it starts nothing; without one (an open room) the first start sets
 * the PIN (4–8 digits), every resume must repeat it, and each computer (seat) may start
 * one attempt (seats.ts). A new attempt costs one workspace credit (402 when none are
 * left); a resume costs nothing and works from any computer. Wrong PINs are throttled
 * per exam + studentId + address, and per exam + address by the number of different
 * studentIds it got wrong (docs/decisions.md, "Throttles keyed by what a guesser controls").
 */
import { randomInt } from 'node:crypto';
import type { HallDeps } from '../../hall/deps.js';
import { ApiError, Conflict, Forbidden, NotFound, PaymentRequired, ValidationError } from '../../platform/errors.js';
import { consume } from '../../platform/rate-limit.js';
import { safeEqual } from '../../platform/crypto.js';
import { newId } from '../../platform/ids.js';
import { iso } from '../../platform/clock.js';
import { withWriteTurn } from '../../db/index.js';
import type { AttemptRow, ExamRow } from '../../db/rows.js';
import { attemptPaper, newLayout, instructionsHtml, renderPaper, type Paper } from '../sessions/index.js';
import { drawSitting, sittingSections } from '../../core/exams/sections.js';
import { serializeLayout } from '../../core/exams/layout-codec.js';
import { remainingMs, GRACE_MS } from './timer.js';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import { enforceSeb, noteSebPassed } from './seb-lock.js';
import type { SebCheck } from '../seb-check/index.js';
import { sessionView } from './views.js';
import type { MathForm } from '../../core/rich-text.js';
import { finalizeAttempt } from './finalize.js';
import { assertSeatFree } from './seats.js';

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

/**
 * One answer for "not on the roster" and "wrong PIN" (no roster enumeration).
 * Counts the failure against the seat (exam + studentId + address), and against the
 * address within the exam once per studentId: repeated guesses at one studentId hold back
 * that studentId from that address only, never the other candidates behind the address.
 */
function signInFailed(deps: HallDeps, seat: Seat): never {
  const firstOnThisId = deps.limits.pinBySeat.state(seat.key).failures === 0;
  deps.limits.pinBySeat.fail(seat.key);
  if (firstOnThisId) deps.limits.pinByAddress.fail(seat.addressKey);
  throw new ApiError(401, 'sign-in-failed', 'Sign-in failed', 'The student ID or the PIN is not right for this exam. Check both; if they are right, ask the invigilator.', { code: 'SIGN_IN_FAILED' });
}

/** Who is signing in from where: the keys of the PIN throttles. */
interface Seat {
  /** `<examId>\n<studentId>\n<address>` (pinBySeat) */
  key: string;
  /** `<examId>\n<address>` (pinByAddress) */
  addressKey: string;
  address: string;
}

/** Throttle-key prefix of every address that tried a studentId of an exam. */
export function seatPrefix(examId: string, studentId: string): string {
  return `${examId}\n${studentId}\n`;
}

/** Key of an address's wrong sign-ins within an exam (pinByAddress); `<examId>\n` prefixes every such key of the exam. */
export function addressKey(examId: string, address: string): string {
  return `${examId}\n${address}`;
}

/** Extra time from the roster (docs/decisions.md, "Extra time from the roster"). */
interface ExtraTime {
  extra_time_percent: number;
  extra_time_mins: number;
}

/** Who is signing in to which exam, checked (see `identify`). */
interface Identified {
  examId: string;
  paper: Paper;
  studentId: string;
  pin: string;
  pinKey: string;
  candidateName: string;
  seat: Seat;
  existing: Pick<AttemptRow, 'id' | 'pin_hash' | 'status'> | undefined;
  /** the roster's PIN for this studentId was given (a roster-started attempt needs it to resume) */
  rosterChecked: boolean;
  /** the roster entry's access arrangements (0, 0 without one), stored with a new attempt */
  extraTime: ExtraTime;
  /** the SEB checks this start passed; null when the exam does not require SEB */
  sebCheck: SebCheck | null;
  /** the roster's subjects of this candidate (section names); null: none listed, or no roster entry */
  subjects: string[] | null;
}

/**
 * The checks every sign-in makes before anything is created: rate limit, room code, the
 * exam's window, the PIN throttle, roster and PIN (a chosen PIN's format), and the
 * candidate's attempt if there is one (its PIN is checked by `checkResumable`).
 */
async function identify(deps: HallDeps, input: StartInput, address: string, req?: Context<AppEnv>): Promise<Identified> {
  const code = input.accessCode.trim().toUpperCase();
  const studentId = input.studentId.trim();
  // per seat, not per studentId: someone else's requests never use up a candidate's starts
  await consume(deps.limits.start, `${code}\n${studentId}\n${address}`, 'start attempts for this candidate');
  deps.limits.roomByAddress.check(address, 'Too many unknown room codes from this computer');
  const exam = deps.sqlite.prepare('SELECT id FROM exams WHERE access_code = ?').get(code) as { id: string } | undefined;
  if (!exam) {
    deps.limits.roomByAddress.fail(address);
    throw new NotFound('An exam with this room code', { code: 'ROOM_NOT_FOUND' });
  }
  const paper = deps.sessions.paper(exam.id)!;
  // Safe Exam Browser first: a browser without it learns nothing about PINs or the roster,
  // and a refused start locks nothing (SEB: "don't start the exam")
  const sebCheck = paper.seb !== null && req ? enforceSeb(deps, req, paper) : null;
  const now = deps.clock.now();
  checkWindow(paper.exam, now);

  const pinKey = `${exam.id}\n${studentId}`;
  const seat: Seat = { key: seatPrefix(exam.id, studentId) + address, addressKey: addressKey(exam.id, address), address };
  deps.limits.pinBySeat.check(seat.key, 'Too many wrong PINs for this student ID from this computer');
  deps.limits.pinByAddress.check(seat.addressKey, 'Too many wrong PINs for different student IDs from this computer');

  const pin = input.candidatePin?.trim() ?? '';
  let candidateName = input.candidateName.trim();
  let rosterChecked = false;
  let extraTime: ExtraTime = { extra_time_percent: 0, extra_time_mins: 0 };
  let subjects: string[] | null = null;
  const existing = deps.sqlite.prepare('SELECT id, pin_hash, status FROM attempts WHERE exam_id = ? AND student_id = ?').get(exam.id, studentId) as Pick<AttemptRow, 'id' | 'pin_hash' | 'status'> | undefined;
  if (paper.hasRoster) {
    // the access arrangements and subjects come with the PIN in the same read: a start costs no extra query
    const entry = deps.sqlite.prepare('SELECT candidate_name, pin_sealed, extra_time_percent, extra_time_mins, subjects_json FROM roster_entries WHERE exam_id = ? AND student_id = ?').get(exam.id, studentId) as ({ candidate_name: string; pin_sealed: string; subjects_json: string | null } & ExtraTime) | undefined;
    if (entry) {
      if (!pin || !safeEqual(pin, deps.secrets.open(entry.pin_sealed))) signInFailed(deps, seat);
      candidateName = entry.candidate_name;
      subjects = entry.subjects_json ? (JSON.parse(entry.subjects_json) as string[]) : null;
      rosterChecked = true;
      extraTime = { extra_time_percent: entry.extra_time_percent, extra_time_mins: entry.extra_time_mins };
    } else if (!existing?.pin_hash) {
      // not on the roster: nothing starts. Only an attempt started openly before the roster
      // was added goes on, with the PIN its candidate chose (checkResumable)
      signInFailed(deps, seat);
    }
  } else if (!/^\d{4,8}$/.test(pin)) {
    throw new ValidationError('Choose a PIN of 4 to 8 digits; you will need it to resume.', [{ path: 'candidatePin', message: 'must be 4 to 8 digits' }]);
  }
  return { examId: exam.id, paper, studentId, pin, pinKey, candidateName, seat, existing, rosterChecked, extraTime, sebCheck, subjects };
}

/**
 * Refuses a new attempt of a paper candidates cannot start: no questions, or a section
 * drawing more questions than it has (issue 37 item 2: refused at start, never at grading).
 * @throws Conflict NO_QUESTIONS, SECTION_DRAW_TOO_LARGE
 */
function assertStartable(paper: Paper): void {
  if (paper.questions.length === 0) throw new Conflict('This exam has no questions yet. Ask the invigilator.', { code: 'NO_QUESTIONS' });
  if (paper.sectionProblems.length) throw new Conflict(`This exam cannot start: ${paper.sectionProblems.join(' ')} Ask the invigilator.`, { code: 'SECTION_DRAW_TOO_LARGE', problems: paper.sectionProblems });
}

/**
 * What a new candidate with `subjects` would sit, for the preview: the number of questions
 * and of written ones, and their marks (a drawn section counts its draw at the section's
 * mean marks per question: exact when its questions carry equal marks).
 */
function sittingCounts(paper: Paper, subjects: string[] | null): { questions: number; essays: number; marks: number } {
  const isEssay = (q: Paper['questions'][number]) => q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY';
  if (!paper.sections) return { questions: paper.questions.length, essays: paper.questions.filter(isEssay).length, marks: paper.maxScore };
  let questions = 0;
  let essays = 0;
  let marks = 0;
  for (const s of sittingSections(paper.sections, subjects)) {
    const qs = paper.questions.filter((q) => q.section === s.name);
    const share = s.draw === null || qs.length === 0 ? 1 : Math.min(1, s.draw / qs.length);
    questions += s.draw === null ? qs.length : Math.min(s.draw, qs.length);
    essays += Math.round(qs.filter(isEssay).length * share);
    marks += qs.reduce((sum, q) => sum + q.marks, 0) * share;
  }
  return { questions, essays, marks };
}

/**
 * Starts or resumes. `address` is the client's address, shown to the invigilator; `req`
 * the HTTP request, judged when the exam requires Safe Exam Browser; `form` how the
 * questions' maths is written (`?math=mathml`: MathML only).
 * @throws NotFound (room code), Forbidden (window, unpublished, disqualified), ApiError 401
 *   (PIN, roster), PaymentRequired, Conflict (no questions, already submitted, SEAT_USED:
 *   this computer already started an attempt of this open room), TooManyRequests
 */
export async function startAttempt(deps: HallDeps, input: StartInput, address: string, req?: Context<AppEnv>, form: MathForm = 'html') {
  const { examId, paper, studentId, pin, pinKey, candidateName, seat, existing, rosterChecked, extraTime, sebCheck, subjects } = await identify(deps, input, address, req);
  // the questions' HTML, rendered once per question version in the render thread (sessions/render-cache.ts)
  await renderPaper(paper, form);
  const exam = { id: examId };
  const now = deps.clock.now();
  if (existing) return resume(deps, paper, existing, { pin, pinKey, seat, rosterChecked }, sebCheck, form);
  deps.limits.pinBySeat.clear(seat.key);

  assertStartable(paper);
  const pinHash = paper.hasRoster ? null : deps.secrets.pinHash(pin, pinKey);
  const id = newId('att');
  // the attempt's seed: its sections' draws come from it, once, and the layout keeps them (issue 37 item 2)
  const seed = randomInt(0x1_0000_0000);
  const sitting = paper.sections ? drawSitting(paper.sections, paper.questions, subjects, seed) : null;
  if (sitting && sitting.every((s) => s.questionIds.length === 0)) throw new Conflict('The sections you sit have no questions yet. Ask the invigilator.', { code: 'NO_QUESTIONS' });
  const layout = newLayout(paper, randomInt, sitting);
  try {
    await withWriteTurn(deps.sqlite, () => deps.sqlite.transaction(() => {
      if (!paper.hasRoster) assertSeatFree(deps, exam.id, address);
      const debit = deps.sqlite.prepare('UPDATE workspaces SET credits = credits - 1 WHERE id = ? AND credits > 0').run(paper.exam.workspace_id);
      if (debit.changes === 0) throw new PaymentRequired('This exam hall has no candidate testing credits left. Ask the invigilator.');
      deps.sqlite
        .prepare(
          `INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, pin_hash, status, started_at, credited_ms, extra_seconds, extra_time_percent, extra_time_mins, violations, client_address, seat_address, last_seen_at, draw_seed)
           VALUES (?,?,?,?,?,?,'IN_PROGRESS',?,0,0,?,?,0,?,?,?,?)`,
        )
        .run(id, exam.id, paper.exam.workspace_id, studentId, candidateName.slice(0, 200), pinHash, now, extraTime.extra_time_percent, extraTime.extra_time_mins, address, address, now, seed);
      deps.sqlite.prepare('INSERT INTO attempt_layouts (attempt_id, layout_json) VALUES (?, ?)').run(id, serializeLayout(layout));
    })());
  } catch (e) {
    // two starts of one studentId at once: the loser resumes the winner's attempt
    if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      const won = deps.sqlite.prepare('SELECT id, pin_hash, status FROM attempts WHERE exam_id = ? AND student_id = ?').get(exam.id, studentId) as Pick<AttemptRow, 'id' | 'pin_hash' | 'status'>;
      return resume(deps, paper, won, { pin, pinKey, seat, rosterChecked }, sebCheck, form);
    }
    throw e;
  }
  deps.sessions.rememberLayout(id, layout);
  const st = deps.sessions.attempt(id)!;
  if (sebCheck) noteSebPassed(st, sebCheck); // for the monitor: this start passed the SEB checks
  deps.events.emit({ kind: 'attempt-changed', examId: exam.id, attemptId: id });
  return sessionView(deps, paper, st, false, true, form);
}

/** What a resume was signed in with (from `identify`). */
interface Credentials {
  pin: string;
  pinKey: string;
  seat: Seat;
  rosterChecked: boolean;
}

/**
 * An existing attempt may be resumed with this PIN: the PIN is its own (the one its
 * candidate chose, or — for an attempt started under the roster — the roster's, checked
 * by `identify`; without the roster's there is no resuming it, whatever happens to the
 * roster), and it is neither disqualified nor completed.
 * @throws ApiError 401 (PIN, counted by the seat's throttle), Forbidden (disqualified), Conflict (completed)
 */
async function checkResumable(deps: HallDeps, a: Pick<AttemptRow, 'id' | 'pin_hash' | 'status'>, { pin, pinKey, seat, rosterChecked }: Credentials): Promise<void> {
  if (a.pin_hash ? !(await deps.secrets.verifyPin(pin, pinKey, a.pin_hash)) : !rosterChecked) signInFailed(deps, seat);
  deps.limits.pinBySeat.clear(seat.key);
  if (a.status === 'DISQUALIFIED') throw new Forbidden('This attempt is locked (disqualified for proctoring violations, or stopped by a failed Safe Exam Browser check). Ask the invigilator.', { code: 'DISQUALIFIED', attemptStatus: 'DISQUALIFIED' });
  if (a.status === 'COMPLETED') throw new Conflict('This exam has already been submitted for this student ID.', { code: 'ALREADY_SUBMITTED', attemptId: a.id });
}

/**
 * What signing in would open, without opening it: the instructions a candidate reads
 * before the clock starts (issue 20 item 4). The same checks and problems as a start, and
 * nothing is created, charged or revealed (no question text): the clock of a new attempt
 * starts only with `POST /attempts/start`, when the candidate presses Start.
 * @returns the exam's title, duration, number of questions (and of written ones), total
 *   marks, violation limit, the time the candidate will have (the roster's extra time included), and whether an attempt is
 *   in progress (a resume: its clock is already running)
 */
export async function previewAttempt(deps: HallDeps, input: StartInput, address: string, req?: Context<AppEnv>, form: MathForm = 'html') {
  const { paper, studentId, pin, pinKey, candidateName, seat, existing, rosterChecked, extraTime, subjects } = await identify(deps, input, address, req);
  // while the candidate reads the instructions, the paper's HTML (in the form the page will ask for) gets ready for the start
  void renderPaper(paper, form);
  const exam = paper.exam;
  const now = deps.clock.now();
  let remainingSeconds: number;
  let counts: { questions: number; essays: number; marks: number };
  if (existing) {
    await checkResumable(deps, existing, { pin, pinKey, seat, rosterChecked });
    remainingSeconds = Math.max(0, Math.floor(remainingMs(exam, deps.sessions.attempt(existing.id)!.row, now) / 1000));
    // what this candidate was given (all of the paper, or their sections' questions)
    const given = attemptPaper(paper, deps.sessions.layout(existing.id)).questions;
    counts = { questions: given.length, essays: given.filter((q) => q.type === 'SHORT_ESSAY' || q.type === 'LONG_ESSAY').length, marks: given.reduce((sum, q) => sum + q.marks, 0) };
  } else {
    assertStartable(paper);
    counts = sittingCounts(paper, subjects);
    if (!paper.hasRoster) assertSeatFree(deps, exam.id, address);
    const ws = deps.sqlite.prepare('SELECT credits FROM workspaces WHERE id = ?').get(exam.workspace_id) as { credits: number } | undefined;
    if (!ws || ws.credits <= 0) throw new PaymentRequired('This exam hall has no candidate testing credits left. Ask the invigilator.');
    // a start now would have the whole duration (with the roster's extra time), cut short only by the window's end
    remainingSeconds = Math.max(0, Math.floor(remainingMs(exam, { started_at: now, credited_ms: 0, extra_seconds: 0, ...extraTime }, now) / 1000));
  }
  const totalMarks = Math.round(counts.marks * 100) / 100;
  return {
    examId: exam.id,
    examTitle: exam.title,
    candidateName: existing ? deps.sessions.attempt(existing.id)!.row.candidate_name : candidateName,
    studentId,
    isResumed: !!existing,
    durationMins: exam.duration_mins,
    questionCount: counts.questions,
    essayCount: counts.essays,
    totalMarks,
    maxTabViolations: exam.max_tab_violations,
    remainingSeconds,
    isPaused: exam.paused_at !== null,
    endsAt: exam.ends_at === null ? null : iso(exam.ends_at),
    instructions: exam.instructions,
    instructionsHtml: instructionsHtml(paper, form),
  };
}

async function resume(deps: HallDeps, paper: Paper, a: Pick<AttemptRow, 'id' | 'pin_hash' | 'status'>, credentials: Credentials, sebCheck: SebCheck | null, form: MathForm) {
  await checkResumable(deps, a, credentials);
  const address = credentials.seat.address;
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
  if (sebCheck) noteSebPassed(st, sebCheck);
  // a sign-in may be a new device: what the server holds becomes the base, and answers a
  // lost device never delivered stop holding durability back (the page re-sends any
  // local answer the server does not hold, whatever durableSeq says)
  deps.buffer.seal(a.id);
  deps.events.emit({ kind: 'attempt-changed', examId: paper.exam.id, attemptId: a.id });
  return sessionView(deps, paper, st, true, true, form);
}
