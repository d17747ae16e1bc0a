/**
 * The live answer buffer (spec: "Live answers are buffered in fast in-memory storage";
 * DESIGN §7). Saves land in an lru-cache keyed by (attempt, question); a flush writes
 * dirty entries to SQLite as one job for a writer (answer-writer.ts: a thread with its
 * own connection on the server, so the event loop only takes snapshots; bounded
 * transactions with yields in-process) so a hall of thousands never stalls requests.
 * An entry leaves the cache once it is committed: what the buffer keeps of a committed
 * answer is its question and seq (to judge replays), and reads of committed answers go to
 * the database — 150,000 clean entries held ~40 MB of a 300 MB budget (issue 8).
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
import { relaxedSync } from '../../db/relaxed-sync.js';
import { ATTEMPT_FIELDS, commitStatements, type FlushJob, type JobValue } from './answer-commit.js';
import { BATCH_ROWS, inProcessWriter, nextTurn, type AnswerWriter } from './answer-writer.js';

export interface AnswerEntry {
  /** the cache key (attempt + question), kept so marking the entry clean builds no string */
  key: string;
  /** its attempt's seq state: a dirty entry always belongs to the attempt's current one
   * (`release` keeps a state that has dirty entries) */
  state: AttemptSeqState;
  questionId: string;
  optionId: string | null;
  text: string | null;
  seq: number;
  updatedAt: number;
  dirty: boolean;
  /** seqs this entry settles once committed: its own and those it superseded while dirty */
  covers: number[];
  /** the smallest seq in `covers` (what durableSeq checks, per save, instead of all of them) */
  lowestCover: number;
}

interface AttemptSeqState {
  /** the attempt's id (the key of `AnswerBuffer.seqs`) */
  attemptId: string;
  /** highest seq received (applied or ignored as stale) */
  lastSeq: number;
  /** contiguous durability watermark (see module doc) */
  watermark: number;
  /** settled seqs above the watermark, waiting for the gap below them to close */
  settled: Set<number>;
  /**
   * the attempt's dirty entries in `[0, dirtyLen)`, in the order they became dirty, and
   * possibly entries marked clean since (skipped; a flush compacts the list when it takes
   * its job). An array with reused slots, not a set: a set that empties and fills again
   * every second allocated a new hash table each time, and those tables lived long
   * enough to be promoted to the old generation (issue 8, GC)
   */
  dirty: (AnswerEntry | undefined)[];
  dirtyLen: number;
  /** how many entries in `dirty` are dirty */
  dirtyCount: number;
  /** whether the state is in the buffer's list of attempts with dirty entries */
  listed: boolean;
  /** the flush (its number) in whose job the attempt has an activity row, at `jobRow` */
  jobStamp: number;
  jobRow: number;
  /**
   * question → seq of its committed row (only this buffer writes answers): a save is
   * judged against it without a database read, and an attempt with no committed row
   * needs no read to list its answers
   */
  stored: Map<string, number>;
  /** times the stored watermark was lowered (holdBelow): a flush job taken before a
   * lowering must not repair the stored watermark upwards */
  lowerings: number;
}

export interface FlushStats {
  /** answers written */
  rows: number;
  /** transactions committed */
  batches: number;
  /** longest single transaction, ms, on the writer's thread */
  maxBatchMs: number;
  /** from taking the snapshot to marking it clean, ms (wall time) */
  totalMs: number;
  /** longest time the flush held the event loop at a stretch, ms: a slice of the
   * snapshot (with the job's clone for the thread) or of marking clean, or — with the
   * in-process writer — a transaction */
  loopMs: number;
  /** last-seen / last-saved rows written in the same job */
  activityRows: number;
  /** 'thread' or 'in-process' */
  writer: string;
}

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
/** entries a flush snapshots (and marks clean, and attempts it checks) per turn of the
 * event loop: ≈ 0.5–1 ms with a hall of 10,000 saving (512 held it 1–3 ms there) */
const SLICE = 256;
/** the covers of every clean entry (frozen: only a dirty entry's own array grows) */
const NO_COVERS = Object.freeze([]) as unknown as number[];

/** An entry with the seq and covered seqs it had when a write took it (eviction, submit, seal). */
type Snapshot = readonly [AnswerEntry, number, number[]];
/**
 * What a flush job took, for after its commit: flat arrays, not an object per entry, and
 * one set of them for every flush (flushes run one at a time), so they are not garbage
 * that lived through a flush — long enough to be promoted (issue 8, GC).
 */
