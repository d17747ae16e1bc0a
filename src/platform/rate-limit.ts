/**
 * In-process rate limits (spec "Limits", DESIGN §9) on rate-limiter-flexible's memory
 * limiter: 120/min per API key (per client address on keyless endpoints), 600/min per
 * attempt for live answers and telemetry, start/resume per room code + studentId, and
 * login / PIN failure throttles. Over the limit → 429 with Retry-After and the IETF
 * `RateLimit-Policy` / `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from './errors.js';
import type { Config } from './config.js';

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
  /** failed sign-ins per e-mail: ASVS V2.2.1 allows at most 100 per hour; we allow 10 per 15 min */
  readonly loginFailuresByEmail: Bucket;
  readonly loginFailuresByAddress: Bucket;
  /** five wrong PINs for one studentId within 15 minutes → 429 (DESIGN §4, §7) */
  readonly pinFailures: Bucket;

  constructor(config: Pick<Config, 'CBT_RATE_LIMIT_PER_MIN' | 'CBT_ANSWER_RATE_LIMIT_PER_MIN'>) {
    this.general = bucket('general', config.CBT_RATE_LIMIT_PER_MIN, 60);
    this.live = bucket('live', config.CBT_ANSWER_RATE_LIMIT_PER_MIN, 60);
    this.start = bucket('start', 30, 60);
    this.loginFailuresByEmail = bucket('login', 10, 15 * 60);
    this.loginFailuresByAddress = bucket('login-address', 50, 15 * 60);
    this.pinFailures = bucket('pin', 5, 15 * 60);
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

/** Whether `key` has used up its bucket, without consuming; retryAfterSeconds ≥ 1 when blocked. */
export async function isBlocked(b: Bucket, key: string): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
  const r = await b.limiter.get(key);
  if (!r || r.consumedPoints < b.points) return { blocked: false, retryAfterSeconds: 0 };
  return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil(r.msBeforeNext / 1000)) };
}

/** Counts one failure (login, PIN) against `key`; never throws for being over. */
export async function recordFailure(b: Bucket, key: string): Promise<void> {
  await b.limiter.penalty(key, 1);
}

/** Clears a key (after a successful login). */
export async function reset(b: Bucket, key: string): Promise<void> {
  await b.limiter.delete(key);
}
