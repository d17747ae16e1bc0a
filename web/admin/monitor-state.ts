/**
 * The live monitor's bookkeeping, free of DOM: the latest snapshot with the stream's deltas
 * applied (the rows that changed, by attempt id), local ticking of each candidate's
 * remaining time from when their row arrived, "not seen for 60 s" detection and the
 * alert list (server `alert` events plus changes noticed between snapshots), each alert
 * raised once per occurrence.
 */
import type { AttemptSummary, MonitorAlert, MonitorDelta, MonitorSnapshot } from './types.js';

/** A candidate is flagged when the server has not heard from them for this long (issue 5). */
export const UNSEEN_AFTER_SECONDS = 60;

/**
 * A candidate's row shows "last seen … ago" after this long without a request from their
 * page (issue 36). An idle page polls every 10 s (web/candidate/exam.ts) and the monitor's
 * stream resends a candidate's row once the server heard from them 3 s or more after the
 * `lastSeenAt` it last sent, so a page that is there never reaches it.
 */
export const QUIET_AFTER_SECONDS = 15;

/** "1 candidate", "2 candidates" (issue 36: singular and plural wherever the monitor counts). */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

const naturalOrder = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Compares names naturally: "Student 2" before "Student 10", case and accents aside (issue 36). */
export function byName(x: string, y: string): number {
  return naturalOrder.compare(x, y);
}

/**
 * What a roster candidate without an attempt is called: "not started" until the exam's
 * window closes, "absent" after it (an exam without a closing time: always "not started").
 */
export function absentWord(endsAt: string | null | undefined, serverNow: number): 'not started' | 'absent' {
  return endsAt && serverNow >= Date.parse(endsAt) ? 'absent' : 'not started';
}

export interface RaisedAlert extends MonitorAlert {
  at: number;
  key: string;
}

export class MonitorState {
  snapshot: MonitorSnapshot | null = null;
  /** local epoch ms when the snapshot arrived */
  receivedAt = 0;
  /** server clock − local clock, ms */
  skewMs = 0;
  alerts: RaisedAlert[] = [];
  private readonly raised = new Set<string>();
  /** local epoch ms when each row arrived in a delta (or an action's reply) after the snapshot */
  private readonly rowAt = new Map<string, number>();

  /** Server "now" estimated from the last snapshot's serverTime. */
  serverNow(localNow = Date.now()): number {
    return localNow + this.skewMs;
  }

  /** Takes a new snapshot; returns alerts newly raised by what changed. */
  apply(s: MonitorSnapshot, localNow = Date.now()): RaisedAlert[] {
    const prev = new Map((this.snapshot?.attempts ?? []).map((a) => [a.attemptId, a]));
    this.snapshot = s;
    this.receivedAt = localNow;
    const st = Date.parse(s.serverTime);
    if (!Number.isNaN(st)) this.skewMs = st - localNow;
    this.rowAt.clear();
    return this.statusChanges(s.attempts, prev, localNow).concat(this.checkUnseen(localNow));
  }

  /**
   * Takes a `delta` event: its rows replace (or join) the snapshot's by attempt id, and the
   * absent list, wrong sign-ins and seats when it carries them. Ignored before a snapshot
   * (the stream always sends one first). Returns alerts newly raised by what changed.
   */
  applyDelta(d: MonitorDelta, localNow = Date.now()): RaisedAlert[] {
    const s = this.snapshot;
    if (!s) return [];
    const st = Date.parse(d.serverTime);
    if (!Number.isNaN(st)) this.skewMs = st - localNow;
    const prev = new Map<string, AttemptSummary>();
    const index = new Map(s.attempts.map((a, i) => [a.attemptId, i]));
    const attempts = s.attempts.slice();
    for (const a of d.attempts) {
      const i = index.get(a.attemptId);
      if (i === undefined) {
        index.set(a.attemptId, attempts.length);
        attempts.push(a);
      } else {
        prev.set(a.attemptId, attempts[i]!);
        attempts[i] = a;
      }
      this.rowAt.set(a.attemptId, localNow);
    }
    s.attempts = attempts;
    if (d.absent) s.absent = d.absent;
    if (d.signInFailures) s.signInFailures = d.signInFailures;
    if (d.seats) s.seats = d.seats;
    return this.statusChanges(d.attempts, prev, localNow).concat(this.checkUnseen(localNow));
  }

