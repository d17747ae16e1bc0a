/**
 * Throttles for guessed secrets (docs/design.md §4 and §7, issue 22 part 3): wrong candidate
 * PINs, wrong room codes, wrong examiner passwords, wrong operator credentials.
 *
 * A key (e.g. exam + studentId + client address) may fail `free` times within
 * `windowMs`; after that each further failure makes the key wait a growing delay
 * (`baseDelayMs` × 2^(failures − free), at most `maxDelayMs`) before it may try again.
 * A failure older than `windowMs` with no later one is forgotten. Nothing is a hard
 * lock: the wait always ends, and it is kept per key so one address's guesses never
 * hold another address back. Time comes from the injected clock (tests move it); state
 * is in memory (an LRU of at most `maxKeys` keys), so a restart clears it.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from './clock.js';
import { TooManyRequests } from './errors.js';

/** Shape of one throttle. */
export interface ThrottlePolicy {
  /** name in the RateLimit-Policy header and problem detail */
  name: string;
  /** failures allowed before any delay */
  free: number;
  /** failures are forgotten this long after the last one (ms) */
  windowMs: number;
  /** delay after the first failure over `free` (ms); doubles with each further one */
  baseDelayMs: number;
  maxDelayMs: number;
}

interface Entry {
  failures: number;
  lastAt: number;
}

/** Seconds to wait (≥ 1) when a key is held back, else 0. */
export interface ThrottleState {
  failures: number;
  lastAt: number;
  retryAfterSeconds: number;
}

export class GuessThrottle {
  /**
   * Made at the first failure: lru-cache allocates its arrays for all `maxKeys` up front
   * (20–70 ms each on the 2-core hall machine, six throttles), which every start of the
   * server paid before it listened, though most throttles never see a failure.
   */
  private entries: LRUCache<string, Entry> | null = null;

  constructor(
    readonly policy: ThrottlePolicy,
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {}

  private live(key: string, now: number): Entry | undefined {
    const e = this.entries?.get(key);
    if (!e) return undefined;
    const waitEnds = e.lastAt + this.delayMs(e.failures);
    if (now - e.lastAt > this.policy.windowMs && now >= waitEnds) {
      this.entries?.delete(key);
      return undefined;
    }
    return e;
  }

  /** The wait after `failures` failures (ms): 0 up to `free`, then growing. */
  delayMs(failures: number): number {
    const over = failures - this.policy.free;
    if (over < 0) return 0;
    return Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** Math.min(over, 30));
  }

  /** The key's state now (failures counted, seconds still to wait). */
  state(key: string): ThrottleState {
    const now = this.clock.now();
    const e = this.live(key, now);
    if (!e) return { failures: 0, lastAt: 0, retryAfterSeconds: 0 };
    const left = e.lastAt + this.delayMs(e.failures) - now;
    return { failures: e.failures, lastAt: e.lastAt, retryAfterSeconds: left > 0 ? Math.max(1, Math.ceil(left / 1000)) : 0 };
  }

  /**
   * Throws 429 (Retry-After) when the key must still wait.
   * @param what the sentence start of the problem detail, e.g. "Too many wrong PINs from this computer"
   */
  check(key: string, what: string): void {
    const s = this.state(key);
    if (s.retryAfterSeconds > 0) {
      throw new TooManyRequests(`${what}. Try again in ${s.retryAfterSeconds} s, or ask the invigilator.`, s.retryAfterSeconds, {
        'ratelimit-policy': `"${this.policy.name}";q=${this.policy.free};w=${Math.round(this.policy.windowMs / 1000)}`,
      });
    }
  }

  /** Counts one failure against the key. */
  fail(key: string): void {
    const now = this.clock.now();
    const e = this.live(key, now);
    if (e) {
      e.failures++;
      e.lastAt = now;
    } else (this.entries ??= new LRUCache({ max: this.maxKeys })).set(key, { failures: 1, lastAt: now });
  }

  /** Forgets one key (a successful sign-in). */
  clear(key: string): void {
    this.entries?.delete(key);
  }

  /** Forgets every key starting with `prefix`; returns how many. */
  clearPrefix(prefix: string): number {
    let n = 0;
    for (const k of [...(this.entries?.keys() ?? [])]) {
      if (k.startsWith(prefix)) {
        this.entries?.delete(k);
        n++;
      }
    }
    return n;
  }

  /** Live keys starting with `prefix`, with their states (for the invigilator's monitor). */
  list(prefix: string): { key: string; state: ThrottleState }[] {
    const out: { key: string; state: ThrottleState }[] = [];
    for (const k of [...(this.entries?.keys() ?? [])]) if (k.startsWith(prefix)) {
      const state = this.state(k);
      if (state.failures > 0) out.push({ key: k, state });
    }
    return out;
  }
}
