/**
 * Answer synchronisation: nothing a candidate answered is lost to a Wi-Fi drop, a
 * reload, a browser crash or a server restart (DESIGN §7, issue 4 point 5).
 *
 * Every answer gets `seq = ++counter`, where the counter continues from
 * max(this browser's stored counter, the server's durableSeq, the highest seq the
 * server holds). The answer is written to localStorage at once, then sent. It leaves
 * localStorage only when (a) the server acknowledged holding it (a 200 save, or a
 * later `GET /attempts/:id` listing it with seq ≥ ours) and (b) the server's
 * `durableSeq` — the highest seq already committed to disk — covers its seq.
 * Condition (a) matters: durableSeq 7 says nothing about a seq-5 save that never
 * arrived. After a server restart the poll shows the lost answers missing and they
 * are sent again; the server keeps the higher seq, so replays never overwrite newer work.
 */
import { attemptPath, call, isReachable } from './api.js';
import { attemptKey, readJson, writeJson } from './storage.js';
import type { Problem, SaveResponse, ServerAnswer, Session } from './types.js';

/** What the page shows next to a question. */
export type SaveState = 'none' | 'saved' | 'saving' | 'offline';

/** An answer kept in the browser until durable. */
export interface PendingAnswer {
  questionId: string;
  optionId?: string;
  text?: string;
  seq: number;
  /** the server confirmed it holds this seq (in memory at least) */
  acked: boolean;
}

export interface AnswerSyncHooks {
  /** a save succeeded: re-sync the clock */
  onSynced(remainingSeconds: number | undefined): void;
  /** a save was refused (403/404/409…): return true to keep retrying, false to stop */
  onRefused(problem: Problem): boolean;
  /** pending set or save states changed: redraw */
  onChange(): void;
}

const MAX_BATCH = 200;
const MAX_BACKOFF_MS = 10_000;

