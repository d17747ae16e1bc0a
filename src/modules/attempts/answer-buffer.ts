/**
 * The live answer buffer (spec: "Live answers are buffered in fast in-memory storage";
 * DESIGN §7). Saves land in an lru-cache keyed by (attempt, question); a flush writes
 * dirty entries to SQLite in bounded transactions (≤ `batchRows` rows each, yielding to
 * the event loop between them) so a hall of thousands never stalls requests.
 *
 * Guarantees:
 * - A dirty entry is never dropped: evicting one writes it first (synchronously).
 * - For one question a higher `seq` wins; a lower or equal seq is ignored (an offline
 *   browser replaying its queue cannot overwrite a newer answer).
 * - `durableSeq(attempt)` is the highest seq N such that every answer of the attempt
 *   with seq ≤ N is committed (or superseded by a newer answer): answers still dirty or
 *   being flushed hold it below their seq. With synchronous=FULL a commit survives a
 *   power cut, so the candidate page may forget answers at or below durableSeq.
 */
import { LRUCache } from 'lru-cache';
import type { Sqlite } from '../../db/index.js';

export interface AnswerEntry {
  attemptId: string;
  questionId: string;
  optionId: string | null;
  text: string | null;
  seq: number;
  updatedAt: number;
  dirty: boolean;
}

interface AttemptSeqState {
  /** highest seq accepted (applied or ignored as stale) */
  lastSeq: number;
  /** dirty entries of this attempt (not yet committed) */
  dirty: Set<AnswerEntry>;
}

export interface FlushStats {
  rows: number;
  batches: number;
  /** longest single transaction, ms */
  maxBatchMs: number;
  totalMs: number;
}

export interface AnswerBufferOptions {
  /** most entries kept in memory (clean ones are evicted first in LRU order) */
  maxEntries?: number;
  /** rows per flush transaction */
  batchRows?: number;
  now?: () => number;
}

const key = (attemptId: string, questionId: string) => `${attemptId}\n${questionId}`;

export class AnswerBuffer {
  private readonly cache: LRUCache<string, AnswerEntry>;
  private readonly seqs = new Map<string, AttemptSeqState>();
  private readonly dirtyAll = new Set<AnswerEntry>();
  private readonly upsert;
  private readonly selectOne;
  private readonly selectMaxSeq;
  private readonly batchRows: number;
  private readonly now: () => number;
  private flushing: Promise<FlushStats> | null = null;
  /** last flush figures, for /health and the benchmark */
  lastFlush: FlushStats = { rows: 0, batches: 0, maxBatchMs: 0, totalMs: 0 };

  constructor(private readonly sqlite: Sqlite, opts: AnswerBufferOptions = {}) {
    this.batchRows = opts.batchRows ?? 400;
    this.now = opts.now ?? Date.now;
    this.upsert = sqlite.prepare(
      `INSERT INTO answers (attempt_id, question_id, option_id, text, seq, updated_at) VALUES (?,?,?,?,?,?)
       ON CONFLICT (attempt_id, question_id) DO UPDATE SET option_id = excluded.option_id, text = excluded.text, seq = excluded.seq, updated_at = excluded.updated_at
       WHERE excluded.seq > answers.seq`,
    );
    this.selectOne = sqlite.prepare('SELECT option_id AS optionId, text, seq, updated_at AS updatedAt FROM answers WHERE attempt_id = ? AND question_id = ?');
    this.selectMaxSeq = sqlite.prepare('SELECT coalesce(max(seq), 0) AS s FROM answers WHERE attempt_id = ?');
    this.cache = new LRUCache<string, AnswerEntry>({
      max: opts.maxEntries ?? 250_000,
      dispose: (entry, _k, reason) => {
        if (reason === 'evict' && entry.dirty) this.writeNow([entry]);
      },
    });
  }

  /** Number of dirty (not yet durable) answers. */
  get dirtyCount(): number {
    return this.dirtyAll.size;
  }

  private seqState(attemptId: string): AttemptSeqState {
    let s = this.seqs.get(attemptId);
    if (!s) {
      s = { lastSeq: (this.selectMaxSeq.get(attemptId) as { s: number }).s, dirty: new Set() };
      this.seqs.set(attemptId, s);
    }
    return s;
  }

  private lookup(attemptId: string, questionId: string): AnswerEntry | undefined {
    const k = key(attemptId, questionId);
    let e = this.cache.get(k);
    if (!e) {
      const row = this.selectOne.get(attemptId, questionId) as { optionId: string | null; text: string | null; seq: number; updatedAt: number } | undefined;
      if (row) {
        e = { attemptId, questionId, ...row, dirty: false };
        this.cache.set(k, e);
      }
    }
    return e;
  }

