/**
 * The answer buffer's flush policy: what one flush takes (every dirty answer, the
 * watermarks they produce, the activity rows), in slices of SLICE entries per turn of the
 * event loop; handing the job to the writer; marking clean after the commit; and
 * repairing stored watermarks the job could not move. AnswerBuffer.flush runs it, one
 * flush at a time.
 */
import { relaxedSync } from '../../db/relaxed-sync.js';
import { ATTEMPT_FIELDS, type FlushJob, type JobValue } from './answer-commit.js';
import { nextTurn, type AnswerWriter } from './answer-writer.js';
import { NO_COVERS, advance, durableOf, type AnswerEntry, type AttemptSeqState } from './answer-seq.js';
import type { Sqlite } from '../../db/index.js';

/**
 * The part of the answer buffer a flush reads and marks (AnswerBuffer implements it): its
 * per-attempt seq states, the list of attempts with dirty entries, the job it took, and
 * the statement that stores a watermark. Declared here, by the flush that needs it, so
 * the flush does not import the buffer that runs it.
 */
export interface FlushSource {
  readonly sqlite: Sqlite;
  readonly writer: AnswerWriter;
  readonly now: () => number;
  readonly seqs: Map<string, AttemptSeqState>;
  dirtyTotal: number;
  readonly listedStates: (AttemptSeqState | undefined)[];
  listedCount: number;
  readonly saveWatermark: { run(durableSeq: number, attemptId: string, below: number): unknown };
  readonly taken: TakenJob;
  jobStamp: number;
  lastFlush: FlushStats;
  markClean(entries: readonly (AnswerEntry | undefined)[], seqs: readonly number[], from?: number, to?: number): void;
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

/** entries a flush snapshots (and marks clean, and attempts it checks) per turn of the
 * event loop: ≈ 0.5–1 ms with a hall of 10,000 saving (512 held it 1–3 ms there) */
const SLICE = 256;

/**
 * What a flush job took, for after its commit: flat arrays, not an object per entry, and
 * one set of them for every flush (flushes run one at a time), so they are not garbage
 * that lived through a flush — long enough to be promoted (issue 8, GC).
 */
export class TakenJob {
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

/**
 * One flush (AnswerBuffer.flush): takes the job, has the writer commit it, then marks
 * the entries clean and repairs watermarks, holding the event loop in slices.
 */
export async function runFlush(buf: FlushSource, activity: JobValue[]): Promise<FlushStats> {
  const t0 = performance.now();
  const writer = buf.writer.kind;
  const activityRows = activity.length / ATTEMPT_FIELDS;
  if (buf.dirtyTotal === 0 && activityRows === 0) return (buf.lastFlush = { rows: 0, batches: 0, maxBatchMs: 0, totalMs: 0, loopMs: 0, activityRows: 0, writer });
  // the event loop is held in slices of ≤ SLICE entries, with a turn for requests between
  let loopMs = 0;
  let slice = performance.now();
  const breathe = async () => {
    loopMs = Math.max(loopMs, performance.now() - slice);
    await nextTurn();
    slice = performance.now();
  };
  const taken = buf.taken;
  try {
    const job = takeJob(buf, activity, taken, breathe);
    // The job's rows (and the activity rows) are garbage once posted: nothing here keeps
    // them while the writer works (~0.3 s in a hall of 10,000), so they die young instead
    // of being promoted to the old generation with every flush (issue 8, GC).
    activity = NO_ACTIVITY;
    // the job's first part is cloned for the thread inside the slice; later parts in later
    // turns, the longest of them reported as postMs (answer-writer.ts)
    const pending = buf.writer.write(await job);
    if (writer === 'thread') loopMs = Math.max(loopMs, performance.now() - slice);
    const report = await pending;
    loopMs = Math.max(loopMs, report.postMs ?? 0);
    slice = performance.now();
    const { entries, seqs, entryCount } = taken;
    for (let i = 0; i < entryCount; i += SLICE) {
      if (i > 0) await breathe();
      buf.markClean(entries, seqs, i, Math.min(i + SLICE, entryCount));
    }
    await repairWatermarks(buf, taken, new Set(report.skipped), breathe);
    loopMs = Math.max(loopMs, performance.now() - slice);
    if (writer === 'in-process') loopMs = Math.max(loopMs, report.maxBatchMs);
    return (buf.lastFlush = { rows: entryCount, batches: report.batches, maxBatchMs: report.maxBatchMs, totalMs: performance.now() - t0, loopMs, activityRows, writer });
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
async function takeJob(buf: FlushSource, activity: JobValue[], taken: TakenJob, breathe: () => Promise<void>): Promise<FlushJob> {
  const answers: JobValue[] = [];
  // one row per attempt: its watermark (if it moves) and its activity times (if any);
  // an attempt's activity row is found through its seq state, marked with this job
  const attempts = activity;
  const stamp = ++buf.jobStamp;
  for (let r = 0; r < attempts.length; r += ATTEMPT_FIELDS) {
    const st = buf.seqs.get(attempts[r] as string);
    if (st) {
      st.jobStamp = stamp;
      st.jobRow = r;
    }
  }
  let inSlice = 0;
  // the attempts listed now; saves in the turns between slices list more after them
  const states = buf.listedStates;
  const listed = buf.listedCount;
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
  const end = buf.listedCount;
  for (let i = listed; i < end; i++) states[kept++] = states[i];
  states.fill(undefined, kept, end);
  buf.listedCount = kept;
  return { answers, attempts, at: buf.now() };
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
async function repairWatermarks(buf: FlushSource, taken: TakenJob, skipped: Set<string>, breathe: () => Promise<void>): Promise<void> {
  const { attemptIds, lowerings, watermarks, attemptCount } = taken;
  for (let i = 0; i < attemptCount; i++) {
    if (i > 0 && i % SLICE === 0) await breathe();
    const attemptId = attemptIds[i]!;
    const w = watermarks[i]!;
    const st = buf.seqs.get(attemptId);
    if (!st || st.lowerings !== lowerings[i]) continue;
    const now = durableOf(st);
    if (skipped.has(attemptId) || now > w) relaxedSync(buf.sqlite, () => buf.saveWatermark.run(now, attemptId, now));
  }
}