  /** Disqualification alerts for rows that became disqualified; re-arms those that are not. */
  private statusChanges(rows: AttemptSummary[], prev: Map<string, AttemptSummary>, localNow: number): RaisedAlert[] {
    const fresh: RaisedAlert[] = [];
    for (const a of rows) {
      const before = prev.get(a.attemptId);
      if (a.status === 'DISQUALIFIED' && before?.status !== 'DISQUALIFIED') {
        const r = this.raise({ kind: 'disqualified', attemptId: a.attemptId, candidateName: a.candidateName }, localNow);
        if (r) fresh.push(r);
      }
      if (a.status !== 'DISQUALIFIED') this.raised.delete(`disqualified:${a.attemptId}`);
    }
    return fresh;
  }

  /** Records a server alert (deduplicated); returns it when new. */
  raise(alert: MonitorAlert, localNow = Date.now()): RaisedAlert | null {
    const key = `${alert.kind}:${alert.attemptId}`;
    if (this.raised.has(key)) return null;
    this.raised.add(key);
    const r = { ...alert, at: localNow, key };
    this.alerts.unshift(r);
    if (this.alerts.length > 100) this.alerts.length = 100;
    return r;
  }

  /** Drops an alert from the list (it is not raised again until it re-occurs). */
  dismiss(key: string): void {
    this.alerts = this.alerts.filter((a) => a.key !== key);
  }

  /** Seconds since the server last heard from the candidate, or null if never. */
  unseenSeconds(a: AttemptSummary, localNow = Date.now()): number | null {
    const last = a.lastSeenAt ?? a.startedAt;
    if (!last) return null;
    return Math.max(0, Math.round((this.serverNow(localNow) - Date.parse(last)) / 1000));
  }

  /** True when an in-progress candidate has been silent for QUIET_AFTER_SECONDS (15 s) or more: the row shows when they were last seen. */
  isQuiet(a: AttemptSummary, localNow = Date.now()): boolean {
    if (a.status !== 'IN_PROGRESS') return false;
    const s = this.unseenSeconds(a, localNow);
    return s !== null && s >= QUIET_AFTER_SECONDS;
  }

  /** True when an in-progress candidate has been silent for 60 s or more. */
  isUnseen(a: AttemptSummary, localNow = Date.now()): boolean {
    if (a.status !== 'IN_PROGRESS') return false;
    const s = this.unseenSeconds(a, localNow);
    return s !== null && s >= UNSEEN_AFTER_SECONDS;
  }

  /** Raises "unseen" alerts for candidates that just went quiet; re-arms those seen again. */
  checkUnseen(localNow = Date.now()): RaisedAlert[] {
    const fresh: RaisedAlert[] = [];
    for (const a of this.snapshot?.attempts ?? []) {
      const key = `unseen:${a.attemptId}`;
      if (this.isUnseen(a, localNow)) {
        const r = this.raise({ kind: 'unseen', attemptId: a.attemptId, candidateName: a.candidateName }, localNow);
        if (r) fresh.push(r);
      } else if (this.raised.has(key)) {
        this.raised.delete(key);
        this.dismiss(key);
      }
    }
    return fresh;
  }

  /** Remaining seconds now: the row's value ticked down locally, from when it arrived, while the exam runs. */
  remaining(a: AttemptSummary, localNow = Date.now()): number {
    if (a.status !== 'IN_PROGRESS' || this.snapshot?.exam.isPaused) return Math.max(0, a.remainingSeconds);
    return Math.max(0, a.remainingSeconds - Math.floor((localNow - (this.rowAt.get(a.attemptId) ?? this.receivedAt)) / 1000));
  }

  /** Replaces one attempt (after an action answered with its fresh summary). */
  patchAttempt(a: AttemptSummary, localNow = Date.now()): void {
    if (!this.snapshot) return;
    // remaining() ticks it from now
    this.rowAt.set(a.attemptId, localNow);
    // an action's reply may not count answers still in the server's buffer: keep the larger count
    this.snapshot.attempts = this.snapshot.attempts.map((x) => (x.attemptId === a.attemptId ? { ...a, answered: Math.max(x.answered, a.answered ?? 0) } : x));
  }

  /** Counts by state for the summary line. */
  counts(localNow = Date.now()): { writing: number; submitted: number; disqualified: number; unseen: number; quiet: number } {
    const c = { writing: 0, submitted: 0, disqualified: 0, unseen: 0, quiet: 0 };
    for (const a of this.snapshot?.attempts ?? []) {
      if (a.status === 'IN_PROGRESS') c.writing++;
      else if (a.status === 'COMPLETED') c.submitted++;
      else c.disqualified++;
      if (this.isUnseen(a, localNow)) c.unseen++;
      if (this.isQuiet(a, localNow)) c.quiet++;
    }
    return c;
  }
}
