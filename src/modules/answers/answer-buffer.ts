/**
 * The live answer buffer (spec: "Live answers are buffered in fast in-memory storage";
 * docs/design.md §7). Saves land in an lru-cache keyed by (attempt, question); a flush writes
 * dirty entries to SQLite as one job for a writer (answer-writer.ts: a thread with its
 * own connection on the server, so the event loop only takes snapshots; bounded
 * transactions with yields in-process) so a hall of thousands never stalls requests.
 * An entry leaves the cache once it is committed: what the buffer keeps of a committed
 * answer is its question and seq (to judge replays), and reads of committed answers go to
 * the database — 150,000 clean entries held ~40 MB of a 300 MB budget (issue 8).
 * Three files: the buffer (this one: saves, reads, synchronous writes), its sequence
 * bookkeeping (answer-seq.ts: seq states and the watermark rules) and its flush policy
 * (answer-flush.ts: what a flush takes, in slices, and what it does after the commit).
 *
 * Guarantees:
 * - A dirty entry is never dropped: evicting one writes it first (synchronously).
 * - For one question a higher `seq` wins; a lower or equal seq is ignored (an offline
 *   browser replaying its queue cannot overwrite a newer answer).
 * - `durableSeq(attempt)` is a contiguous watermark: the highest N such that every seq
 *   1..N of the attempt has been received AND committed (or superseded by a committed
 *   newer answer to the same question). A seq this server never received — one the
 *   previous process accepted and lost in a crash — holds it back until the browser
 *   replays that answer, so a browser may forget exactly the answers at or below it.
 *   The watermark is stored (attempts.durable_seq) in the flush job that commits the
 *   answers, after them and before its one disk sync, so it survives restarts; with
 *   synchronous=FULL, power cuts too.
 *   One exception, after `seal()`: a seq the seal forgave (never received here) counts as
 *   settled even if the page then replays a newer answer to that seq's question which is
 *   not committed yet — the buffer never learnt the forgiven seq's question. The page
 *   keeps only its newest answer per question (web/candidate/answers.ts), and that newer
 *   one holds the watermark below it until it is committed, so no answer the page still
 *   holds is covered by durableSeq before it is on disk.
 */
import { LRUCache } from 'lru-cache';
import type { Sqlite } from '../../db/index.js';
import { commitStatements, type JobValue } from './answer-commit.js';
import { BATCH_ROWS, inProcessWriter, type AnswerWriter } from './answer-writer.js';
import { NO_COVERS, countsAsAnswered, durableOf, restoredSeqState, settle, type AnswerEntry, type AttemptSeqState } from './answer-seq.js';
import { TakenJob, runFlush, type FlushSource, type FlushStats } from './answer-flush.js';
import { snapshotOf, writeSnapshot } from './answer-write-now.js';

export type { AnswerEntry, FlushStats };

export interface AnswerBufferOptions {
  /** most entries kept in memory (clean ones are evicted first in LRU order) */
  maxEntries?: number;
  /** rows per flush transaction (in-process writer) */
  batchRows?: number;
  /** commits flush jobs; default: in-process on `sqlite` */
  writer?: AnswerWriter;
  now?: () => number;
}

const key = (attemptId: string, questionId: string) => `${attemptId}\n${questionId}`;
type Row = { questionId: string; optionId: string | null; text: string | null; seq: number };
export class AnswerBuffer implements FlushSource {
  private readonly cache: LRUCache<string, AnswerEntry>;
  /** @internal (answer-flush.ts) */
  readonly seqs = new Map<string, AttemptSeqState>();
  /** dirty answers in all (@internal: answer-flush.ts reads it) */
  dirtyTotal = 0;
  /**
   * attempts with dirty entries, in `[0, listedCount)` (what a flush walks), and possibly
   * attempts whose entries were all marked clean since (a flush drops them). Slots are
   * reused: the array never shrinks, so it allocates nothing once a hall is seated.
   * @internal (answer-flush.ts)
   */
  readonly listedStates: (AttemptSeqState | undefined)[] = [];
  /** @internal (answer-flush.ts) */
  listedCount = 0;
  private readonly upsert;
  /** @internal (answer-flush.ts) */
  readonly saveWatermark;
  private readonly selectRows;
  private readonly selectWatermark;
  private readonly lowerWatermark;
  /** @internal (answer-flush.ts) */
  readonly writer: AnswerWriter;
  /** @internal (answer-flush.ts) */
  readonly now: () => number;
  private flushing: Promise<FlushStats> | null = null;
  /** what the running flush took (one flush at a time; @internal: answer-flush.ts) */
  readonly taken = new TakenJob();
  /** flushes taken so far (`AttemptSeqState.jobStamp`; @internal: answer-flush.ts) */
  jobStamp = 0;
  /** last flush figures, for /health and the benchmark */
  lastFlush: FlushStats = { rows: 0, batches: 0, maxBatchMs: 0, totalMs: 0, loopMs: 0, activityRows: 0, writer: '' };

