/**
 * The answer buffer's synchronous writes (answer-buffer.ts: an eviction, a submit, a seal,
 * the shutdown flush — the caller needs the answers written before it goes on): one
 * transaction on the server's connection with the watermarks the answers produce. The
 * buffer marks the entries clean after it.
 */
import type Database from 'better-sqlite3';
import type { Sqlite } from '../../db/index.js';
import { advance, type AnswerEntry, type AttemptSeqState } from './answer-seq.js';

/** An entry with the seq and covered seqs it had when a write took it. */
export type Snapshot = readonly [AnswerEntry, number, number[]];

/** The entry as it is now (its seq and a copy of its covers). */
export const snapshotOf = (e: AnswerEntry): Snapshot => [e, e.seq, e.covers.slice()] as const;

/**
 * Writes the snapshot's answers that did not change since it was taken, in ONE
 * transaction, with each attempt's watermark where their seqs move it.
 * @param upsert answer-commit.ts's upsert (attemptId, questionId, optionId, text, seq, updatedAt)
 * @param saveWatermark `UPDATE attempts SET durable_seq = ? WHERE id = ? AND durable_seq < ?`
 * @throws the database error (nothing written)
 */
export function writeSnapshot(sqlite: Sqlite, upsert: Database.Statement<unknown[]>, saveWatermark: { run(w: number, attemptId: string, below: number): unknown }, snap: readonly Snapshot[]): void {
  // a dirty entry's state is its attempt's current one (see AnswerEntry.state)
  const byAttempt = new Map<AttemptSeqState, number[]>();
  for (const [e, s, covers] of snap) {
    if (e.seq !== s) continue;
    const list = byAttempt.get(e.state);
    if (list) list.push(...covers);
    else byAttempt.set(e.state, [...covers]);
  }
  sqlite.transaction(() => {
    for (const [e, s] of snap) if (e.seq === s) upsert.run(e.state.attemptId, e.questionId, e.optionId, e.text, e.seq, e.updatedAt);
    for (const [st, covers] of byAttempt) {
      const w = advance(st.watermark, st.settled, covers);
      if (w > st.watermark) saveWatermark.run(w, st.attemptId, w);
    }
  })();
}
