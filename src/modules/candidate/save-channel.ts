/**
 * The save channel (issue 26): one WebSocket per candidate, `GET /attempts/{id}/channel`,
 * carrying live answer saves in small frames instead of one HTTP request each — an
 * extension beside the spec's `PUT /attempts/{id}/answers/{questionId}`, which stays the
 * reference and the page's fallback (docs/api-overview.md, docs/decisions.md).
 *
 * The upgrade is refused with a plain problem response (no upgrade) for a path that is not
 * a channel (404), a hall whose operator switched the channel off (`CBT_SAVE_CHANNEL=off`:
 * 404 SAVE_CHANNEL_OFF), an Origin whose host is not the request's Host (403 ORIGIN_REFUSED:
 * cross-site WebSocket hijacking; a request without Origin is not a browser's), an unknown
 * attempt (404), a disqualified one (403 DISQUALIFIED), an exam that requires Safe Exam
 * Browser (403 SEB_USES_HTTP: SEB's keys are judged per request and per URL, so those
 * pages save over HTTP), a completed or timed-out attempt (409), and an attempt over its
 * rate limit or slowed after a flood (429, channel-budget.ts). The attempt id is the
 * capability, as on the HTTP routes. The same path
 * without `Upgrade` (routes.ts) answers what the upgrade would: the same refusals, or 426
 * when it would be taken — how a page whose upgrade failed learns whether the server
 * refused it (stop trying) or the network lost it (try again).
 *
 * Frames (JSON text). Client → server, one save per frame, the PUT route's fields with
 * short keys: `{"i": frame id, "q": questionId, "o": optionId, "t": text, "s": seq}`
 * (`o`, `t`, `s` optional as in the PUT body; `i` a whole number the reply echoes).
 * Each frame takes a point of the attempt's live rate limit, is validated by the PUT
 * route's schemas and goes through the same `saveAnswers(…, {questionInPath: true})`.
 * Every frame — a save, a malformed one, a ping or pong — also takes a token of the
 * connection's budget; over it the channel is closed (4429) and its seat slowed
 * (channel-budget.ts). ws hands this module one frame per connection per turn of the
 * event loop, and a connection with frames waiting stops being read, so a flooding
 * peer holds the loop for one frame's work at a time (issue #34, finding 2).
 * Server → client:
 * - saved: `{"i", "s": seq, "a": applied, "r": remainingSeconds, "d": durableSeq}` (the
 *   PUT response's `seq`, `applied`, `remainingSeconds`, `durableSeq`; `saved` is true);
 * - refused: `{"i", "p": problem}`, the problem-details body the PUT would have answered
 *   (status, code, detail, errors, retryAfterSeconds…); `i` is null for a frame that is
 *   not JSON or has no usable id. A refusal that ends the attempt's saving (403, 409, or
 *   404 for the attempt) is followed by a close with code 4000 + status;
 * - durable: `{"d": durableSeq}` pushed after an answer flush moved the attempt's
 *   watermark past what the channel last told, so the page's "Saved" needs no poll; the
 *   pushes of one flush go out in slices 4 ms apart over a window that grows with their
 *   number (pushSliceSize: ~12 ms for 250, ~0.1 s for 2,500, at most 0.25 s).
 * A channel silent for 45 s (no frame) gets a WebSocket ping, which browsers answer by
 * themselves (a pong: 8 bytes of frames, where reopening cost a ~650 B handshake every idle
 * minute); a channel that answers neither with a frame nor a pong for 65 s is closed (1000),
 * as an idle HTTP connection is (platform/idle-connections.ts) — a page gone without a TCP
 * close. Frames over 300 KB (MAX_FRAME_BYTES) close it (1009); no permessage-deflate
 * (memory per connection, and the frames are tiny).
 */
import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { HallDeps } from '../../hall/deps.js';
import { ApiError, Forbidden, NotFound, toProblem, type ProblemBody } from '../../platform/errors.js';
import { invalidInput } from '../../platform/openapi.js';
import { consume } from '../../platform/rate-limit.js';
import { randomBase62 } from '../../platform/ids.js';
import { candidateSchemas, saveAnswers } from '../attempts/index.js';
import { admitChannel, channelOff, sameOrigin } from './channel-admit.js';
import { CLOSE_OVER_BUDGET, FrameBudget, isSlowdown, malformedReply, readFrame, SLOWED_ANSWER_MS, SLOWED_HELD_PER_ADDRESS, strikeChannel } from './channel-budget.js';