  /** @param sqlite the server's connection (@internal: answer-flush.ts uses it too) */
  constructor(readonly sqlite: Sqlite, opts: AnswerBufferOptions = {}) {
    this.writer = opts.writer ?? inProcessWriter(sqlite, opts.batchRows ?? BATCH_ROWS);
    this.now = opts.now ?? Date.now;
    this.upsert = commitStatements(sqlite).upsert;
    this.saveWatermark = sqlite.prepare('UPDATE attempts SET durable_seq = ? WHERE id = ? AND durable_seq < ?');
    this.selectRows = sqlite.prepare('SELECT question_id AS questionId, option_id AS optionId, text, seq FROM answers WHERE attempt_id = ?');
    this.selectWatermark = sqlite.prepare('SELECT durable_seq AS w FROM attempts WHERE id = ?');
    this.lowerWatermark = sqlite.prepare('UPDATE attempts SET durable_seq = ? WHERE id = ?');
    this.cache = new LRUCache<string, AnswerEntry>({
      max: opts.maxEntries ?? 250_000,
      // after the eviction is complete (lru-cache must not be re-entered from `dispose`)
      disposeAfter: (entry, _k, reason) => {
        if (reason === 'evict' && entry.dirty) this.writeNow([entry]);
      },
    });
  }

  /** Number of dirty (not yet durable) answers. */
  get dirtyCount(): number {
    return this.dirtyTotal;
  }

  /** Number of answers held in the cache: the dirty ones, and any in the middle of being marked clean. */
  get cachedCount(): number {
    return this.cache.size;
  }

  private seqState(attemptId: string): AttemptSeqState {
    let s = this.seqs.get(attemptId);
    if (!s) {
      // after a restart: the stored watermark, and the committed answers above it
      const rows = this.selectRows.all(attemptId) as Row[];
      const w = (this.selectWatermark.get(attemptId) as { w: number } | undefined)?.w ?? 0;
      s = restoredSeqState(attemptId, rows, w);
      this.seqs.set(attemptId, s);
    }
    return s;
  }

  /** Settles a seq superseded by a committed answer, storing the watermark before it is told. */
  private settleNow(attemptId: string, st: AttemptSeqState, seq: number): void {
    const before = st.watermark;
    settle(st, [seq]);
    if (st.watermark > before) this.saveWatermark.run(st.watermark, attemptId, st.watermark);
  }

  /**
   * Records an answer. `seq` omitted → the attempt's next seq.
   * @returns the seq used and whether it was applied (false: an equal/newer seq exists)
   */
  save(attemptId: string, questionId: string, optionId: string | null, text: string | null, seq?: number): { seq: number; applied: boolean } {
    const st = this.seqState(attemptId);
    const s = seq ?? st.lastSeq + 1;
    if (s > st.lastSeq) st.lastSeq = s;
    const k = key(attemptId, questionId);
    // the cache holds dirty entries (newer than any committed row of their question)
    let e = this.cache.get(k);
    if (e ? e.seq >= s : (st.stored.get(questionId) ?? 0) >= s) {
      // superseded on arrival: settled with the newer answer when it commits, or now if
      // the newer (or the same) answer is committed already
      if (e) {
        if (e.seq > s) {
          e.covers.push(s);
          if (s < e.lowestCover) e.lowestCover = s;
          this.holdBelow(attemptId, st, s);
        }
      } else this.settleNow(attemptId, st, s);
      return { seq: s, applied: false };
    }
    const now = this.now();
    if (!e) {
      e = { key: k, state: st, questionId, optionId, text, seq: s, updatedAt: now, dirty: true, covers: [s], lowestCover: s };
      this.track(st, e);
      this.cache.set(k, e);
    } else {
      e.optionId = optionId;
      e.text = text;
      e.seq = s;
      e.updatedAt = now;
      e.covers.push(s);
      if (s < e.lowestCover) e.lowestCover = s;
    }
    if (countsAsAnswered(optionId, text)) st.answered.add(questionId);
    else st.answered.delete(questionId);
    this.holdBelow(attemptId, st, s);
    return { seq: s, applied: true };
  }

