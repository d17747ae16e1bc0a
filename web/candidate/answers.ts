/**
 * Answer synchronisation: nothing a candidate answered is lost to a Wi-Fi drop, a
 * reload, a browser crash or a server restart (docs/design.md §7, issue 4 point 5).
 *
 * Every answer gets `seq = ++counter`, where the counter continues from
 * max(this browser's stored counter, the server's durableSeq, the highest seq the
 * server holds) — except that an answer replacing one never put on the wire (an essay
 * typed key by key during its debounce) takes over that one's seq: the seqs the server
 * sees are gap-free, so its contiguous `durableSeq` is never held back by a number the
 * page skipped (issue 20 item 1). A replaced answer that was sent but not acknowledged
 * may or may not have arrived; its seq is kept (`skipped`) and sent again, with the
 * newer value, in the same request as the newer seq, so that gap closes too.
 * The answer is written to localStorage at once, then sent. It leaves
 * localStorage only when (a) the server acknowledged holding it (a 200 save, or a
 * later `GET /attempts/:id` listing it with seq ≥ ours) and (b) the server's
 * `durableSeq` — the highest seq already committed to disk — covers its seq.
 * Condition (a) matters: durableSeq 7 says nothing about a seq-5 save that never
 * arrived. After a server restart the poll shows the lost answers missing and they
 * are sent again; the server keeps the higher seq, so replays never overwrite newer work.
 * A one-answer save travels over the save channel (channel.ts, one WebSocket) while it
 * is open, else as `PUT …/answers/:questionId`; several answers (offline replay, skipped
 * seqs) go as one `POST …/answers`. The transport changes nothing above: a channel reply
 * is the PUT's response, a save lost with the channel is sent again over HTTP with its
 * seq, and a durableSeq the channel pushes after a flush is adopted like a save's.
 */
import { attemptPath, call, isReachable } from './api.js';
import { channelAllowed, SaveChannel } from './channel.js';
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
  /** false while this seq has never been put on the wire (missing in older copies: sent) */
  sent?: boolean;
  /** seqs of older answers to this question that were sent, superseded before the
   * server acknowledged them: sent again with this value until acknowledged */
  skipped?: number[];
}

export interface AnswerSyncHooks {
  /** a save succeeded: re-sync the clock; `pushes`: over the channel, which will push durableSeq */
  onSynced(remainingSeconds: number | undefined, pushes: boolean): void;
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
  private readonly channel: SaveChannel | null;