  /**
   * Records an answer. `seq` omitted → the attempt's next seq.
   * @returns the seq used and whether it was applied (false: an equal/newer seq exists)
   */
  save(attemptId: string, questionId: string, optionId: string | null, text: string | null, seq?: number): { seq: number; applied: boolean } {
    const st = this.seqState(attemptId);
    const s = seq ?? st.lastSeq + 1;
    if (s > st.lastSeq) st.lastSeq = s;
    const cur = this.lookup(attemptId, questionId);
    if (cur && cur.seq >= s) return { seq: s, applied: false };
    const now = this.now();
    let e = cur;
    if (!e) {
      e = { attemptId, questionId, optionId, text, seq: s, updatedAt: now, dirty: true };
      this.cache.set(key(attemptId, questionId), e);
    } else {
      e.optionId = optionId;
      e.text = text;
      e.seq = s;
      e.updatedAt = now;
      e.dirty = true;
    }
    st.dirty.add(e);
    this.dirtyAll.add(e);
    return { seq: s, applied: true };
  }

  /** Highest seq up to which every answer of the attempt is durable (see module doc). */
  durableSeq(attemptId: string): number {
    const st = this.seqState(attemptId);
    if (st.dirty.size === 0) return st.lastSeq;
    let min = Infinity;
    for (const e of st.dirty) if (e.seq < min) min = e.seq;
    return min - 1;
  }

  /** Highest seq the attempt has used (for clients continuing the counter). */
  lastSeq(attemptId: string): number {
    return this.seqState(attemptId).lastSeq;
  }

  /** The current answer of each question (buffer over database). */
  answersFor(attemptId: string, questionIds: Iterable<string>): { questionId: string; optionId: string | null; text: string | null; seq: number }[] {
    const out = [];
    for (const q of questionIds) {
      const e = this.lookup(attemptId, q);
      if (e) out.push({ questionId: q, optionId: e.optionId, text: e.text, seq: e.seq });
    }
    return out;
  }

  /**
   * Writes the attempt's dirty answers now, in the caller's transaction if there is one
   * (submit uses this so grading sees every answer).
   */
  flushAttempt(attemptId: string): void {
    const st = this.seqs.get(attemptId);
    if (!st || st.dirty.size === 0) return;
    const entries = [...st.dirty];
    for (const e of entries) this.upsert.run(e.attemptId, e.questionId, e.optionId, e.text, e.seq, e.updatedAt);
    for (const e of entries) this.markClean(e, e.seq);
  }

  /** Forgets an attempt's seq state (after it completes; answers stay in the database). */
  release(attemptId: string): void {
    const st = this.seqs.get(attemptId);
    if (st && st.dirty.size === 0) this.seqs.delete(attemptId);
  }

  private markClean(e: AnswerEntry, seqWritten: number): void {
    if (e.seq !== seqWritten) return; // changed while being written: still dirty
    e.dirty = false;
    this.dirtyAll.delete(e);
    this.seqs.get(e.attemptId)?.dirty.delete(e);
  }

  private writeNow(entries: AnswerEntry[]): void {
    const snap = entries.map((e) => [e, e.seq] as const);
    this.sqlite.transaction(() => {
      for (const [e] of snap) this.upsert.run(e.attemptId, e.questionId, e.optionId, e.text, e.seq, e.updatedAt);
    })();
    for (const [e, s] of snap) this.markClean(e, s);
  }

  /**
   * Flushes every dirty answer in bounded transactions, yielding between them.
   * Entries of one attempt go in the same batch where possible. Concurrent calls share
   * one run. Resolves with the run's figures.
   */
  flush(): Promise<FlushStats> {
    if (this.flushing) return this.flushing;
    this.flushing = this.runFlush().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async runFlush(): Promise<FlushStats> {
    const t0 = performance.now();
    const stats: FlushStats = { rows: 0, batches: 0, maxBatchMs: 0, totalMs: 0 };
    if (this.dirtyAll.size === 0) return (this.lastFlush = stats);
    // group by attempt: entries arrive per attempt, and the set keeps insertion order
    const byAttempt = new Map<string, AnswerEntry[]>();
    for (const e of this.dirtyAll) {
      const list = byAttempt.get(e.attemptId);
      if (list) list.push(e);
      else byAttempt.set(e.attemptId, [e]);
    }
    let batch: (readonly [AnswerEntry, number])[] = [];
    const run = () => {
      const b0 = performance.now();
      const snap = batch;
      batch = [];
      this.sqlite.transaction(() => {
        for (const [e, s] of snap) {
          if (e.seq === s) this.upsert.run(e.attemptId, e.questionId, e.optionId, e.text, e.seq, e.updatedAt);
        }
      })();
      for (const [e, s] of snap) this.markClean(e, s);
      const ms = performance.now() - b0;
      stats.rows += snap.length;
      stats.batches++;
      if (ms > stats.maxBatchMs) stats.maxBatchMs = ms;
    };
    for (const list of byAttempt.values()) {
      for (const e of list) if (e.dirty) batch.push([e, e.seq] as const);
      if (batch.length >= this.batchRows) {
        run();
        await new Promise<void>((r) => setImmediate(r));
      }
    }
    if (batch.length) run();
    stats.totalMs = performance.now() - t0;
    return (this.lastFlush = stats);
  }

  /** Synchronous full flush for shutdown: one transaction for everything left. */
  flushAllSync(): number {
    const entries = [...this.dirtyAll];
    if (entries.length) this.writeNow(entries);
    return entries.length;
  }
}
