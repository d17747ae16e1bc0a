/**
 * The live monitor's feed for one stream (GET /exams/{id}/monitor/stream): a full snapshot
 * when the stream opens (every connection, so a reconnect always starts from the whole
 * state), then once a second a delta of only the rows whose attempt changed since the last
 * tick. Rows are rebuilt one attempt at a time from the session cache and the answer
 * buffer, never by a whole-exam query: at 10,000 candidates the whole snapshot each second
 * held the event loop 100–260 ms (docs/benchmarks.md, the 10,000-candidate section).
 *
 * A row is in a delta when its attempt had an `attempt-changed` / `attempt-disqualified`
 * event (a save, a start, a status, a flag, an invigilator's action), or when the server
 * last heard from the candidate ≥ LAST_SEEN_STEP_MS after the `lastSeenAt` the stream last
 * sent (a page polling or a channel frame emits no event; the page marks a candidate not
 * heard from for 15 s, so it may be at most 3 s behind, as with the 3-second snapshots
 * before). An exam-level change (pause, resume, times) sends a full snapshot instead, since
 * it moves every candidate's remaining time.
 */
import type { HallDeps } from '../../hall/deps.js';
import type { HallEvent } from '../../hall/events.js';
import { getExamInWorkspace, serializeExam } from '../exams/index.js';
import { absentCandidates, examAttempts, monitorRow } from './invigilation.js';
import { signInFailures } from './sign-in-throttle.js';
import { examSeats } from './seats.js';

/** A row is resent when its `lastSeenAt` moved this far since the one last sent (ms). */
export const LAST_SEEN_STEP_MS = 3_000;
/** An in-progress candidate not heard from this long raises an `unseen` alert (ms; issue 5). */
const UNSEEN_MS = 60_000;

/** `{exam, serverTime, attempts, absent, signInFailures, openRoom, seats}`: GET /exams/{id}/monitor's body. */
export function monitorSnapshot(deps: HallDeps, workspaceId: string, examId: string) {
  const exam = getExamInWorkspace(deps, workspaceId, examId);
  const openRoom = !deps.sessions.paper(exam.id)!.hasRoster;
  return {
    exam: serializeExam(exam),
    serverTime: new Date(deps.clock.now()).toISOString(),
    attempts: examAttempts(deps, workspaceId, examId),
    // roster candidates without an attempt (issue 36): the whole room, not only who started
    absent: absentCandidates(deps, exam.id),
    signInFailures: signInFailures(deps, exam.id),
    // without a roster each computer starts one attempt (seats.ts): which seats did, and what is left
    openRoom,
    seats: openRoom ? examSeats(deps, exam.id) : [],
  };
}

export type MonitorSnapshot = ReturnType<typeof monitorSnapshot>;

/**
 * What one tick sends: `snapshot` (the whole state), `delta` (`{serverTime, attempts:
 * [changed rows], absent?, signInFailures?, seats?}`, the optional members only when they
 * changed) or nothing; plus the `unseen` alerts newly raised.
 */
export interface MonitorTick {
  snapshot?: MonitorSnapshot;
  delta?: { serverTime: string; attempts: ReturnType<typeof monitorRow>[]; absent?: MonitorSnapshot['absent']; signInFailures?: MonitorSnapshot['signInFailures']; seats?: MonitorSnapshot['seats'] };
  alerts: { kind: 'unseen'; attemptId: string; candidateName: string }[];
}

/** One stream's view of an exam: what it sent, and what changed since (see the module header). */
export class MonitorFeed {
  private ids: string[] = [];
  private known = new Set<string>();
  private sentSeen = new Map<string, number | null>();
  private dirty = new Set<string>();
  private started = false;
  private examSig = '';
  private failuresSig = '';
  private seatsSig = '';
  private ticks = 0;
  private readonly alerted = new Set<string>();

  constructor(private readonly deps: HallDeps, private readonly workspaceId: string, private readonly examId: string) {}

