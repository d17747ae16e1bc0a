/**
 * The answer buffer's sequence bookkeeping (answer-buffer.ts module doc: "durableSeq is a
 * contiguous watermark"): an entry and its attempt's seq state, and the rules that move
 * the watermark: which seqs an entry settles (`covers`), settling seqs, the watermark a
 * set of seqs would give (`advance`), the watermark held below dirty entries
 * (`durableOf`), and the state rebuilt after a restart. No storage here: the buffer
 * stores what these compute.
 */

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

export interface AttemptSeqState {
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
  /**
   * the questions whose current answer (the dirty entry, else the committed row) counts as
   * answered (`countsAsAnswered`): read from the committed rows when the state is built,
   * then changed only by a save the buffer applies — only the buffer writes answers, and a
   * flush, a seal or an eviction writes the current answer as it is
   */
  answered: Set<string>;
}

/**
 * Whether an answer counts as answered: an option, or text that is not blank (String
 * `trim`: as grading counts essays). The live monitor's "answered" (docs/design.md §1).
 */
export const countsAsAnswered = (optionId: string | null, text: string | null): boolean => !!optionId || !!text?.trim();

/** the covers of every clean entry (frozen: only a dirty entry's own array grows) */
export const NO_COVERS = Object.freeze([]) as unknown as number[];

/** The watermark after settling `seqs` (pure: nothing is changed). */
export function advance(watermark: number, settled: Set<number>, seqs: number[]): number {
  let w = watermark;
  if (seqs.length > 16) {
    // one question saved over and over within a flush (an essay's autosave) covers many seqs
    const all = new Set(seqs);
    while (settled.has(w + 1) || all.has(w + 1)) w++;
  } else while (settled.has(w + 1) || seqs.includes(w + 1)) w++;
  return w;
}

/** Settles `seqs` of the attempt: the watermark moves over every contiguous settled seq. */
export function settle(st: AttemptSeqState, seqs: number[]): void {
  for (const s of seqs) {
    // the common case, the seq right above the watermark, moves it without the set
    // (which never holds watermark + 1 between calls)
    if (s === st.watermark + 1) st.watermark = s;
    else if (s > st.watermark) st.settled.add(s);
  }
  while (st.settled.size && st.settled.has(st.watermark + 1)) st.settled.delete(++st.watermark);
}

/** The attempt's watermark held below any seq a dirty entry still carries (AnswerBuffer.durableSeq). */
export function durableOf(st: AttemptSeqState): number {
  let w = st.watermark;
  const list = st.dirty;
  for (let i = 0; i < st.dirtyLen; i++) {
    const e = list[i]!;
    if (e.dirty && e.lowestCover <= w) w = e.lowestCover - 1;
  }
  return w;
}

/**
 * The seq state of an attempt this process has not seen yet (after a restart): the
 * stored watermark `w`, the committed answers' seqs above it counted as settled, and the
 * questions their rows answer (`answered`).
 */
export function restoredSeqState(attemptId: string, rows: { questionId: string; seq: number; optionId: string | null; text: string | null }[], w: number): AttemptSeqState {
  const settled = new Set<number>();
  const stored = new Map<string, number>();
  const answered = new Set<string>();
  let last = w;
  for (const r of rows) {
    stored.set(r.questionId, r.seq);
    if (countsAsAnswered(r.optionId, r.text)) answered.add(r.questionId);
    if (r.seq > w) settled.add(r.seq);
    if (r.seq > last) last = r.seq;
  }
  w = advance(w, settled, []);
  for (const x of [...settled]) if (x <= w) settled.delete(x);
  return { attemptId, lastSeq: last, watermark: w, settled, dirty: [], dirtyLen: 0, dirtyCount: 0, listed: false, jobStamp: 0, jobRow: 0, stored, lowerings: 0, answered };
}
