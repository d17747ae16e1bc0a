/**
 * The save channel on the page (issue 26): one WebSocket to `/attempts/:id/channel`
 * carrying one-answer saves in small frames (~100 bytes a round trip instead of ~730 over
 * HTTP). answers.ts prefers it while it is open and uses HTTP otherwise, so the channel
 * only ever changes how a save travels, never what is saved: a save in flight when the
 * channel closes or stalls resolves as `network`, and the answer goes again over HTTP
 * with the same seq (a save is idempotent by its seq).
 * Frames (src/modules/candidate/save-channel.ts): `{i, q, o|t, s}` out; `{i, s, a, r, d}`
 * (saved), `{i, p}` (refused: the PUT's problem) or `{d}` (durableSeq after a flush) in.
 * Not used where there is no WebSocket, for exams that require Safe Exam Browser (its
 * keys are per HTTP request), or when localStorage `hallcbt.channel` is `"off"`.
 * A browser cannot read why a WebSocket did not open (a refused handshake and a dead
 * network both close it with 1006), so after a channel that never opened the page asks the
 * same path over HTTP, which answers what the upgrade would: a refusal (the operator's
 * `CBT_SAVE_CHANNEL=off`, an attempt over…) stops the channel for this page — saves go
 * over HTTP, quietly — while 426 (the server would take it: something on the way refused
 * it) backs off up to 5 min and no answer at all (the network) up to 60 s.
 */
import { attemptPath, call, markReachable, type ApiResult } from './api.js';
import { noteProblem } from './seb.js';
import { readJson } from './storage.js';
import type { Problem, SaveResponse } from './types.js';

/** a save not answered within this long: the channel is taken as dead (as call()'s time-out) */
const REPLY_TIMEOUT_MS = 10_000;
const MAX_RETRY_MS = 60_000;
/** the longest wait between opens the server would take but that never get through */
const MAX_REFUSED_RETRY_MS = 5 * 60_000;

type Waiter = (r: ApiResult<SaveResponse>) => void;

/** Whether this page may save over a channel (WebSocket exists, not switched off). */
export function channelAllowed(): boolean {
  return typeof WebSocket !== 'undefined' && readJson<string | null>('channel', null) !== 'off';
}

/**
 * One attempt's save channel: `connect()` opens it (and reopens it after a close, waiting
 * 1 s, 2 s, … up to 60 s; after an open that failed, what the server says of the path over
 * HTTP decides: stop for good, or up to 5 min between tries), `save(item)` sends one
 * answer and resolves as `call()` does —
 * `ok` with the PUT's body, `problem` with the PUT's problem, or `network` when the channel
 * is not open, closes or gives no reply within 10 s (the caller then saves over HTTP) —
 * and `stop()` closes it for good. It never throws.
 */
export class SaveChannel {
  private ws: WebSocket | null = null;
  private ready = false;
  private nextId = 1;
  private waiting: Record<number, Waiter> = {};
  private retryMs = 1000;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** asking the server why an open failed (no other open meanwhile) */
  private asking = false;
  private stopped = false;

  /**
   * @param onDurable the server pushed a durableSeq (after an answer flush)
   * @param onOpen the channel opened (saves waiting may go now)
   */
  constructor(private readonly attemptId: string, private readonly onDurable: (durableSeq: number) => void, private readonly onOpen: () => void) {}

  /** True when a save can go over the channel now. */
  isOpen(): boolean {
    return this.ready;
  }