class TakenJob {
  /** the entries in `[0, entryCount)`, each with the seq it had when taken */
  readonly entries: (AnswerEntry | undefined)[] = [];
  readonly seqs: number[] = [];
  entryCount = 0;
  /** per attempt in the job, in `[0, attemptCount)`: its id, its lowerings when taken and
   * the watermark the job stores (or finds) */
  readonly attemptIds: (string | undefined)[] = [];
  readonly lowerings: number[] = [];
  readonly watermarks: number[] = [];
  attemptCount = 0;

  addEntry(e: AnswerEntry): void {
    this.entries[this.entryCount] = e;
    this.seqs[this.entryCount++] = e.seq;
  }

  addAttempt(attemptId: string, lowerings: number, watermark: number): void {
    this.attemptIds[this.attemptCount] = attemptId;
    this.lowerings[this.attemptCount] = lowerings;
    this.watermarks[this.attemptCount++] = watermark;
  }

  /** Empties it, keeping the slots but not the entries. */
  clear(): void {
    this.entries.fill(undefined, 0, this.entryCount);
    this.attemptIds.fill(undefined, 0, this.attemptCount);
    this.entryCount = this.attemptCount = 0;
  }
}
/** the activity rows a flush no longer holds once its job is built */
const NO_ACTIVITY: JobValue[] = [];

/** The watermark after settling `seqs` (pure: nothing is changed). */
function advance(watermark: number, settled: Set<number>, seqs: number[]): number {
  let w = watermark;
  if (seqs.length > 16) {
    // one question saved over and over within a flush (an essay's autosave) covers many seqs
    const all = new Set(seqs);
    while (settled.has(w + 1) || all.has(w + 1)) w++;
  } else while (settled.has(w + 1) || seqs.includes(w + 1)) w++;
  return w;
}

export class AnswerBuffer {
  private readonly cache: LRUCache<string, AnswerEntry>;
  private readonly seqs = new Map<string, AttemptSeqState>();
  /** dirty answers in all */
  private dirtyTotal = 0;
  /**
   * attempts with dirty entries, in `[0, listedCount)` (what a flush walks), and possibly
   * attempts whose entries were all marked clean since (a flush drops them). Slots are
   * reused: the array never shrinks, so it allocates nothing once a hall is seated.
   */
  private readonly listedStates: (AttemptSeqState | undefined)[] = [];
  private listedCount = 0;
  private readonly upsert;
  private readonly saveWatermark;
  private readonly selectRows;
  private readonly selectWatermark;
  private readonly lowerWatermark;
  private readonly writer: AnswerWriter;
  private readonly now: () => number;
  private flushing: Promise<FlushStats> | null = null;
  /** what the running flush took (one flush at a time) */
  private readonly taken = new TakenJob();
  /** flushes taken so far (`AttemptSeqState.jobStamp`) */
  private jobStamp = 0;
  /** last flush figures, for /health and the benchmark */
  lastFlush: FlushStats = { rows: 0, batches: 0, maxBatchMs: 0, totalMs: 0, loopMs: 0, activityRows: 0, writer: '' };

