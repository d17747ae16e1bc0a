/**
 * What one save channel may cost the server (issue #34, finding 2; docs/decisions.md,
 * "Save channel budgets: per frame, per connection, per seat"): every frame a channel
 * receives — a save, bad JSON, a wrong shape, a binary or oversized frame, a ping or a
 * pong — takes a token of the connection's `FrameBudget` and a point of the attempt's
 * live rate limit. A channel whose budget is empty is closed with CLOSE_OVER_BUDGET
 * (4429), and its seat (this attempt from this client address) may not open a channel
 * again for a growing time (429 with Retry-After on the upgrade — answered after a second,
 * so a flooder reopening in a loop does so once a second — and on the plain GET),
 * nor, once three attempts from one address were closed so within 15 min, any channel
 * from that address. HTTP saves are never held back by this: a hall behind one NAT
 * address keeps saving over PUT while a flooder's channel waits.
 *
 * The refusals of malformed frames are built once here (ApiError objects and their
 * problem members): a flood made every frame build and throw a new error with a stack
 * trace, which was most of the event loop's time (docs/reliability.md).
 */
import type { HallDeps } from '../../hall/deps.js';
import { toProblem, ValidationError, type ApiError } from '../../platform/errors.js';

/** The close code of a channel over its frame budget: 4000 + 429 (as 4403, 4404, 4409). */
export const CLOSE_OVER_BUDGET = 4429;
/** The connection's budget follows the attempt's limit, but never above this per minute. */
const MAX_FRAMES_PER_MIN = 600;
/** Frames a connection may send at once: ten seconds of its rate, at least this. */
const MIN_BURST = 20;

/**
 * A token bucket of frames for one connection (synchronous: checked before a frame costs
 * anything else). Rate: `perMin` = min(CBT_ANSWER_RATE_LIMIT_PER_MIN, 600) a minute;
 * burst: ten seconds of it, at least 20 (100 frames at the default 600 a minute, where
 * a candidate's page sends one frame per answer changed).
 */
export class FrameBudget {
  private tokens: number;
  private at: number;
  private readonly perMs: number;
  readonly burst: number;

  /** @param limitPerMin the attempt's live rate limit (frames per minute) */
  constructor(limitPerMin: number, now = performance.now()) {
    const perMin = Math.min(limitPerMin, MAX_FRAMES_PER_MIN);
    this.perMs = perMin / 60_000;
    this.burst = Math.max(MIN_BURST, Math.ceil(perMin / 6));
    this.tokens = this.burst;
    this.at = now;
  }

  /** Takes one frame's token; false when the budget is empty (the channel is then closed). */
  take(now = performance.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (now - this.at) * this.perMs);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

const seatKey = (attemptId: string, address: string) => `${attemptId}|${address}`;

/**
 * Refuses a channel whose seat (attempt + client address), or whose address, is still
 * slowed after a channel closed over its budget.
 * @throws TooManyRequests (429, Retry-After, `retryAfterSeconds`)
 */
export function checkChannelSlowdown(deps: HallDeps, attemptId: string, address: string): void {
  // a flooder reopens its channel as fast as it is refused (~1,500 times a second on
  // loopback): the refusal is made without a stack trace, which was most of its cost
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    deps.limits.channelBySeat.check(seatKey(attemptId, address), 'This attempt’s save channel sent more frames than a page sends and was closed; saves go over HTTP meanwhile');
    deps.limits.channelByAddress.check(address, 'Several save channels from this computer sent more frames than a page sends; saves go over HTTP meanwhile');
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** A slowed seat's or address's upgrade is answered (429) this long after it came ... */
export const SLOWED_ANSWER_MS = 1000;
/** ... and at most this many of one address are held so; beyond, they are cut unanswered. */
export const SLOWED_HELD_PER_ADDRESS = 16;

/** Whether a refusal is checkChannelSlowdown's (not the attempt's rate limit nor another 429). */
export function isSlowdown(err: ApiError): boolean {
  return err.status === 429 && (err.headers['ratelimit-policy'] ?? '').startsWith('"save-channel');
}

/**
 * Counts a channel closed over its budget against its seat, and — the seat's first
 * within the throttle's window — against its address (so the address counts distinct
 * attempts, not one attempt's repeated floods).
 * @returns the seconds the seat now waits before its next channel
 */
export function strikeChannel(deps: HallDeps, attemptId: string, address: string): number {
  const seat = seatKey(attemptId, address);
  const first = deps.limits.channelBySeat.state(seat).failures === 0;
  deps.limits.channelBySeat.fail(seat);
  if (first) deps.limits.channelByAddress.fail(address);
  return deps.limits.channelBySeat.state(seat).retryAfterSeconds;
}

/** The refusal of a frame that is not JSON text (made once: a refusal must be cheap). */
export const NOT_JSON = new ValidationError('The frame is not valid JSON text.', [{ path: '(frame)', message: 'malformed JSON' }]);
/** The refusal of a frame that is JSON but not an object. */
export const NOT_OBJECT = new ValidationError('A frame is a JSON object: {"i", "q", "o"|"t", "s"}.', [{ path: '(frame)', message: 'must be an object' }]);
/** The refusal of a frame without a usable id. */
export const BAD_ID = new ValidationError('The frame id i must be a whole number ≥ 0.', [{ path: 'i', message: 'must be a whole number ≥ 0' }]);

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
const frameIdOk = (i: unknown): i is number => typeof i === 'number' && Number.isSafeInteger(i) && i >= 0;

/**
 * A text frame's JSON object with a usable id `i`, or the prebuilt refusal of a malformed
 * frame. Cheap on garbage: a frame whose first and last non-blank bytes are not `{` `}`
 * is refused unparsed (NOT_OBJECT: whatever it is, it is not a JSON object), a binary
 * one likewise (NOT_JSON), and JSON.parse's SyntaxError is made without a stack trace
 * (capturing one cost ~30× the parse of a small frame).
 */
export function readFrame(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): Record<string, unknown> | ValidationError {
  if (isBinary) return NOT_JSON;
  const b = Buffer.isBuffer(data) ? data : Buffer.from(String(data));
  let a = 0;
  let z = b.length - 1;
  while (a < z && isSpace(b[a]!)) a++;
  while (z > a && isSpace(b[z]!)) z--;
  if (b[a] !== 0x7b || b[z] !== 0x7d || a === z) return NOT_OBJECT;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let f: unknown;
  try {
    f = JSON.parse(b.toString('utf8'));
  } catch {
    return NOT_JSON;
  } finally {
    Error.stackTraceLimit = limit;
  }
  return frameIdOk((f as Record<string, unknown>).i) ? (f as Record<string, unknown>) : BAD_ID;
}

const serialized = new Map<ValidationError, string>();
/**
 * The reply to a malformed frame, `{"i": null, "p": problem}`, as JSON text: the problem
 * body of toProblem() (same members, same order), its constant part serialized once.
 */
export function malformedReply(err: ValidationError, instance: string, requestId: string): string {
  let head = serialized.get(err);
  if (head === undefined) {
    const { instance: _i, requestId: _r, ...rest } = toProblem(err, '', '');
    head = JSON.stringify(rest).slice(0, -1);
    serialized.set(err, head);
  }
  return `{"i":null,"p":${head},"instance":${JSON.stringify(instance)},"requestId":${JSON.stringify(requestId)}}}`;
}
