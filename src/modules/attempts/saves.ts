/**
 * Live answer saves (docs/design.md §7): `PUT /attempts/:id/answers/:questionId` and the batch
 * `POST /attempts/:id/answers`. The hot path: no database read or write — the attempt
 * and paper come from the session cache, the answer goes into the buffer, and the reply
 * carries `remainingSeconds` and `durableSeq`. Target latency under 5 ms (docs/api-overview.md, "Limits").
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { Conflict, Forbidden, NotFound, ValidationError, type FieldError } from '../../platform/errors.js';
import type { Paper, AttemptState } from '../sessions/index.js';
import { GRACE_MS, remainingMs } from './timer.js';
import { enforceSeb, SEB_LOCK } from './seb-lock.js';
import { MAX_SEQ } from './schemas.js';

export interface AnswerInput {
  questionId: string;
  optionId?: string | null;
  text?: string | null;
  seq?: number;
}

/**
 * The attempt and its paper for a candidate request. `req` is the HTTP request, judged
 * when the exam requires Safe Exam Browser (seb-lock.ts); internal callers omit it.
 * @throws NotFound (unknown attempt), Forbidden (disqualified or locked: the session is
 *   locked), SafeExamBrowserRequired (403; an attempt in progress is locked first)
 */
export function candidateAttempt(deps: HallDeps, attemptId: string, req?: Context<AppEnv>): { st: AttemptState; paper: Paper } {
  const st = deps.sessions.attempt(attemptId);
  if (!st) throw new NotFound('Attempt');
  if (st.row.status === 'DISQUALIFIED') throw locked(st);
  const paper = deps.sessions.paper(st.row.exam_id);
  if (!paper) throw new NotFound('Exam');
  if (paper.seb !== null && req) enforceSeb(deps, req, paper, st);
  deps.sessions.seen(st, deps.clock.now());
  return { st, paper };
}

function locked(st: AttemptState): Forbidden {
  if (st.row.lock_reason === SEB_LOCK) {
    return new Forbidden('This attempt was stopped because a request did not come from Safe Exam Browser with this exam’s configuration. The answers saved so far are kept; only the invigilator can reopen it.', { code: 'DISQUALIFIED', attemptStatus: 'DISQUALIFIED', lockReason: SEB_LOCK });
  }
  return new Forbidden('This attempt was disqualified for proctoring violations and is locked.', { code: 'DISQUALIFIED', attemptStatus: 'DISQUALIFIED' });
}

/**
 * Checks one answer against the paper.
 * @returns the paper's own question and option id strings (what the buffer keeps: not
 *   the request's copies, or 150,000 buffered answers would hold 300,000 more strings),
 *   or the field error's message
 */
function resolve(paper: Paper, a: AnswerInput): { questionId: string; optionId: string | null } | string {
  const q = paper.byId.get(a.questionId);
  if (!q) return 'is not a question of this exam';
  const objective = q.type === 'MCQ' || q.type === 'TRUE_FALSE';
  if (objective) {
    if (a.text != null) return 'this question takes optionId, not text';
    if (a.optionId == null) return { questionId: q.id, optionId: null };
    const o = q.optionsById.get(a.optionId);
    return o ? { questionId: q.id, optionId: o.id } : 'optionId is not an option of this question';
  }
  return a.optionId != null ? 'this essay question takes text, not optionId' : { questionId: q.id, optionId: null };
}

/**
 * Saves answers of one attempt (all or none: any invalid item → 400, nothing saved).
 * `opts.questionInPath`: the one-answer form `PUT …/answers/:questionId`, where a question
 * that is not on the attempt's paper is a resource not found (404 `QUESTION_NOT_FOUND`,
 * spec error table); in the batch form it stays a 400 with per-item errors.
 * `opts.req`: the request, for the Safe Exam Browser check (as in candidateAttempt).
 * @returns `{saved, seq, remainingSeconds, durableSeq}`; `seq` is the highest seq used
 * @throws Conflict when the attempt is completed or its time ended more than 30 s ago
 */
export function saveAnswers(deps: HallDeps, attemptId: string, items: AnswerInput[], opts: { questionInPath?: boolean; req?: Context<AppEnv> } = {}) {
  const { st, paper } = candidateAttempt(deps, attemptId, opts.req);
  if (st.row.status === 'COMPLETED') throw new Conflict('This exam has already been submitted; answers can no longer change.', { code: 'ALREADY_SUBMITTED' });
  const now = deps.clock.now();
  const left = remainingMs(paper.exam, st.row, now);
  if (left < -GRACE_MS) throw new Conflict('The time for this exam is over.', { code: 'TIME_OVER', remainingSeconds: 0 });
  if (opts.questionInPath && items.length === 1 && !paper.byId.has(items[0]!.questionId)) {
    // refused: its seq holds nothing back (as for the 400s below)
    if (items[0]!.seq !== undefined) deps.buffer.forgive(st.row.id, items[0]!.seq);
    throw new NotFound('Question', { code: 'QUESTION_NOT_FOUND' });
  }
  let errors: FieldError[] | null = null;
  const ids: { questionId: string; optionId: string | null }[] = [];
  for (let i = 0; i < items.length; i++) {
    const r = resolve(paper, items[i]!);
    if (typeof r === 'string') (errors ??= []).push({ index: i, path: `answers.${i}`, questionId: items[i]!.questionId, message: r });
    else ids.push(r);
  }
  if (errors) {
    // a refused seq is received all the same: nothing will be stored under it, so it must
    // not hold durableSeq back (docs/decisions.md, "durableSeq is a contiguous watermark")
    for (const e of errors) {
      const seq = items[e.index as number]!.seq;
      if (seq !== undefined) deps.buffer.forgive(st.row.id, seq);
    }
  }
  const unnumbered = items.reduce((n, a) => (a.seq === undefined ? n + 1 : n), 0);
  if (unnumbered && deps.buffer.lastSeq(st.row.id) + unnumbered > MAX_SEQ) {
    (errors ??= []).push({ path: 'seq', message: `this attempt has used seq ${MAX_SEQ}, the highest there is: no further seq can be assigned` });
  }
  if (errors) throw new ValidationError(errors.length === 1 ? `${errors[0]!.questionId ? `questionId ${errors[0]!.questionId}` : 'seq'}: ${errors[0]!.message}` : `${errors.length} answers are invalid; nothing was saved.`, errors);
  let saved = 0;
  let seq = 0;
  // the cached row's attempt id and the paper's ids (see resolve), not the request's copies
  const id = st.row.id;
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    const r = deps.buffer.save(id, ids[i]!.questionId, ids[i]!.optionId, a.text ?? null, a.seq);
    if (r.applied) saved++;
    if (r.seq > seq) seq = r.seq;
  }
  st.lastSavedAt = now;
  // the live monitor redraws at most once a second, whatever the number of saves
  if (saved > 0) deps.events.emit({ kind: 'attempt-changed', examId: st.row.exam_id, attemptId });
  return { saved: true, applied: saved, seq, remainingSeconds: Math.max(0, Math.floor(left / 1000)), durableSeq: deps.buffer.durableSeq(attemptId) };
}
