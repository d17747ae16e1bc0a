/**
 * Questions flagged for review, kept by the hall (issue 37 item 8: "flags survive a move to
 * another PC"): `PUT /attempts/:id/flags/:questionId` sets or clears one, and the start/resume
 * response and `GET /attempts/:id` (with the paper) list them as `flagged`. A flag is the
 * candidate's own note: it changes no answer and no mark, and its write is a small relaxed
 * commit apart from the answer store (the save path never reads or writes it).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { afterWriteTurn, relaxedSync } from '../../db/index.js';
import { Conflict, NotFound } from '../../platform/errors.js';
import type { Paper } from '../sessions/index.js';
import { candidateAttempt } from './saves.js';
import { GRACE_MS, remainingMs } from './timer.js';

/**
 * Sets (`flagged` true) or clears one flag of an attempt; idempotent.
 * @param req the HTTP request (the Safe Exam Browser check, as for saves)
 * @returns `{questionId, flagged}` as stored
 * @throws NotFound (attempt; QUESTION_NOT_FOUND: not on the attempt's paper), Forbidden
 *   (disqualified, SEB), Conflict (ALREADY_SUBMITTED, TIME_OVER: as a save would)
 */
export async function setFlag(deps: HallDeps, attemptId: string, questionId: string, flagged: boolean, req?: Context<AppEnv>): Promise<{ questionId: string; flagged: boolean }> {
  const { st, paper } = candidateAttempt(deps, attemptId, req);
  if (st.row.status === 'COMPLETED') throw new Conflict('This exam has already been submitted.', { code: 'ALREADY_SUBMITTED' });
  if (remainingMs(paper.exam, st.row, deps.clock.now()) < -GRACE_MS) throw new Conflict('The time for this exam is over.', { code: 'TIME_OVER', remainingSeconds: 0 });
  const q = paper.byId.get(questionId);
  if (!q) throw new NotFound('Question', { code: 'QUESTION_NOT_FOUND' });
  const id = st.row.id;
  await afterWriteTurn(deps.sqlite, () =>
    relaxedSync(deps.sqlite, () => {
      if (flagged) deps.sqlite.prepare('INSERT OR IGNORE INTO attempt_flags (attempt_id, question_id, flagged_at) VALUES (?, ?, ?)').run(id, q.id, deps.clock.now());
      else deps.sqlite.prepare('DELETE FROM attempt_flags WHERE attempt_id = ? AND question_id = ?').run(id, q.id);
    }),
  );
  return { questionId: q.id, flagged };
}

/** Ids of the attempt's flagged questions that are on `paper`, in the order they were flagged. */
export function flaggedQuestions(deps: HallDeps, attemptId: string, paper: Paper): string[] {
  // (no .pluck(): prepared statements are shared, db/index.ts cacheStatements)
  const rows = deps.sqlite.prepare('SELECT question_id AS id FROM attempt_flags WHERE attempt_id = ? ORDER BY flagged_at, rowid').all(attemptId) as { id: string }[];
  return rows.map((r) => r.id).filter((qid) => paper.byId.has(qid));
}
