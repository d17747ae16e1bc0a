/**
 * Hot-path cache of exam papers and attempt states, so an answer save touches no
 * database (docs/design.md §7, issue 8). The database stays the truth: every service that
 * changes an exam, its questions or roster calls `invalidateExam`, and attempt changes
 * go through `setAttempt`/`dropAttempt` in the same code that writes the row.
 */
import { LRUCache } from 'lru-cache';
import type { Sqlite } from '../../db/index.js';
import type { JobValue } from '../answers/index.js';
import type { AttemptRow, ExamRow, QuestionRow } from '../../db/rows.js';
import { buildPaper, type Layout, type Paper } from './paper.js';
import { parseLayout } from '../../core/exams/layout-codec.js';
import type { SebCheck } from '../seb-check/index.js';

/**
 * The cached copy of an attempt row, as an object literal of one fixed shape. A row from
 * better-sqlite3 gets its 23 columns as keyed stores, which puts it in V8's dictionary
 * mode: 1.6 KB of property table per row (16 MB of heap with 10,000 candidates, measured
 * in a heap snapshot) and hashed lookups of `status` and `started_at` on every save.
 */
function cachedRow(r: AttemptRow): AttemptRow {
  return {
    id: r.id,
    exam_id: r.exam_id,
    workspace_id: r.workspace_id,
    student_id: r.student_id,
    candidate_name: r.candidate_name,
    pin_hash: r.pin_hash,
    status: r.status,
    started_at: r.started_at,
    credited_ms: r.credited_ms,
    extra_seconds: r.extra_seconds,
    extra_time_percent: r.extra_time_percent,
    extra_time_mins: r.extra_time_mins,
    violations: r.violations,
    score: r.score,
    max_score: r.max_score,
    percentage: r.percentage,
    grade: r.grade,
    pending_review: r.pending_review,
    auto_submitted: r.auto_submitted,
    completed_at: r.completed_at,
    disqualified_at: r.disqualified_at,
    lock_reason: r.lock_reason,
    client_address: r.client_address,
    seat_address: r.seat_address,
    last_seen_at: r.last_seen_at,
    last_saved_at: r.last_saved_at,
    draw_seed: r.draw_seed,
    section_scores_json: r.section_scores_json,
  };
}

/**
 * An attempt row plus its in-memory activity times. The layout is not part of it: only
 * the views need it (`SessionCache.layout`), and 2,500 parsed layouts of 60 questions
 * held ~80 MB of the server's heap (issue 8's memory target).
 */
export interface AttemptState {
  row: AttemptRow;
  /** epoch ms of the last request / save (persisted by the flush job) */
  lastSeenAt: number | null;
  lastSavedAt: number | null;
  /** its activity times changed since the last flush took them (SessionCache's list) */
  activityPending: boolean;
  /** it is in SessionCache's list of pending attempts (maybe no longer pending) */
  listed: boolean;
  /** the last `takeActivity` (its number) that took its times */
  taken: number;
  /** whether its last request carried valid Safe Exam Browser evidence; null: not checked (issue 25) */
  sebValid: boolean | null;
  /** the Config and Browser Exam Key checks of its last judged request; null: not checked (issue #34 finding 6) */
  sebCheck: SebCheck | null;
}

export class SessionCache {
  private readonly papers = new LRUCache<string, Paper>({ max: 500 });
  private readonly attempts = new LRUCache<string, AttemptState>({ max: 50_000 });
  /** parsed layouts of the attempts whose views were built last (start, resume, result) */
  private readonly layouts = new LRUCache<string, Layout>({ max: 256 });
  /**
   * attempts whose activity times changed since the last flush took them, i.e. not yet
   * written, in `[0, pendingCount)`: a list, not a flag walked over every cached attempt
   * (10,000 of them held the event loop ~2 ms per flush), and not a set either — a set
   * cleared and refilled every second allocated its hash tables anew each time, and they
   * lived long enough to be promoted to the old generation (issue 8, GC). Slots are
   * reused; an attempt no longer pending (`activityPending` false) is skipped.
   */
  private readonly pendingList: (AttemptState | undefined)[] = [];
  private pendingCount = 0;
  /** `takeActivity` calls so far */
  private takes = 0;
  private readonly examSel;
  private readonly questionSel;
  private readonly rosterCount;
  private readonly attemptSel;
  private readonly layoutSel;
  private readonly activityUpd;

  constructor(private readonly sqlite: Sqlite) {
    this.examSel = sqlite.prepare('SELECT * FROM exams WHERE id = ?');
    this.questionSel = sqlite.prepare('SELECT * FROM questions WHERE exam_id = ? ORDER BY position');
    this.rosterCount = sqlite.prepare('SELECT count(*) AS n FROM roster_entries WHERE exam_id = ?');
    this.attemptSel = sqlite.prepare('SELECT * FROM attempts WHERE id = ?');
    this.layoutSel = sqlite.prepare('SELECT layout_json AS json FROM attempt_layouts WHERE attempt_id = ?');
    this.activityUpd = sqlite.prepare('UPDATE attempts SET last_seen_at = ?, last_saved_at = ? WHERE id = ?');
  }

  /** The exam's paper, built once and cached; undefined when the exam does not exist. */
  paper(examId: string): Paper | undefined {
    let p = this.papers.get(examId);
    if (!p) {
      const exam = this.examSel.get(examId) as ExamRow | undefined;
      if (!exam) return undefined;
      p = buildPaper(exam, this.questionSel.all(examId) as QuestionRow[], (this.rosterCount.get(examId) as { n: number }).n > 0);
      this.papers.set(examId, p);
    }
    return p;
  }