const { answerItemSchema, singleAnswerSchema } = candidateSchemas;

/** The channel's path; the attempt id is its one segment (as in `/attempts/{id}`). */
const CHANNEL_PATH = /^\/attempts\/([^/?#]{1,64})\/channel(?:\?.*)?$/;
/**
 * Largest frame (bytes): the largest that can be a valid save — a 50,000-character text
 * (attempts/schemas.ts) at 6 bytes a character in JSON at worst (`\u001f`), plus the other members
 * (300,150 bytes). Longer is refused from its header, before its payload is read (1009).
 */
export const MAX_FRAME_BYTES = 300 * 1024;
/** Frames of one channel waiting for their turn beyond which its socket is not read (resumed at RESUME_AT). */
const PAUSE_AT = 8;
const RESUME_AT = 2;
/** An over-budget channel's socket is cut this long after its close frame went out. */
const CUT_AFTER_MS = 500;
/** A channel without a frame or a pong for this long is closed (the HTTP connections' idle time). */
export const CHANNEL_IDLE_MS = 65_000;
/** A silent channel is pinged this long before its idle close (the pong's time to come). */
const PONG_WINDOW_MS = 20_000;
const TICK_MS = 5_000;
/**
 * durableSeq pushes after a flush go out in slices PUSH_GAP_MS apart over a window that
 * grows with the pushes due — PUSH_MS_PER_CHANNEL each, at least 3 gaps, at most
 * PUSH_WINDOW_MAX_MS — and never fewer than PUSH_SLICE a slice (≈ 0.3 ms of the event loop).
 * A slice is then ≈ 100 pushes (≈ 2 ms of sends at ≈ 20 µs a push) up to 250 ms of
 * window, and the loop stays two-thirds free for the saves arriving meanwhile; 2,500
 * pushes (10,000 candidates saving 2,500 a second with a 1 s flush) are all told within
 * ~0.1 s of the commit, where a fixed 100 slices 4 ms apart took ~0.5 s (docs/benchmarks.md,
 * 10,000 candidates).
 */
const PUSH_SLICE = 16;
const PUSH_GAP_MS = 4;
const PUSH_MS_PER_CHANNEL = 0.04;
const PUSH_WINDOW_MAX_MS = 250;

/** How many pushes one slice sends when `due` are due (see PUSH_SLICE). */
export function pushSliceSize(due: number): number {
  const windowMs = Math.min(PUSH_WINDOW_MAX_MS, Math.max(3 * PUSH_GAP_MS, due * PUSH_MS_PER_CHANNEL));
  return Math.max(PUSH_SLICE, Math.ceil(due / Math.floor(windowMs / PUSH_GAP_MS)));
}
const LIVE = 'requests for this attempt';
/** the PUT route's path rule for the question id (its errors name `questionId`) */
const questionParam = answerItemSchema.pick({ questionId: true });

interface Channel {
  ws: WebSocket;
  attemptId: string;
  examId: string;
  /** the client's address (the slowdown's seat is attempt + address) */
  address: string;
  /** frames the connection may still send (channel-budget.ts) */
  budget: FrameBudget;
  /** closed over its budget: what still arrives is dropped unread */
  over: boolean;
  /** frames received and not yet answered */
  pending: number;
  /** the tick of its last frame or pong */
  tick: number;
  /** a ping went out since then */
  pinged: boolean;
  /** the highest seq a reply acknowledged, and the durableSeq the channel last told */
  ackedSeq: number;
  toldDurable: number;
  /** the frames of this channel, one at a time and in order */
  queue: Promise<void>;
  frames: number;
}

export interface SaveChannels {
  /** open channels (for tests and the benchmark) */
  readonly size: number;
  /** Closes every channel (1001, going away) and stops the idle timer: server shutdown. */
  close(): void;
}

/**
 * Serves the save channel on `server`'s upgrade requests (see the module header). Every
 * server of the hall calls this: src/main.ts and the tests' harness.
 * @param idleMs a channel without a frame or a pong this long is closed, and pinged 20 s
 *   (or a third of it) before (tests shorten it)
 */
export function attachSaveChannel(server: Server, deps: HallDeps, opts: { idleMs?: number } = {}): SaveChannels {
  // allowSynchronousEvents false: ws hands over one frame per connection per turn of the
  // event loop (a setImmediate each), not every frame of a 64 KB read at once, so one
  // connection's frames never hold the loop for more than one frame's work
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES, clientTracking: false, allowSynchronousEvents: false });
  const channels = new Set<Channel>();
  const bootId = randomBase62(6);
  let counter = 0;
  let tick = 0;
  const idleMs = opts.idleMs ?? CHANNEL_IDLE_MS;
  const tickMs = Math.min(TICK_MS, Math.max(20, Math.floor(idleMs / 4)));
  const idleTicks = Math.ceil(idleMs / tickMs);
  const pingTicks = Math.max(1, idleTicks - Math.max(1, Math.min(Math.round(PONG_WINDOW_MS / tickMs), Math.floor(idleTicks / 3))));
  let closed = false;

  const refuseUpgrade = (socket: Duplex, path: string, err: ApiError) => {
    const body = JSON.stringify(toProblem(err, path.split('?')[0]!, `${bootId}-u${(++counter).toString(36)}`));
    const extra = Object.entries(err.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.end(`HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? ''}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-content-type-options: nosniff\r\n${extra}connection: close\r\n\r\n${body}`);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = req.url ?? '/';
    void admit(req, path)
      .then((c) => {
        if (closed) throw new ApiError(503, 'service-unavailable', 'Service unavailable', 'The server is stopping.');
        wss.handleUpgrade(req, socket, head, (ws) => open(ws, c));
      })
      .catch((e: unknown) => {
        if (e instanceof ApiError && isSlowdown(e)) return holdRefusal(socket, path, e, req.socket.remoteAddress ?? 'unknown');
        if (e instanceof ApiError) return refuseUpgrade(socket, path, e);
        deps.logger.error('save channel upgrade failed', { path, error: String(e) });
        refuseUpgrade(socket, path, new ApiError(500, 'internal-error', 'Internal server error', 'Something went wrong on the server.'));
      });
  };

  /**
   * A slowed seat's upgrade is refused a second late, at most 16 held per address (more
   * are cut unanswered): a flooder reopening in a loop as fast as it is refused made
   * ~1,800 upgrades a second on loopback, half a core of the server's CPU. A page loses
   * nothing by it: it saves over HTTP meanwhile, and asks over HTTP why (answered at once).
   */
  const held = new Map<string, Set<Duplex>>();
  const holdRefusal = (socket: Duplex, path: string, err: ApiError, address: string) => {
    let sockets = held.get(address);
    if (!sockets) held.set(address, (sockets = new Set()));
    if (sockets.size >= SLOWED_HELD_PER_ADDRESS) return void socket.destroy();
    sockets.add(socket);
    const release = () => {
      sockets.delete(socket);
      if (sockets.size === 0 && held.get(address) === sockets) held.delete(address);
    };
    socket.once('close', release);
    setTimeout(() => {
      release();
      if (!socket.destroyed) refuseUpgrade(socket, path, err);
    }, SLOWED_ANSWER_MS).unref();
  };

  /** The checks of an upgrade; resolves to the attempt and exam ids. */
  const admit = async (req: IncomingMessage, path: string): Promise<{ attemptId: string; examId: string; address: string }> => {
    const m = CHANNEL_PATH.exec(path);
    if (!m || req.method !== 'GET') throw new ApiError(404, 'not-found', 'Not found', `No WebSocket endpoint at ${path.split('?')[0]}.`);
    // switched off: refused before anything else is looked at
    if (deps.config.CBT_SAVE_CHANNEL === 'off') throw channelOff();
    if (!sameOrigin(req, deps.config.CBT_PUBLIC_URL)) throw new Forbidden('The channel opens only from a page of this server (Origin).', { code: 'ORIGIN_REFUSED' });
    let attemptId: string;
    try {
      attemptId = decodeURIComponent(m[1]!);
    } catch {
      throw new NotFound('Attempt');
    }
    const address = req.socket.remoteAddress ?? 'unknown';
    return { ...(await admitChannel(deps, attemptId, address)), address };
  };

  const open = (ws: WebSocket, c: { attemptId: string; examId: string; address: string }) => {
    const ch: Channel = { ws, attemptId: c.attemptId, examId: c.examId, address: c.address, budget: new FrameBudget(deps.config.CBT_ANSWER_RATE_LIMIT_PER_MIN), over: false, pending: 0, tick, pinged: false, ackedSeq: 0, toldDurable: 0, queue: Promise.resolve(), frames: 0 };
    if (closed) return ws.terminate();
    channels.add(ch);
    ws.on('message', (data, isBinary) => {
      if (!counted(ch)) return;
      if (++ch.pending >= PAUSE_AT) ws.pause();
      ch.queue = ch.queue.then(() => frame(ch, data, isBinary));
    });
    // a ping (ws answers it by itself) and a pong — the browser's answer to ours: the page
    // is there — cost a frame's budget like any other
    const control = () => {
      if (counted(ch)) deps.limits.live.limiter.consume(ch.attemptId).catch(() => undefined);
    };
    ws.on('ping', control);
    ws.on('pong', control);
    ws.on('error', (e: Error & { code?: string }) => {
      // a frame over MAX_FRAME_BYTES, refused from its header: ws closes it (1009); it counts
      if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') deps.limits.live.limiter.consume(ch.attemptId).catch(() => undefined);
      ws.terminate();
    });
    ws.on('close', () => channels.delete(ch));
  };

  /**
   * One frame of the connection's budget, taken before the frame costs anything else; a
   * frame over it closes the channel (4429), strikes its seat and drops what still
   * comes unread. False when the frame is not to be handled.
   */
  const counted = (ch: Channel): boolean => {
    if (ch.over) return false;
    ch.tick = tick;
    ch.pinged = false;
    if (ch.budget.take()) return true;
    ch.over = true;
    channels.delete(ch);
    ch.ws.pause();
    const waitS = strikeChannel(deps, ch.attemptId, ch.address);
    deps.logger.warn('save channel over its frame budget: closed', { attemptId: ch.attemptId, address: ch.address, frames: ch.frames + ch.pending, burst: ch.budget.burst, retryAfterSeconds: waitS });
    ch.ws.close(CLOSE_OVER_BUDGET, 'OVER_BUDGET');
    setTimeout(() => ch.ws.terminate(), CUT_AFTER_MS).unref();
    return false;
  };

  const send = (ch: Channel, msg: unknown) => {
    if (ch.ws.readyState === ch.ws.OPEN) ch.ws.send(JSON.stringify(msg));
  };

  /** One client frame: one save, answered with a reply (never throws). */
  const frame = async (ch: Channel, data: RawData, isBinary: boolean): Promise<void> => {
    let id: number | null = null;
    const n = ++ch.frames;
    ch.pending--;
    if (ch.ws.isPaused && ch.pending <= RESUME_AT && !ch.over) ch.ws.resume();
    try {
      // every frame takes its point of the attempt's limit, a malformed one too; its id
      // (read first) goes on a refusal for the limit, so the page can match it
      const o = readFrame(data as Buffer, isBinary);
      if (!(o instanceof ApiError)) id = o.i as number;
      await consume(deps.limits.live, ch.attemptId, LIVE);
      if (o instanceof ApiError) {
        // (no throw, no new error: a flood's refusals must be cheap)
        if (ch.ws.readyState === ch.ws.OPEN) ch.ws.send(malformedReply(o, `/attempts/${ch.attemptId}/channel`, `${bootId}-c${n.toString(36)}`));
        return;
      }
      // the PUT route's checks, in its order: path (the question id) → 400, then the body
      const q = questionParam.safeParse({ questionId: o.q });
      if (!q.success) throw invalidInput('param', q.error);
      const b = singleAnswerSchema.safeParse({ optionId: o.o, text: o.t, seq: o.s });
      if (!b.success) throw invalidInput('json', b.error);
      // an exam made to require SEB since the channel opened: its checks are HTTP's
      if (deps.sessions.paper(ch.examId)?.seb) throw new Forbidden('This exam requires Safe Exam Browser: save over HTTP.', { code: 'SEB_USES_HTTP' });
      const saved = saveAnswers(deps, ch.attemptId, [{ questionId: q.data.questionId, optionId: b.data.optionId, text: b.data.text, seq: b.data.seq }], { questionInPath: true });
      if (saved.seq > ch.ackedSeq) ch.ackedSeq = saved.seq;
      ch.toldDurable = saved.durableSeq;
      send(ch, { i: id, s: saved.seq, a: saved.applied, r: saved.remainingSeconds, d: saved.durableSeq });
    } catch (e) {
      const err = e instanceof ApiError ? e : internal(e, ch);
      const problem: ProblemBody = toProblem(err, `/attempts/${ch.attemptId}/channel`, `${bootId}-c${n.toString(36)}`);
      send(ch, { i: id, p: problem });
      // nothing this attempt sends will be saved any more: the page goes to HTTP, which says why
      const ends = err.status === 403 || err.status === 409 || (err.status === 404 && err.extra.code !== 'QUESTION_NOT_FOUND');
      if (ends) ch.ws.close(4000 + err.status, String(err.extra.code ?? '').slice(0, 60));
    }
  };

  const internal = (e: unknown, ch: Channel): ApiError => {
    deps.logger.error('save channel frame failed', { attemptId: ch.attemptId, error: String(e), stack: (e as Error).stack });
    return new ApiError(500, 'internal-error', 'Internal server error', 'Something went wrong on the server; the error was logged.');
  };

  // After a flush: tell each channel whose acknowledged saves are not all durable yet. The
  // pushes go out in slices a few ms apart, not all in one turn: one flush makes up to one
  // push per candidate who saved in the last second (~480 at 1,000 candidates), and sending
  // them at once held the event loop 4–18 ms — the saves arriving meanwhile waited, which
  // was most of the save tail at 54 Mbit/s (docs/benchmarks.md). Each push reads the
  // watermark when it is sent (only ever the committed one: the buffer's durableSeq).
  let pushing: Channel[] = [];
  let pushAt = 0;
  let pushTimer: NodeJS.Timeout | null = null;
  /** a flush committed while the last one's pushes were still going out */
  let again = false;
  const pushSlice = () => {
    pushTimer = null;
    const end = Math.min(pushing.length, pushAt + pushSliceSize(pushing.length));
    for (; pushAt < end; pushAt++) {
      const ch = pushing[pushAt]!;
      if (!channels.has(ch) || ch.ackedSeq <= ch.toldDurable) continue;
      const d = deps.buffer.durableSeq(ch.attemptId);
      if (d > ch.toldDurable) {
        ch.toldDurable = d;
        send(ch, { d });
      }
    }
    if (pushAt < pushing.length) pushTimer = setTimeout(pushSlice, PUSH_GAP_MS);
    else {
      pushing = [];
      pushAt = 0;
      // then one more pass for that flush (every channel still behind; none left waiting)
      if (again) pushTimer = setTimeout(pushAll, PUSH_GAP_MS);
    }
  };
  const pushAll = () => {
    again = false;
    for (const ch of channels) if (ch.ackedSeq > ch.toldDurable) pushing.push(ch);
    pushSlice();
  };
  const offEvents = deps.events.on((e) => {
    if (e.kind !== 'answers-flushed' || closed) return;
    if (pushTimer) again = true;
    else pushAll();
  });
  const timer = setInterval(() => {
    tick++;
    for (const ch of channels) {
      const silent = tick - ch.tick;
      if (silent > idleTicks) {
        channels.delete(ch);
        ch.ws.close(1000, 'idle');
      } else if (silent >= pingTicks && !ch.pinged && ch.ws.readyState === ch.ws.OPEN) {
        // a live page answers by itself (its browser's pong), so it is never closed for
        // being idle and never reopens its channel for it (docs/decisions.md)
        ch.pinged = true;
        ch.ws.ping();
      }
    }
  }, tickMs);
  timer.unref();

  server.on('upgrade', onUpgrade);
  return {
    get size() {
      return channels.size;
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      if (pushTimer) clearTimeout(pushTimer);
      pushing = [];
      offEvents();
      server.off('upgrade', onUpgrade);
      for (const sockets of held.values()) for (const socket of sockets) socket.destroy();
      held.clear();
      for (const ch of channels) {
        ch.ws.close(1001, 'server stopping');
        // a peer that never answers the close is cut when the socket's close times out;
        // the server's own close must not wait for it
        setTimeout(() => ch.ws.terminate(), 1000).unref();
      }
      channels.clear();
    },
  };
}