  /** @param opts.channel false: HTTP only (an exam that requires Safe Exam Browser) */
  constructor(private readonly attemptId: string, private readonly hooks: AnswerSyncHooks, opts: { channel?: boolean } = {}) {
    this.channel =
      opts.channel !== false && channelAllowed()
        ? new SaveChannel(
            attemptId,
            (d) => {
              this.durableSeq = d;
              this.settle();
            },
            () => this.send(),
          )
        : null;
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
    const prev = this.pending[questionId];
    let seq: number;
    let skipped = prev && prev.skipped ? prev.skipped : [];
    if (prev && prev.sent === false) seq = prev.seq; // never sent: the newer value takes its seq
    else {
      this.setCounter(this.counter + 1);
      seq = this.counter;
      if (prev && !prev.acked) skipped = skipped.concat(prev.seq);
    }
    this.pending[questionId] = { questionId, ...value, seq, acked: false, sent: false, skipped: skipped.length ? skipped : undefined };
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

  /** The answers the server acknowledged and its durableSeq, as a session body lists them. */
  snapshot(): Pick<Session, 'answers' | 'durableSeq'> {
    return { answers: Object.keys(this.server).map((k) => this.server[k]), durableSeq: this.durableSeq };
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
    if (this.channel) this.channel.stop();
  }

  private async send(): Promise<void> {
    if (this.stopped || this.sending) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.channel) this.channel.connect();
    const t = now();
    const unsent = Object.keys(this.pending).map((k) => this.pending[k]).filter((p) => !p.acked || (p.skipped && p.skipped.length));
    const due = unsent.filter((p) => (this.notBefore[p.questionId] || 0) <= t);
    if (!due.length) {
      if (unsent.length) this.schedule(Math.min(...unsent.map((p) => this.notBefore[p.questionId] || 0)) - t);
      return;
    }
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      // nothing can leave: the answers stay "never sent", so further typing keeps their seqs
      this.hooks.onChange();
      this.schedule(this.backoff());
      return;
    }
    const batch = wireBatch(this.oneByOne ? due.slice(0, 1) : due);
    for (const b of batch) {
      const cur = this.pending[b.questionId];
      if (cur && cur.seq === b.seq) cur.sent = true;
    }
    this.persist();
    this.sending = true;
    const viaChannel = batch.length === 1 && !!this.channel && this.channel.isOpen();
    const res = viaChannel
      ? await this.channel!.save(batch[0])
      : batch.length === 1
        ? await call<SaveResponse>('PUT', attemptPath(this.attemptId, '/answers/' + encodeURIComponent(batch[0].questionId)), bodyOf(batch[0]))
        : await call<SaveResponse>('POST', attemptPath(this.attemptId, '/answers'), { answers: batch });
    this.sending = false;
    if (this.stopped) return;
    if (res.kind === 'ok') {
      this.backoffMs = 1000;
      for (const b of batch) {
        const cur = this.pending[b.questionId];
        if (cur && cur.seq === b.seq) cur.acked = true;
        else if (cur && cur.skipped) {
          const rest = cur.skipped.filter((x) => x !== b.seq);
          cur.skipped = rest.length ? rest : undefined;
        }
        const s = this.server[b.questionId];
        if (!s || s.seq <= b.seq) this.server[b.questionId] = { questionId: b.questionId, optionId: b.optionId, text: b.text, seq: b.seq };
      }
      if (typeof res.body.durableSeq === 'number') this.durableSeq = res.body.durableSeq;
      this.hooks.onSynced(res.body.remainingSeconds, viaChannel);
      this.settle();
      return;
    }
    if (res.kind === 'network') {
      this.hooks.onChange();
      // lost with the channel: at once over HTTP (which backs off if the network is down)
      this.schedule(viaChannel ? 0 : this.backoff());
      return;
    }
    this.handleRefusal(res.problem, batch);
  }

  private handleRefusal(problem: Problem, batch: Array<{ questionId: string; seq: number }>): void {
    const single = batch.every((b) => b.questionId === batch[0].questionId);
    if (problem.status === 400 || problem.code === 'QUESTION_NOT_FOUND') {
      // One bad item refuses a whole batch: go one question at a time; a refused question
      // can never be saved (e.g. removed by the examiner: 404 on the one-answer save), so its answer is dropped (the
      // server counts a refused seq as received: it holds nothing back).
      if (!single) this.oneByOne = true;
      else {
        const cur = this.pending[batch[0].questionId];
        const refused = batch.map((b) => b.seq);
        if (cur && refused.indexOf(cur.seq) >= 0) delete this.pending[batch[0].questionId];
        else if (cur && cur.skipped) {
          const rest = cur.skipped.filter((x) => refused.indexOf(x) < 0);
          cur.skipped = rest.length ? rest : undefined;
        }
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

/** Most bytes of answer text in one request (the server takes 1 MB). */
const MAX_BATCH_CHARS = 256 * 1024;

/**
 * The wire items of `due`, whole questions at a time (each question's skipped seqs first,
 * then its own: the server settles them all), at most MAX_BATCH items and about
 * MAX_BATCH_CHARS of text unless one question alone is more.
 */
function wireBatch(due: PendingAnswer[]) {
  const out: Array<ReturnType<typeof toWire>> = [];
  let chars = 0;
  for (const p of due) {
    // (the server takes 500 items: a longer list of skipped seqs goes over several requests)
    const group = (p.skipped || []).slice(0, MAX_BATCH - 1).map((seq) => toWire({ ...p, seq }));
    if (!p.acked) group.push(toWire(p));
    const size = group.length * ((p.text && p.text.length) || 0);
    if (out.length && (out.length + group.length > MAX_BATCH || chars + size > MAX_BATCH_CHARS)) break;
    out.push(...group);
    chars += size;
  }
  return out;
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