  constructor(private readonly sqlite: Sqlite, opts: AnswerBufferOptions = {}) {
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
      const rows = this.selectRows.all(attemptId) as { questionId: string; seq: number }[];
      let w = (this.selectWatermark.get(attemptId) as { w: number } | undefined)?.w ?? 0;
      const settled = new Set<number>();
      const stored = new Map<string, number>();
      let last = w;
      for (const r of rows) {
        stored.set(r.questionId, r.seq);
        if (r.seq > w) settled.add(r.seq);
        if (r.seq > last) last = r.seq;
      }
      w = advance(w, settled, []);
      for (const x of [...settled]) if (x <= w) settled.delete(x);
      s = { attemptId, lastSeq: last, watermark: w, settled, dirty: [], dirtyLen: 0, dirtyCount: 0, listed: false, jobStamp: 0, jobRow: 0, stored, lowerings: 0 };
      this.seqs.set(attemptId, s);
    }
    return s;
  }

  private settle(st: AttemptSeqState, seqs: number[]): void {
    for (const s of seqs) {
      // the common case, the seq right above the watermark, moves it without the set
      // (which never holds watermark + 1 between calls)
      if (s === st.watermark + 1) st.watermark = s;
      else if (s > st.watermark) st.settled.add(s);
    }
    while (st.settled.size && st.settled.has(st.watermark + 1)) st.settled.delete(++st.watermark);
  }

  /** Settles a seq superseded by a committed answer, storing the watermark before it is told. */
  private settleNow(attemptId: string, st: AttemptSeqState, seq: number): void {
    const before = st.watermark;
    this.settle(st, [seq]);
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
    return this.durableOf(this.seqState(attemptId));
  }

  private durableOf(st: AttemptSeqState): number {
    let w = st.watermark;
    const list = st.dirty;
    for (let i = 0; i < st.dirtyLen; i++) {
      const e = list[i]!;
      if (e.dirty && e.lowestCover <= w) w = e.lowestCover - 1;
    }
    return w;
  }

  /** Highest seq the attempt has received (for clients continuing the counter). */
  lastSeq(attemptId: string): number {
    return this.seqState(attemptId).lastSeq;
  }

  /**
   * The current answer of each question, in the order given: a dirty entry, else the
   * committed row (one read of the attempt's rows, skipped when it has none).
   */
  answersFor(attemptId: string, questionIds: Iterable<string>): { questionId: string; optionId: string | null; text: string | null; seq: number }[] {
    type Row = { questionId: string; optionId: string | null; text: string | null; seq: number };
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
   * Writes a snapshot of entries in ONE transaction on the server's connection, together
   * with the watermarks they produce, then marks them clean and settles their seqs (an
   * eviction, a submit, a seal: the caller needs them written before it goes on).
   */
  private writeBatch(snap: Snapshot[]): void {
    // a dirty entry's state is its attempt's current one (see AnswerEntry.state)
    const byAttempt = new Map<AttemptSeqState, number[]>();
    for (const [e, s, covers] of snap) {
      if (e.seq !== s) continue;
      const list = byAttempt.get(e.state);
      if (list) list.push(...covers);
      else byAttempt.set(e.state, [...covers]);
    }
    this.sqlite.transaction(() => {
      for (const [e, s] of snap) if (e.seq === s) this.upsert.run(e.state.attemptId, e.questionId, e.optionId, e.text, e.seq, e.updatedAt);
      for (const [st, covers] of byAttempt) {
        const w = advance(st.watermark, st.settled, covers);
        if (w > st.watermark) this.saveWatermark.run(w, st.attemptId, w);
      }
    })();
    this.markClean(
      snap.map(([e]) => e),
      snap.map(([, s]) => s),
    );
  }

  /**
   * After the commit of `entries` (each at the seq in `seqs`) is on disk: entries clean
   * and out of the cache, their seqs settled — with the seqs an entry took over while the
   * commit was in flight (replays its committed answer supersedes), which the same commit
   * settles.
   */
  private markClean(entries: readonly (AnswerEntry | undefined)[], seqs: readonly number[], from = 0, to = entries.length): void {
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
      this.settle(st, covers);
    }
  }

  private snapshot(e: AnswerEntry): Snapshot {
    return [e, e.seq, e.covers.slice()] as const;
  }

  private writeNow(entries: AnswerEntry[]): void {
    this.writeBatch(entries.map((e) => this.snapshot(e)));
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
    this.flushing = this.runFlush(activity).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Waits for a flush in progress and releases the writer (shutdown; flushAllSync after). */
  async close(): Promise<void> {
    await this.flushing?.catch(() => undefined);
    await this.writer.close();
  }

  private async runFlush(activity: JobValue[]): Promise<FlushStats> {
    const t0 = performance.now();
    const writer = this.writer.kind;
    const activityRows = activity.length / ATTEMPT_FIELDS;
    if (this.dirtyTotal === 0 && activityRows === 0) return (this.lastFlush = { rows: 0, batches: 0, maxBatchMs: 0, totalMs: 0, loopMs: 0, activityRows: 0, writer });
    // the event loop is held in slices of ≤ SLICE entries, with a turn for requests between
    let loopMs = 0;
    let slice = performance.now();
    const breathe = async () => {
      loopMs = Math.max(loopMs, performance.now() - slice);
      await nextTurn();
      slice = performance.now();
    };
    const taken = this.taken;
    try {
      const job = this.takeJob(activity, taken, breathe);
      // The job's rows (and the activity rows) are garbage once posted: nothing here keeps
      // them while the writer works (~0.3 s in a hall of 10,000), so they die young instead
      // of being promoted to the old generation with every flush (issue 8, GC).
      activity = NO_ACTIVITY;
      // the job's first part is cloned for the thread inside the slice; later parts in later
      // turns, the longest of them reported as postMs (answer-writer.ts)
      const pending = this.writer.write(await job);
      if (writer === 'thread') loopMs = Math.max(loopMs, performance.now() - slice);
      const report = await pending;
      loopMs = Math.max(loopMs, report.postMs ?? 0);
      slice = performance.now();
      const { entries, seqs, entryCount } = taken;
      for (let i = 0; i < entryCount; i += SLICE) {
        if (i > 0) await breathe();
        this.markClean(entries, seqs, i, Math.min(i + SLICE, entryCount));
      }
      await this.repairWatermarks(taken, new Set(report.skipped), breathe);
      loopMs = Math.max(loopMs, performance.now() - slice);
      if (writer === 'in-process') loopMs = Math.max(loopMs, report.maxBatchMs);
      return (this.lastFlush = { rows: entryCount, batches: report.batches, maxBatchMs: report.maxBatchMs, totalMs: performance.now() - t0, loopMs, activityRows, writer });
    } finally {
      taken.clear();
    }
  }

  /**
   * Builds a flush job of every dirty answer, the watermarks they produce and `activity`
   * (which becomes the job's attempt rows), SLICE entries per turn of the event loop, and
   * records in `taken` what marking clean and the watermark check need after it (kept
   * apart, so the job's rows can die young).
   */
  private async takeJob(activity: JobValue[], taken: TakenJob, breathe: () => Promise<void>): Promise<FlushJob> {
    const answers: JobValue[] = [];
    // one row per attempt: its watermark (if it moves) and its activity times (if any);
    // an attempt's activity row is found through its seq state, marked with this job
    const attempts = activity;
    const stamp = ++this.jobStamp;
    for (let r = 0; r < attempts.length; r += ATTEMPT_FIELDS) {
      const st = this.seqs.get(attempts[r] as string);
      if (st) {
        st.jobStamp = stamp;
        st.jobRow = r;
      }
    }
    let inSlice = 0;
    // the attempts listed now; saves in the turns between slices list more after them
    const states = this.listedStates;
    const listed = this.listedCount;
    let kept = 0;
    for (let i = 0; i < listed; i++) {
      const st = states[i]!;
      if (st.dirtyCount === 0) {
        // every entry was marked clean since it was listed
        st.listed = false;
        continue;
      }
      states[kept++] = st;
      const attemptId = st.attemptId;
      // the seqs the attempt's entries cover (one entry's own list, unchanged, when it has one)
      let covers: number[] = NO_COVERS;
      const list = st.dirty;
      let live = 0;
      for (let j = 0; j < st.dirtyLen; j++) {
        const e = list[j]!;
        if (!e.dirty) continue;
        list[live++] = e;
        taken.addEntry(e);
        answers.push(attemptId, e.questionId, e.optionId, e.text, e.seq, e.updatedAt);
        if (st.dirtyCount === 1) covers = e.covers;
        else {
          if (covers === NO_COVERS) covers = [];
          for (const c of e.covers) covers.push(c);
        }
      }
      list.fill(undefined, live, st.dirtyLen);
      st.dirtyLen = live;
      const w = advance(st.watermark, st.settled, covers);
      if (w > st.watermark) {
        if (st.jobStamp === stamp) {
          attempts[st.jobRow + 1] = st.watermark;
          attempts[st.jobRow + 2] = w;
        } else attempts.push(attemptId, st.watermark, w, null, null);
      }
      taken.addAttempt(attemptId, st.lowerings, w);
      inSlice += live;
      if (inSlice >= SLICE) {
        inSlice = 0;
        await breathe();
      }
    }
    // the attempts listed meanwhile move down behind the ones kept
    const end = this.listedCount;
    for (let i = listed; i < end; i++) states[kept++] = states[i];
    states.fill(undefined, kept, end);
    this.listedCount = kept;
    return { answers, attempts, at: this.now() };
  }

  /**
   * After a job: where the stored watermark of an attempt may be below what the buffer
   * now knows is durable — the job's guarded row was skipped, or seqs settled while the
   * job was in flight carried the watermark further — store the buffer's value. It is a
   * lower bound either way, and never stored where a lowering happened after the job was
   * taken (holdBelow stored the lower value; the next flush raises it). Rare: no sync.
   * Checks SLICE attempts per turn of the event loop: each check and its write happen in
   * one turn, so what a request changes in between is seen by the next check.
   */
  private async repairWatermarks(taken: TakenJob, skipped: Set<string>, breathe: () => Promise<void>): Promise<void> {
    const { attemptIds, lowerings, watermarks, attemptCount } = taken;
    for (let i = 0; i < attemptCount; i++) {
      if (i > 0 && i % SLICE === 0) await breathe();
      const attemptId = attemptIds[i]!;
      const w = watermarks[i]!;
      const st = this.seqs.get(attemptId);
      if (!st || st.lowerings !== lowerings[i]) continue;
      const now = this.durableOf(st);
      if (skipped.has(attemptId) || now > w) relaxedSync(this.sqlite, () => this.saveWatermark.run(now, attemptId, now));
    }
  }

  /** Synchronous full flush for shutdown: one transaction for everything left. */
  flushAllSync(): number {
    const entries: AnswerEntry[] = [];
    for (let i = 0; i < this.listedCount; i++) this.dirtyOf(this.listedStates[i]!, entries);
    if (entries.length) this.writeNow(entries);
    return entries.length;
  }
}
