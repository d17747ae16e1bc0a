/**
 * The live monitor's feed for one stream (GET /exams/{id}/monitor/stream): a full snapshot
 * when the stream opens (every connection, so a reconnect always starts from the whole
 * state), then once a second a delta of only the rows whose attempt changed since the last
 * tick. Rows are rebuilt one attempt at a time from the session cache and the answer
 * buffer's answered counts, never by a whole-exam query: at 10,000 candidates the whole
 * snapshot each second held the event loop 100–260 ms (docs/benchmarks.md, the
 * 10,000-candidate section); and in slices of DELTA_SLICE rows, each its own `delta` event,
 * so 2,500 changed rows a second do not hold it in one turn either; the attempts are looked
 * at SCAN_SLICE at a time for the same reason.
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
import type { AttemptState, Paper } from '../sessions/index.js';
import { absentCandidates, examAttempts, monitorRow } from './invigilation.js';
import { signInFailures } from './sign-in-throttle.js';
import { examSeats } from './seats.js';

/**
 * Rows per `delta` event: a tick's rows are built and sent in slices of this many, one turn
 * of the event loop each. At 10,000 channels saving 2,500 times a second, slices of 100 held
 * the saves' p99 at 9.3–10.1 ms against 18.2–21.7 ms with 500, the monitor as far behind
 * (three alternating pairs: docs/benchmarks.md, the 10,000-candidate section).
 */
export const DELTA_SLICE = 100;
/**
 * Attempts a tick looks at in one turn of the event loop (MonitorFeed `scan`): ~0.4 ms of
 * work at 10,000 candidates, where the whole pass took ~7 ms (docs/benchmarks.md, the
 * 10,000-candidate section).
 */
export const SCAN_SLICE = 1_000;
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

/** One `delta` event: `{serverTime, attempts: [changed rows], absent?, signInFailures?, seats?}`. */
export interface MonitorDelta {
  serverTime: string;
  attempts: ReturnType<typeof monitorRow>[];
  absent?: MonitorSnapshot['absent'];
  signInFailures?: MonitorSnapshot['signInFailures'];
  seats?: MonitorSnapshot['seats'];
}

/**
 * What one tick sends: `snapshot` (the whole state), or the `deltas` — none when nothing
 * changed, else one event per DELTA_SLICE changed rows, the optional members only in the
 * first and only when they changed. The deltas are found and built as the iteration reaches
 * them, with a `null` between two slices of SCAN_SLICE attempts looked at, so a sender that
 * gives the event loop a turn between items (invigilation-routes.ts; a `null` sends nothing)
 * never holds it for more than one slice. `alerts`: the `unseen` alerts newly raised, complete
 * once `deltas` has been iterated to its end.
 */
export interface MonitorTick {
  snapshot?: MonitorSnapshot;
  deltas: Iterable<MonitorDelta | null>;
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

  /** @param scanSlice attempts looked at per turn of a tick (SCAN_SLICE; smaller in tests) */
  constructor(
    private readonly deps: HallDeps,
    private readonly workspaceId: string,
    private readonly examId: string,
    private readonly scanSlice = SCAN_SLICE,
  ) {}

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

  /**
   * One second's tick: a full snapshot on the first tick or after an exam-level change, else
   * the deltas (or nothing), found and built as they are iterated (`scan`).
   * @throws NotFound when the exam is gone
   */
  tick(): MonitorTick {
    const deps = this.deps;
    this.ticks++;
    const exam = getExamInWorkspace(deps, this.workspaceId, this.examId);
    if (!this.examSig || JSON.stringify(serializeExam(exam)) !== this.examSig) {
      const snapshot = this.full();
      return { snapshot, deltas: [], alerts: this.unseen(snapshot.attempts.map((a) => a.attemptId)) };
    }
    const now = deps.clock.now();
    const paper = deps.sessions.paper(exam.id)!;
    const first: MonitorDelta = { serverTime: new Date(now).toISOString(), attempts: [] };
    const startedNow = this.started;
    if (startedNow) {
      this.started = false;
      first.absent = absentCandidates(deps, exam.id);
    }
    const failures = signInFailures(deps, exam.id);
    const failuresSig = JSON.stringify(failures);
    if (failuresSig !== this.failuresSig) {
      this.failuresSig = failuresSig;
      first.signInFailures = failures;
    }
    // seats change with a start (above) or an invigilator's allowance (no event): looked at every 3 s
    if (!paper.hasRoster && (startedNow || this.ticks % 3 === 0)) {
      const seats = examSeats(deps, exam.id);
      const seatsSig = JSON.stringify(seats);
      if (seatsSig !== this.seatsSig) {
        this.seatsSig = seatsSig;
        first.seats = seats;
      }
    }
    // the attempts that change from here on are the next tick's
    const dirty = this.dirty;
    this.dirty = new Set();
    const alerts: MonitorTick['alerts'] = [];
    return { deltas: this.scan(first, dirty, paper, now, alerts), alerts };
  }