  /** Notes a hall event: an attempt of this exam changed. */
  note(e: HallEvent): void {
    if ((e.kind === 'attempt-changed' || e.kind === 'attempt-disqualified') && e.examId === this.examId) {
      this.dirty.add(e.attemptId);
      if (!this.known.has(e.attemptId)) {
        // a new attempt (a start emits the event): it joins the rows and leaves the absent list
        this.known.add(e.attemptId);
        this.ids.push(e.attemptId);
        this.started = true;
      }
    }
  }

  /** The whole state; the feed's record of what was sent starts again from it. */
  full(): MonitorSnapshot {
    const snap = monitorSnapshot(this.deps, this.workspaceId, this.examId);
    this.dirty.clear();
    this.started = false;
    this.ids = snap.attempts.map((a) => a.attemptId);
    this.known = new Set(this.ids);
    this.sentSeen = new Map(snap.attempts.map((a) => [a.attemptId, a.lastSeenAt ? Date.parse(a.lastSeenAt) : null]));
    this.examSig = JSON.stringify(snap.exam);
    this.failuresSig = JSON.stringify(snap.signInFailures);
    this.seatsSig = JSON.stringify(snap.seats);
    return snap;
  }

  /** One second's tick: a full snapshot on the first tick or after an exam-level change, else a delta (or nothing). @throws NotFound when the exam is gone */
  tick(): MonitorTick {
    const deps = this.deps;
    this.ticks++;
    const exam = getExamInWorkspace(deps, this.workspaceId, this.examId);
    if (!this.examSig || JSON.stringify(serializeExam(exam)) !== this.examSig) {
      const snapshot = this.full();
      return { snapshot, alerts: this.unseen(snapshot.attempts.map((a) => a.attemptId)) };
    }
    const now = deps.clock.now();
    const paper = deps.sessions.paper(exam.id)!;
    const delta: NonNullable<MonitorTick['delta']> = { serverTime: new Date(now).toISOString(), attempts: [] };
    const startedNow = this.started;
    if (startedNow) {
      this.started = false;
      delta.absent = absentCandidates(deps, exam.id);
    }
    for (const id of this.ids) {
      const st = deps.sessions.attempt(id);
      if (!st) continue;
      const sent = this.sentSeen.get(id);
      const seen = st.lastSeenAt;
      if (this.dirty.has(id) || (seen !== null && (sent == null || seen - sent >= LAST_SEEN_STEP_MS))) {
        delta.attempts.push(monitorRow(deps, paper, st));
        this.sentSeen.set(id, seen);
      }
    }
    this.dirty.clear();
    const failures = signInFailures(deps, exam.id);
    const failuresSig = JSON.stringify(failures);
    if (failuresSig !== this.failuresSig) {
      this.failuresSig = failuresSig;
      delta.signInFailures = failures;
    }
    // seats change with a start (above) or an invigilator's allowance (no event): looked at every 3 s
    if (!paper.hasRoster && (startedNow || this.ticks % 3 === 0)) {
      const seats = examSeats(deps, exam.id);
      const seatsSig = JSON.stringify(seats);
      if (seatsSig !== this.seatsSig) {
        this.seatsSig = seatsSig;
        delta.seats = seats;
      }
    }
    const alerts = this.unseen(this.ids);
    const empty = !delta.attempts.length && !delta.absent && !delta.signInFailures && !delta.seats;
    return { ...(empty ? {} : { delta }), alerts };
  }

  /** `unseen` alerts for in-progress candidates not heard from for 60 s, once per occurrence. */
  private unseen(ids: string[]): MonitorTick['alerts'] {
    const now = this.deps.clock.now();
    const out: MonitorTick['alerts'] = [];
    for (const id of ids) {
      const st = this.deps.sessions.attempt(id);
      if (!st) continue;
      const silent = now - (st.lastSeenAt ?? 0);
      if (st.row.status === 'IN_PROGRESS' && silent > UNSEEN_MS && !this.alerted.has(id)) {
        this.alerted.add(id);
        out.push({ kind: 'unseen', attemptId: id, candidateName: st.row.candidate_name });
      } else if (silent <= UNSEEN_MS) this.alerted.delete(id);
    }
    return out;
  }
}