export class AnswerSync {
  private counter: number;
  private durableSeq = 0;
  private pending: Record<string, PendingAnswer>;
  private server: Record<string, ServerAnswer> = {};
  private notBefore: Record<string, number> = {};
  private sending = false;
  private oneByOne = false;
  private stopped = false;
  private backoffMs = 1000;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly attemptId: string, private readonly hooks: AnswerSyncHooks) {
    this.counter = Number(readJson<number>(attemptKey(attemptId, 'counter'), 0)) || 0;
    this.pending = {};
    const stored = readJson<Record<string, PendingAnswer>>(attemptKey(attemptId, 'pending'), {});
    for (const k of Object.keys(stored || {})) {
      const p = stored[k];
      if (p && typeof p.questionId === 'string' && typeof p.seq === 'number') this.pending[p.questionId] = { ...p, acked: false };
    }
    window.addEventListener('online', () => this.retryNow());
  }

  /** Adopts a session body (start, resume or poll): server answers, durableSeq, counter. */
  adopt(session: Pick<Session, 'answers' | 'durableSeq'>): void {
    this.durableSeq = Number(session.durableSeq) || 0;
    this.backoffMs = 1000;
    this.server = {};
    let maxSeq = 0;
    for (const a of session.answers || []) {
      this.server[a.questionId] = a;
      maxSeq = Math.max(maxSeq, Number(a.seq) || 0);
    }
    this.setCounter(Math.max(this.counter, this.durableSeq, maxSeq));
    for (const k of Object.keys(this.pending)) {
      const s = this.server[k];
      this.pending[k].acked = !!s && s.seq >= this.pending[k].seq;
    }
    this.settle();
  }

  /**
   * Records a new answer and sends it (after `debounceMs` for essays being typed).
   * @param value `{optionId}` for MCQ/TRUE_FALSE, `{text}` for essays
   */
  record(questionId: string, value: { optionId: string } | { text: string }, debounceMs = 0): void {
    this.setCounter(this.counter + 1);
    this.pending[questionId] = { questionId, ...value, seq: this.counter, acked: false };
    this.notBefore[questionId] = debounceMs ? now() + debounceMs : 0;
    this.persist();
    this.hooks.onChange();
    this.send();
  }

  /** The answer to show: the newer of the local pending one and the server's. */
  answerFor(questionId: string): { optionId?: string | null; text?: string | null } | undefined {
    const p = this.pending[questionId];
    const s = this.server[questionId];
    return p && (!s || p.seq >= s.seq) ? p : s;
  }

  /** True when the question has a chosen option or non-blank text. */
  isAnswered(questionId: string): boolean {
    const a = this.answerFor(questionId);
    return !!a && (!!a.optionId || !!(a.text && a.text.trim()));
  }

  /** Save state of one question: "saved" only when durableSeq covers it. */
  stateOf(questionId: string): SaveState {
    if (this.pending[questionId]) return isReachable() ? 'saving' : 'offline';
    const s = this.server[questionId];
    if (!s || (!s.optionId && !(s.text && s.text.trim()))) return 'none';
    return s.seq <= this.durableSeq ? 'saved' : 'saving';
  }

  /** Number of answers kept locally and not yet durable. */
  pendingCount(): number {
    return Object.keys(this.pending).length;
  }

  /** True while anything (local or server-side) is not yet on the server's disk. */
  awaitingDurability(): boolean {
    if (this.pendingCount() > 0) return true;
    return Object.keys(this.server).some((k) => this.server[k].seq > this.durableSeq);
  }

  /** Every locally kept answer, for the final copy sent with submit. */
  finalCopy(): Array<{ questionId: string; optionId?: string; text?: string; seq: number }> {
    return Object.keys(this.pending).map((k) => toWire(this.pending[k]));
  }

  /** Sends everything now, ignoring essay debounce (navigation, blur, time running out). */
  flushNow(): void {
    this.notBefore = {};
    this.send();
  }

  /** Retries at once (browser back online, server answered again). */
  retryNow(): void {
    this.backoffMs = 1000;
    this.send();
  }

  /** Stops all sending (attempt over or locked). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async send(): Promise<void> {
    if (this.stopped || this.sending) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const t = now();
    const unsent = Object.keys(this.pending).map((k) => this.pending[k]).filter((p) => !p.acked);
    const due = unsent.filter((p) => (this.notBefore[p.questionId] || 0) <= t);
    if (!due.length) {
      if (unsent.length) this.schedule(Math.min(...unsent.map((p) => this.notBefore[p.questionId] || 0)) - t);
      return;
    }
    const batch = (this.oneByOne ? due.slice(0, 1) : due.slice(0, MAX_BATCH)).map(toWire);
    this.sending = true;
    const res =
      batch.length === 1
        ? await call<SaveResponse>('PUT', attemptPath(this.attemptId, '/answers/' + encodeURIComponent(batch[0].questionId)), bodyOf(batch[0]))
        : await call<SaveResponse>('POST', attemptPath(this.attemptId, '/answers'), { answers: batch });
    this.sending = false;
    if (this.stopped) return;
    if (res.kind === 'ok') {
      this.backoffMs = 1000;
      for (const b of batch) {
        const cur = this.pending[b.questionId];
        if (cur && cur.seq === b.seq) cur.acked = true;
        const s = this.server[b.questionId];
        if (!s || s.seq <= b.seq) this.server[b.questionId] = { questionId: b.questionId, optionId: b.optionId, text: b.text, seq: b.seq };
      }
      if (typeof res.body.durableSeq === 'number') this.durableSeq = res.body.durableSeq;
      this.hooks.onSynced(res.body.remainingSeconds);
      this.settle();
      return;
    }
    if (res.kind === 'network') {
      this.hooks.onChange();
      this.schedule(this.backoff());
      return;
    }
    this.handleRefusal(res.problem, batch);
  }

  private handleRefusal(problem: Problem, batch: Array<{ questionId: string; seq: number }>): void {
    if (problem.status === 400 || problem.code === 'QUESTION_NOT_FOUND') {
      // One bad item refuses a whole batch: go one by one; a single refused item can
      // never be saved (e.g. a question removed by the examiner: 404 on the one-answer
      // save), so it is dropped.
      if (batch.length > 1) this.oneByOne = true;
      else {
        const cur = this.pending[batch[0].questionId];
        if (cur && cur.seq === batch[0].seq) delete this.pending[batch[0].questionId];
        this.persist();
      }
      this.hooks.onChange();
      this.schedule(0);
      return;
    }
    if (problem.status === 429) {
      this.schedule((problem.retryAfterSeconds || 2) * 1000);
      return;
    }
    if (problem.status >= 500) {
      this.schedule(this.backoff());
      return;
    }
    if (this.hooks.onRefused(problem)) this.schedule(this.backoff());
  }

  /** Drops durable acknowledged answers, saves the rest, redraws, sends what is left. */
  private settle(): void {
    for (const k of Object.keys(this.pending)) {
      const p = this.pending[k];
      if (p.acked && p.seq <= this.durableSeq) delete this.pending[k];
    }
    if (!Object.keys(this.pending).some((k) => !this.pending[k].acked)) this.oneByOne = false;
    this.persist();
    this.hooks.onChange();
    this.send();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send();
    }, Math.max(0, ms));
  }

  private backoff(): number {
    const ms = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    return ms;
  }

  private setCounter(value: number): void {
    this.counter = value;
    writeJson(attemptKey(this.attemptId, 'counter'), value);
  }

  private persist(): void {
    writeJson(attemptKey(this.attemptId, 'pending'), this.pending);
  }
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function toWire(p: { questionId: string; optionId?: string | null; text?: string | null; seq: number }) {
  const out: { questionId: string; optionId?: string; text?: string; seq: number } = { questionId: p.questionId, seq: p.seq };
  if (p.optionId) out.optionId = p.optionId;
  else out.text = p.text || '';
  return out;
}

function bodyOf(w: { optionId?: string; text?: string; seq: number }) {
  return w.optionId ? { optionId: w.optionId, seq: w.seq } : { text: w.text || '', seq: w.seq };
}
