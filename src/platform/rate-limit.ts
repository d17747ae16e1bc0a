/**
 * In-process rate limits (docs/api-overview.md, "Limits", docs/design.md §9) on rate-limiter-flexible's memory
 * limiter: 120/min per API key (per client address on keyless endpoints), 600/min per
 * attempt for live answers and telemetry, start/resume per room code + studentId +
 * address; failed sign-ins are held back by the growing waits of guess-throttle.ts. Over the limit → 429 with Retry-After and the IETF
 * `RateLimit-Policy` / `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from './errors.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './clock.js';
import { GuessThrottle } from './guess-throttle.js';

const MIN = 60_000;

export interface Bucket {
  name: string;
  limiter: RateLimiterMemory;
  points: number;
  windowSeconds: number;
  /** the `RateLimit-Policy` value, built once */
  policy: string;
}

function bucket(name: string, points: number, windowSeconds: number): Bucket {
  // each bucket has its own store, so keys need no prefix (the library's default one
  // builds and hashes a new string on every request, the answer saves included)
  return { name, points, windowSeconds, policy: `"${name}";q=${points};w=${windowSeconds}`, limiter: new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix: '' }) };
}

export class RateLimits {
  readonly general: Bucket;
  readonly live: Bucket;
  readonly start: Bucket;
  /**
   * Wrong PINs (and student IDs not on the roster) per exam + studentId + client address:
   * five within 15 minutes, then growing waits. Never per studentId alone, so one seat's
   * guesses cannot lock a neighbour out, nor one candidate's guesses at their own ID
   * anyone else behind the same address.
   */
  readonly pinBySeat: GuessThrottle;
  /**
   * Different studentIds one client address got wrong within an exam (exam + address;
   * repeated guesses at one studentId count once): 100 within 15 minutes, then growing
   * waits from 10 s. A whole hall may share one address (NAT, a reverse proxy), so this
   * is sized for a hall of 1,000 where one in ten mistypes an ID, and holds back only
   * someone walking the ID space (docs/decisions.md, "Throttles keyed by what a guesser controls").
   */
  readonly pinByAddress: GuessThrottle;
  /** Unknown room codes per client address. */
  readonly roomByAddress: GuessThrottle;
  /** Failed examiner sign-ins per e-mail + address (ASVS V2.2.1: ≤ 100 per hour). */
  readonly loginBySeat: GuessThrottle;
  /** Failed examiner sign-ins per address, whatever the e-mail. */
  readonly loginByAddress: GuessThrottle;
  /** Wrong operator credentials per address. */
  readonly operatorByAddress: GuessThrottle;
  /**
   * Save channels closed over their frame budget, per attempt + address (the seat): each
   * such close holds its next channel back 10 s, 20 s, … up to 5 min (docs/decisions.md,
   * "Save channel budgets: per frame, per connection, per seat").
   */
  readonly channelBySeat: GuessThrottle;
  /** The same per address, counting distinct attempts: from the third, every channel of that address waits. */
  readonly channelByAddress: GuessThrottle;

  constructor(config: Pick<Config, 'CBT_RATE_LIMIT_PER_MIN' | 'CBT_ANSWER_RATE_LIMIT_PER_MIN'>, clock: Clock = systemClock) {
    this.general = bucket('general', config.CBT_RATE_LIMIT_PER_MIN, 60);
    this.live = bucket('live', config.CBT_ANSWER_RATE_LIMIT_PER_MIN, 60);
    this.start = bucket('start', 30, 60);
    const guesses = (name: string, free: number, baseDelayMs: number) => new GuessThrottle({ name, free, windowMs: 15 * MIN, baseDelayMs, maxDelayMs: 15 * MIN }, clock);
    this.pinBySeat = guesses('pin', 5, 30_000);
    this.pinByAddress = guesses('pin-address', 100, 10_000);
    this.roomByAddress = guesses('room-code', 20, 10_000);
    this.loginBySeat = guesses('login', 10, 30_000);
    this.loginByAddress = guesses('login-address', 50, 30_000);
    this.operatorByAddress = guesses('operator', 10, 30_000);
    this.channelBySeat = new GuessThrottle({ name: 'save-channel', free: 1, windowMs: 15 * MIN, baseDelayMs: 10_000, maxDelayMs: 5 * MIN }, clock);
    this.channelByAddress = new GuessThrottle({ name: 'save-channel-address', free: 3, windowMs: 15 * MIN, baseDelayMs: 10_000, maxDelayMs: 5 * MIN }, clock);
  }
}

/** Response headers describing a bucket's state after a request (`ratelimit-policy`, `ratelimit`; names in lower case, as on the wire). */
export function rateLimitHeaders(b: Bucket, remaining: number, msBeforeNext: number): Record<string, string> {
  const t = Math.max(0, Math.ceil(msBeforeNext / 1000));
  return { 'ratelimit-policy': b.policy, ratelimit: `"${b.name}";r=${Math.max(0, remaining)};t=${t}` };
}

/**
 * Takes one point from `key` in `b`. One promise (the limiter's) and no async wrapper:
 * this runs on every live answer save.
 * @returns headers to attach to the response (see rateLimitHeaders)
 * @throws TooManyRequests (429, via the promise) when the bucket is empty
 */
export function consume(b: Bucket, key: string, what = 'requests'): Promise<Record<string, string>> {
  return b.limiter.consume(key).then(
    (res) => rateLimitHeaders(b, res.remainingPoints, res.msBeforeNext),
    (e: unknown) => {
      if (!(e instanceof RateLimiterRes)) throw e;
      const retry = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
      throw new TooManyRequests(
        `Too many ${what}: the limit is ${b.points} per ${b.windowSeconds} s. Try again in ${retry} s.`,
        retry,
        rateLimitHeaders(b, 0, e.msBeforeNext),
      );
    },
  );
}