  /**
   * A save with `seq` was refused (its question or option is not in the paper): nothing
   * will ever be stored under that seq, so it stops holding the watermark back (a client
   * that dropped a refused answer would otherwise leave a gap no replay fills). A seq
   * this attempt already holds is left alone: then the refused save reused it.
   */
  forgive(attemptId: string, seq: number): void {
    const st = this.seqState(attemptId);
    if (seq <= st.watermark || st.settled.has(seq) || [...st.stored.values()].includes(seq)) return;
    for (let i = 0; i < st.dirtyLen; i++) if (st.dirty[i]?.dirty && st.dirty[i]!.covers.includes(seq)) return;
    if (seq > st.lastSeq) st.lastSeq = seq;
    this.settleNow(attemptId, st, seq);
  }

  /** Adds a new dirty entry to its attempt's list, and the attempt to the flush's. */
  private track(st: AttemptSeqState, e: AnswerEntry): void {
    st.dirty[st.dirtyLen++] = e;
    st.dirtyCount++;
    this.dirtyTotal++;
    if (!st.listed) {
      st.listed = true;
      this.listedStates[this.listedCount++] = st;
    }
  }

  /** The attempt's dirty entries, appended to `out` (a new array by default), for the synchronous writes. */
  private dirtyOf(st: AttemptSeqState, out: AnswerEntry[] = []): AnswerEntry[] {
    for (let i = 0; i < st.dirtyLen; i++) if (st.dirty[i]!.dirty) out.push(st.dirty[i]!);
    return out;
  }

  /**
   * `s` was received but is not committed: it must not count as durable, in memory or
   * in the stored watermark. Normally s is above the watermark and this only forgets a
   * stale "settled" mark. After `seal()` a replayed answer can arrive below it; then the
   * watermark drops to s - 1 — stored at once, so a crash before the next flush cannot
   * leave a watermark on disk that claims s — and every seq it covered above s counts as
   * settled, so committing s brings the watermark straight back.
   */
  private holdBelow(attemptId: string, st: AttemptSeqState, s: number): void {
    st.settled.delete(s);
    if (s > st.watermark) return;
    for (let x = s + 1; x <= st.watermark; x++) st.settled.add(x);
    st.watermark = s - 1;
    st.lowerings++;
    this.lowerWatermark.run(st.watermark, attemptId);
  }

  /**
   * The durability watermark of the attempt (see module doc), held below any seq a
   * dirty entry still carries: after `seal()` a replayed answer can sit below the
   * watermark while it is only in memory, and the page must keep it until it is written.
   */
  durableSeq(attemptId: string): number {
    return durableOf(this.seqState(attemptId));
  }

  /** Highest seq the attempt has received (for clients continuing the counter). */
  lastSeq(attemptId: string): number {
    return this.seqState(attemptId).lastSeq;
  }

  /**
   * The current answer of each question, in the order given: a dirty entry, else the
   * committed row (one read of the attempt's rows, skipped when it has none).
   */
  answersFor(attemptId: string, questionIds: Iterable<string>): Row[] {
    const st = this.seqState(attemptId);
    const committed = st.stored.size ? new Map((this.selectRows.all(attemptId) as Row[]).map((r) => [r.questionId, r])) : null;
    const out: Row[] = [];
    for (const q of questionIds) {
      const e = this.cache.peek(key(attemptId, q));
      if (e?.dirty) out.push({ questionId: q, optionId: e.optionId, text: e.text, seq: e.seq });
      else {
        const r = committed?.get(q);
        if (r) out.push({ questionId: q, optionId: r.optionId, text: r.text, seq: r.seq });
      }
    }
    return out;
  }

  /**
   * How many questions of the attempt have a current answer that counts (an option, or
   * text not blank: answer-seq.ts `countsAsAnswered`) — the same number as counting
   * `answersFor` — kept as saves arrive, so no read of the answers: the live monitor's
   * rows. `within`: only questions it has (the paper's, or a candidate's given ones).
   * An attempt the buffer holds no state for (completed and released, or not touched
   * since a restart) is counted from its stored rows, one read, and no state is kept.
   */
  answeredCount(attemptId: string, within?: { has(questionId: string): boolean }): number {
    const answered = this.seqs.get(attemptId)?.answered;
    if (!answered) return (this.selectRows.all(attemptId) as Row[]).filter((r) => countsAsAnswered(r.optionId, r.text) && (!within || within.has(r.questionId))).length;
    if (!within) return answered.size;
    let n = 0;
    for (const q of answered) if (within.has(q)) n++;
    return n;
  }

  /** Whether the buffer holds the attempt's state (answeredCount then reads nothing). */
  holds(attemptId: string): boolean {
    return this.seqs.has(attemptId);
  }