  /** Opens the channel unless it is open, opening, waiting to retry, or stopped. */
  connect(): void {
    if (this.stopped || this.ws || this.retryTimer || this.asking) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/attempts/' + encodeURIComponent(this.attemptId) + '/channel');
    } catch {
      // (a browser whose policy refuses the address at once)
      return this.retryLater();
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.ready = true;
      this.retryMs = 1000;
      this.onOpen();
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      const opened = this.ready;
      this.drop();
      // the server ended this attempt's saving (4403, 4404, 4409): HTTP says why; an idle
      // close (1000: the page answered no ping for 20 s) reopens at the next sync (a save or
      // the poll); one that never opened: ask why; anything else after a while
      if (ev.code >= 4000 || ev.code === 1000) return;
      if (!opened) return void this.askWhy();
      this.retryLater();
    };
  }

  /**
   * Sends one save; resolves as call() does: `ok` with the PUT response's fields,
   * `problem`, or `network` (closed or stalled meanwhile: send it again over HTTP).
   */
  save(item: { questionId: string; optionId?: string; text?: string; seq: number }): Promise<ApiResult<SaveResponse>> {
    const ws = this.ws;
    if (!ws || !this.ready) return Promise.resolve({ kind: 'network' });
    const i = this.nextId++;
    const frame = item.optionId ? { i, q: item.questionId, o: item.optionId, s: item.seq } : { i, q: item.questionId, t: item.text || '', s: item.seq };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.ws === ws) this.drop(true);
      }, REPLY_TIMEOUT_MS);
      this.waiting[i] = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
      try {
        ws.send(JSON.stringify(frame));
      } catch {
        this.drop(true);
      }
    });
  }

  /** Closes for good (the attempt is over or locked). */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.drop(true);
  }

  private receive(data: unknown): void {
    let m: { i?: number | null; s?: number; a?: number; r?: number; d?: number; p?: Problem };
    try {
      m = JSON.parse(String(data));
    } catch {
      return;
    }
    if (!m || typeof m !== 'object') return;
    markReachable();
    if (!('i' in m)) {
      if (typeof m.d === 'number') this.onDurable(m.d);
      return;
    }
    if (typeof m.i !== 'number') return;
    const w = this.waiting[m.i];
    if (!w) return;
    delete this.waiting[m.i];
    if (m.p && typeof m.p.status === 'number') {
      noteProblem(m.p);
      w({ kind: 'problem', status: m.p.status, problem: m.p });
    } else w({ kind: 'ok', status: 200, body: { saved: true, seq: m.s, remainingSeconds: m.r as number, durableSeq: m.d as number } });
  }

  /** Forgets the socket (closing it when `close`) and answers every waiting save `network`. */
  private drop(close = false): void {
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    if (ws && close) {
      try {
        ws.close();
      } catch {
        /* closing already */
      }
    }
    const waiting = this.waiting;
    this.waiting = {};
    for (const k of Object.keys(waiting)) waiting[Number(k)]!({ kind: 'network' });
    if (ws && close && !this.stopped) this.retryLater();
  }

  /**
   * After an open that failed: the same path over HTTP answers what the upgrade would.
   * A refusal ends the channel for this page (switched off, the attempt locked or over:
   * its HTTP saves say why where it matters); 426 (it would open: a proxy or access point
   * refused the upgrade) retries doubling up to 5 min; 429 after its Retry-After; no
   * answer or a 5xx (the network, a server stopping) as any other close.
   */
  private async askWhy(): Promise<void> {
    if (this.stopped || this.asking) return;
    this.asking = true;
    const r = await call<unknown>('GET', attemptPath(this.attemptId, '/channel'));
    this.asking = false;
    if (this.stopped) return;
    if (r.kind !== 'problem' || r.status >= 500) return this.retryLater();
    if (r.status === 426) return this.retryLater(MAX_REFUSED_RETRY_MS);
    if (r.status === 429) return this.retryLater(MAX_RETRY_MS, (r.problem.retryAfterSeconds || 0) * 1000);
    this.stop();
  }

  /** Opens again after the current wait (then doubled, up to `maxMs`; at least `minMs`). */
  private retryLater(maxMs = MAX_RETRY_MS, minMs = 0): void {
    if (this.stopped || this.retryTimer) return;
    const ms = Math.max(this.retryMs, minMs);
    this.retryMs = Math.min(this.retryMs * 2, maxMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, ms);
  }
}
