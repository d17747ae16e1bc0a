/**
 * Failed board sign-ins counted in PostgreSQL (docs/decisions.md, "Board sign-in throttle in
 * PostgreSQL"): the hall's guess throttle (src/platform/guess-throttle.ts — a key may fail
 * `free` times, then each further failure makes it wait `baseDelayMs` × 2^(failures − free),
 * at most `maxDelayMs`; a key is forgotten `windowMs` after its last failure once its wait
 * is over), with its state in the rows of `hub_rate_limits` instead of process memory, so a
 * restart does not reset it and every hub process behind a load balancer counts the same
 * failures.
 *
 * A row is `key` = `<policy name>:<SHA-256 hex of the key>` (no e-mail or address stored in
 * clear; within the column's 255 characters), `points` = failures, `expire` = the moment (ms
 * since the epoch, the hub's clock) the key is forgotten, `lastAt + max(windowMs,
 * delay(failures))`; the last failure's time is recovered from it, as the delay follows from
 * the failures. A failure is one atomic upsert, so two processes never lose a count.
 */
import { sql } from 'drizzle-orm';
import { sha256Hex } from '../platform/crypto.js';
import type { Clock } from '../platform/clock.js';
import { TooManyRequests } from '../platform/errors.js';
import type { ThrottlePolicy } from '../platform/guess-throttle.js';
import type { HubDb } from './db/index.js';

export class PgGuessThrottle {
  constructor(
    readonly policy: ThrottlePolicy,
    private readonly db: HubDb,
    private readonly clock: Clock,
  ) {}

  /** The wait after `failures` failures (ms): 0 up to `free`, then growing (as GuessThrottle.delayMs). */
  delayMs(failures: number): number {
    const over = failures - this.policy.free;
    if (over < 0) return 0;
    return Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** Math.min(over, 30));
  }

  private rowKey(key: string): string {
    return `${this.policy.name}:${sha256Hex(key)}`;
  }

  /** Seconds `key` must still wait (0: it may try now). */
  async retryAfterSeconds(key: string): Promise<number> {
    const now = this.clock.now();
    const rows = (await this.db.execute(sql`SELECT points, expire FROM hub_rate_limits WHERE key = ${this.rowKey(key)}`)).rows as { points: number; expire: string | number | null }[];
    const row = rows[0];
    if (!row || row.expire === null || Number(row.expire) <= now) return 0;
    const delay = this.delayMs(row.points);
    const lastAt = Number(row.expire) - Math.max(this.policy.windowMs, delay);
    const left = lastAt + delay - now;
    return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : 0;
  }

  /**
   * Throws 429 (Retry-After, RateLimit-Policy) while `key` must wait.
   * @param what the sentence start of the problem detail, e.g. "Too many failed sign-ins from this computer"
   */
  async check(key: string, what: string): Promise<void> {
    const wait = await this.retryAfterSeconds(key);
    if (wait > 0) {
      throw new TooManyRequests(`${what}. Try again in ${wait} s.`, wait, {
        'ratelimit-policy': `"${this.policy.name}";q=${this.policy.free};w=${Math.round(this.policy.windowMs / 1000)}`,
      });
    }
  }

  /** Counts one failure against `key` (a forgotten key starts again at one). */
  async fail(key: string): Promise<void> {
    const now = this.clock.now();
    const { free, baseDelayMs, maxDelayMs, windowMs } = this.policy;
    const failures = sql`(CASE WHEN hub_rate_limits.expire IS NULL OR hub_rate_limits.expire <= ${now} THEN 1 ELSE hub_rate_limits.points + 1 END)`;
    const delay = sql`(CASE WHEN ${failures} < ${free} THEN 0 ELSE least(${maxDelayMs}::bigint, ${baseDelayMs}::bigint * power(2, least(${failures} - ${free}, 30))::bigint) END)`;
    await this.db.execute(sql`
      INSERT INTO hub_rate_limits (key, points, expire) VALUES (${this.rowKey(key)}, 1, ${now + Math.max(windowMs, this.delayMs(1))})
      ON CONFLICT (key) DO UPDATE SET points = ${failures}, expire = ${now}::bigint + greatest(${windowMs}::bigint, ${delay})`);
  }

  /** Forgets `key` (a successful sign-in). */
  async clear(key: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM hub_rate_limits WHERE key = ${this.rowKey(key)}`);
  }
}