  /**
   * Writes the attempt's dirty answers now, in the caller's transaction if there is one
   * (submit uses this so grading sees every answer).
   */
  flushAttempt(attemptId: string): void {
    const st = this.seqs.get(attemptId);
    if (!st || st.dirtyCount === 0) return;
    this.writeNow(this.dirtyOf(st));
  }

  /**
   * A candidate resumed on a (possibly new) device: everything received is written, and
   * seqs never received (lost with a device that is gone) stop holding the watermark back.
   * @returns the new watermark (= the highest seq received)
   */
  seal(attemptId: string): number {
    this.flushAttempt(attemptId);
    const st = this.seqState(attemptId);
    st.watermark = Math.max(st.watermark, st.lastSeq);
    st.settled.clear();
    this.saveWatermark.run(st.watermark, attemptId, st.watermark);
    return st.watermark;
  }

  /**
   * Forgets a completed attempt's seq state (its answers are in the database); kept while
   * it has dirty answers (finalize flushes first, so that does not happen there).
   */
  release(attemptId: string): void {
    const st = this.seqs.get(attemptId);
    if (st && st.dirtyCount === 0) this.seqs.delete(attemptId);
  }

  /**
   * After the commit of `entries` (each at the seq in `seqs`) is on disk: entries clean
   * and out of the cache, their seqs settled — with the seqs an entry took over while the
   * commit was in flight (replays its committed answer supersedes), which the same commit
   * settles.
   */
  /** @internal (answer-flush.ts) */
  markClean(entries: readonly (AnswerEntry | undefined)[], seqs: readonly number[], from = 0, to = entries.length): void {
    for (let i = from; i < to; i++) {
      const e = entries[i]!;
      const s = seqs[i]!;
      if (!e.dirty) continue; // written already (eviction, submit, seal)
      const st = e.state;
      if ((st.stored.get(e.questionId) ?? 0) < s) st.stored.set(e.questionId, s);
      if (e.seq !== s) continue; // changed meanwhile: still dirty, its newer seq not yet written
      const covers = e.covers;
      e.dirty = false;
      e.covers = NO_COVERS;
      if (this.cache.peek(e.key) === e) this.cache.delete(e.key);
      this.dirtyTotal--;
      // the entry stays in st.dirty until the next flush compacts the list, unless it was
      // the last (the slots are kept, not the entries: a batch of 60 per attempt would
      // otherwise keep them alive)
      if (--st.dirtyCount === 0) {
        st.dirty.fill(undefined, 0, st.dirtyLen);
        st.dirtyLen = 0;
      }
      settle(st, covers);
    }
  }

  /**
   * Writes entries now in ONE transaction on the server's connection, with the watermarks
   * they produce (answer-write-now.ts), then marks them clean and settles their seqs.
   */
  private writeNow(entries: AnswerEntry[]): void {
    const snap = entries.map(snapshotOf);
    writeSnapshot(this.sqlite, this.upsert, this.saveWatermark, snap);
    this.markClean(
      snap.map(([e]) => e),
      snap.map(([, s]) => s),
    );
  }

  /**
   * Flushes every dirty answer, with the watermarks they produce and the given activity
   * times, as one job for the writer (answer-commit.ts: bounded transactions, one disk
   * sync at the end; on the writer thread when there is one). Only when the job resolved
   * are the entries marked clean and `durableSeq` advanced; if it fails they stay dirty
   * and the next flush writes them again. A call while a flush runs shares that run —
   * or, when it brings activity rows (which the running job does not carry), runs after
   * it with them.
   * @param activity last-seen/last-saved times to write in the same job: attempt rows of
   *   the job (answer-commit.ts, ATTEMPT_FIELDS values each) with base 0 and watermark -1
   *   (SessionCache.takeActivity). The flush adds the attempts' watermarks to them and
   *   posts the array itself as the job's attempt rows: it is not the caller's any more.
   * @returns the figures (also kept in `lastFlush`)
   * @throws the writer's database error (entries stay dirty; the caller restores the
   *   activity it took)
   */
  flush(activity: JobValue[] = []): Promise<FlushStats> {
    if (this.flushing) {
      if (!activity.length) return this.flushing;
      return this.flushing.catch(() => undefined).then(() => this.flush(activity));
    }
    this.flushing = runFlush(this, activity).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Waits for a flush in progress and releases the writer (shutdown; flushAllSync after). */
  async close(): Promise<void> {
    await this.flushing?.catch(() => undefined);
    await this.writer.close();
  }

  /** Synchronous full flush for shutdown: one transaction for everything left. */
  flushAllSync(): number {
    const entries: AnswerEntry[] = [];
    for (let i = 0; i < this.listedCount; i++) this.dirtyOf(this.listedStates[i]!, entries);
    if (entries.length) this.writeNow(entries);
    return entries.length;
  }
}