  /** The attempt's state (cached), or undefined when no such attempt exists. */
  attempt(attemptId: string): AttemptState | undefined {
    let a = this.attempts.get(attemptId);
    if (!a) {
      const found = this.attemptSel.get(attemptId) as AttemptRow | undefined;
      if (!found) return undefined;
      const row = cachedRow(found);
      a = { row, lastSeenAt: row.last_seen_at, lastSavedAt: row.last_saved_at, activityPending: false, listed: false, taken: 0, sebValid: null, sebCheck: null };
      this.attempts.set(attemptId, a);
    }
    return a;
  }

  /** Records a request of the attempt at `now` (epoch ms): its last-seen time, written by the next flush. */
  seen(a: AttemptState, now: number): void {
    a.lastSeenAt = now;
    this.markPending(a);
  }

  private markPending(a: AttemptState): void {
    a.activityPending = true;
    if (!a.listed) {
      a.listed = true;
      this.pendingList[this.pendingCount++] = a;
    }
  }

  /**
   * The attempt's fixed question and option order (attempt_layouts), parsed once and kept
   * for the most recent attempts; an empty layout when the attempt has none.
   */
  layout(attemptId: string): Layout {
    let l = this.layouts.get(attemptId);
    if (!l) {
      const row = this.layoutSel.get(attemptId) as { json: string } | undefined;
      l = row ? parseLayout(row.json) : [];
      this.layouts.set(attemptId, l);
    }
    return l;
  }

  /** Keeps the layout a start just stored, so its first view does not read it back. */
  rememberLayout(attemptId: string, layout: Layout): void {
    this.layouts.set(attemptId, layout);
  }

  /** Re-reads an attempt row after a write (keeps in-memory activity times). */
  reloadAttempt(attemptId: string): AttemptState | undefined {
    const prev = this.attempts.get(attemptId);
    this.attempts.delete(attemptId);
    const a = this.attempt(attemptId);
    if (a && prev) {
      a.lastSeenAt = prev.lastSeenAt;
      a.lastSavedAt = prev.lastSavedAt;
      a.taken = prev.taken;
      a.sebValid = prev.sebValid;
      a.sebCheck = prev.sebCheck;
      if (prev.activityPending) {
        prev.activityPending = false;
        this.markPending(a);
      }
    }
    return a;
  }

  /** Drops the exam's paper and its cached attempts (after any exam/question/roster change). */
  invalidateExam(examId: string): void {
    this.papers.delete(examId);
    for (const [id, a] of this.attempts.entries()) {
      if (a.row.exam_id === examId) {
        if (a.activityPending) this.persistOne(a);
        this.attempts.delete(id);
      }
    }
  }

  /** Cached attempts of an exam that are in memory (for the live monitor). */
  *cachedAttempts(): IterableIterator<AttemptState> {
    yield* this.attempts.values();
  }

  private persistOne(a: AttemptState): void {
    this.activityUpd.run(a.lastSeenAt, a.lastSavedAt, a.row.id);
    a.activityPending = false;
  }

  /**
   * Takes the last-seen / last-saved times of active attempts that changed since the last
   * call, for the answer flush to write in its job (answers/answer-commit.ts: off the event loop,
   * without waiting for the disk — a power cut may cost the last second of times).
   * @returns `rows`: the job's attempt rows (answers/answer-commit.ts ATTEMPT_FIELDS values each:
   *   attemptId, base 0, watermark -1, lastSeenAt, lastSavedAt, epoch ms), flat, which the
   *   flush takes over; `take`: this call's number, for `restoreActivity`
   */
  takeActivity(): { rows: JobValue[]; take: number } {
    const take = ++this.takes;
    const rows: JobValue[] = [];
    this.drainPending((a) => {
      a.activityPending = false;
      a.taken = take;
      rows.push(a.row.id, 0, -1, a.lastSeenAt, a.lastSavedAt);
    });
    return { rows, take };
  }

  /**
   * Marks the attempts whose times `takeActivity` call number `take` took as changed
   * again (the flush that carried them failed), so the next flush writes their times — the
   * in-memory ones, which are never older than the rows'. Walks the cached attempts: a
   * failed flush is rare, and the flush then keeps nothing of its rows.
   */
  restoreActivity(take: number): void {
    for (const a of this.attempts.values()) if (a.taken === take) this.markPending(a);
  }

  /** Empties the list, calling `each` with every attempt on it that is still pending (and still marked so). */
  private drainPending(each: (a: AttemptState) => void): void {
    const list = this.pendingList;
    for (let i = 0; i < this.pendingCount; i++) {
      const a = list[i]!;
      list[i] = undefined;
      a.listed = false;
      if (a.activityPending) each(a);
    }
    this.pendingCount = 0;
  }

  /** Writes every pending last-seen / last-saved time in one transaction (shutdown). */
  persistAllActivity(): number {
    let n = 0;
    const dirty: AttemptState[] = [];
    this.drainPending((a) => dirty.push(a));
    if (!dirty.length) return 0;
    this.sqlite.transaction(() => {
      for (const a of dirty) {
        this.persistOne(a);
        n++;
      }
    })();
    return n;
  }
}