  /**
   * The tick's delta events, found as they are iterated: the attempts are looked at
   * `scanSlice` (SCAN_SLICE) at a time, with a `null` (the sender gives the event loop a turn, and sends
   * nothing) between two such slices — one pass over 10,000 attempts in one turn held the
   * loop ~7 ms each second (docs/benchmarks.md, the 10,000-candidate section). A row is due
   * when its attempt is in `dirty` or was heard from LAST_SEEN_STEP_MS after the `lastSeenAt`
   * last sent; every DELTA_SLICE rows due are built (from the state then: an attempt gone by
   * then is left out) and yielded as one event. `first` (with the members that changed) is
   * the first event, sent even without rows when it has such a member. The same pass adds
   * the newly raised `unseen` alerts to `alerts`.
   */
  private *scan(first: MonitorDelta, dirty: Set<string>, paper: Paper, now: number, alerts: MonitorTick['alerts']): Generator<MonitorDelta | null> {
    const sessions = this.deps.sessions;
    let due: string[] = [];
    let sent = false;
    const build = (ids: string[]): MonitorDelta => {
      const d = sent ? { serverTime: first.serverTime, attempts: [] } : first;
      for (const id of ids) {
        const st = sessions.attempt(id);
        if (st) d.attempts.push(monitorRow(this.deps, paper, st));
      }
      return d;
    };
    // new attempts join `ids` meanwhile (note): they are in the next tick's `dirty`, and seen here too
    const ids = this.ids;
    for (let i = 0; i < ids.length; i += this.scanSlice) {
      if (i > 0) yield null;
      const end = Math.min(ids.length, i + this.scanSlice);
      for (let k = i; k < end; k++) {
        const id = ids[k]!;
        const st = sessions.attempt(id);
        if (!st) continue;
        const sentSeen = this.sentSeen.get(id);
        const seen = st.lastSeenAt;
        if (dirty.has(id) || (seen !== null && (sentSeen == null || seen - sentSeen >= LAST_SEEN_STEP_MS))) {
          due.push(id);
          this.sentSeen.set(id, seen);
        }
        this.noteSilence(id, st, now, alerts);
      }
      while (due.length >= DELTA_SLICE) {
        const d = build(due.slice(0, DELTA_SLICE));
        due = due.slice(DELTA_SLICE);
        if (d.attempts.length || !sent) yield d;
        sent = true;
      }
    }
    const header = Boolean(first.absent || first.signInFailures || first.seats);
    if (due.length || (!sent && header)) {
      const d = build(due);
      if (d.attempts.length || (!sent && header)) yield d;
    }
  }

  /** `unseen` alerts for in-progress candidates not heard from for 60 s, once per occurrence. */
  private unseen(ids: string[]): MonitorTick['alerts'] {
    const now = this.deps.clock.now();
    const out: MonitorTick['alerts'] = [];
    for (const id of ids) {
      const st = this.deps.sessions.attempt(id);
      if (st) this.noteSilence(id, st, now, out);
    }
    return out;
  }

  /** Adds an `unseen` alert to `out` when the in-progress attempt has just passed UNSEEN_MS without a word; re-arms it once heard from. */
  private noteSilence(id: string, st: AttemptState, now: number, out: MonitorTick['alerts']): void {
    const silent = now - (st.lastSeenAt ?? 0);
    if (st.row.status === 'IN_PROGRESS' && silent > UNSEEN_MS && !this.alerted.has(id)) {
      this.alerted.add(id);
      out.push({ kind: 'unseen', attemptId: id, candidateName: st.row.candidate_name });
    } else if (silent <= UNSEEN_MS) this.alerted.delete(id);
  }
}
