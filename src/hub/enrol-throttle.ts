/**
 * Enrolment-code guesses on the hub (issue #34, finding 9b; docs/decisions.md, "Enrolment
 * guesses on the hub"): counted in PostgreSQL by rate-limiter-flexible's RateLimiterPostgres
 * (table `hub_rate_limits`), so every hub process counts in the same rows.
 *
 * - Per client address (an IPv6 address counts by its /64): 10 tries per 10 minutes.
 * - For the whole hub: 60 tries per minute, whoever sends them.
 * A try is reserved before the code is looked at and given back when the enrolment succeeds,
 * so only wrong codes count and a board enrolling many halls from one office is never held.
 * Over a limit → 429 with Retry-After, and the code is not even looked at. Audit rows are
 * bounded: a wrong code under the limit writes its `enrolment-refused` row (at most 10 per
 * address and 60 per minute in all); going over a limit writes ONE `enrolment-throttled`
 * row per window (an address's row spends one of the hub's 60, so a thousand addresses
 * cannot write a thousand rows); every further guess in that window writes nothing.
 */
import type { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from '../platform/errors.js';
import { audit } from './audit.js';
import type { HubDb } from './db/index.js';

/** Wrong enrolment codes allowed per client address per window. */
export const ENROL_TRIES_PER_ADDRESS = 10;
export const ENROL_ADDRESS_WINDOW_S = 600;
/** Enrolment tries allowed per window across the whole hub. */
export const ENROL_TRIES_PER_HUB = 60;
export const ENROL_HUB_WINDOW_S = 60;

/** The key an address counts under: IPv4 as is (also when IPv4-mapped), IPv6 by its /64. */
export function addressKey(address: string): string {
  const a = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!a.includes(':')) return a;
  const [head = '', tail = ''] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** A reserved try: `giveBack()` after a successful enrolment. */
export interface EnrolTry {
  giveBack(): Promise<void>;
}

export class EnrolThrottle {
  private readonly byAddress: RateLimiterPostgres;
  private readonly hub: RateLimiterPostgres;

  /** `pool`: the hub's node-postgres pool (the table comes from the hub's migrations). */
  constructor(pool: Pool) {
    const common = { storeClient: pool, storeType: 'pool', tableName: 'hub_rate_limits', tableCreated: true };
    this.byAddress = new RateLimiterPostgres({ ...common, keyPrefix: 'enrol-address', points: ENROL_TRIES_PER_ADDRESS, duration: ENROL_ADDRESS_WINDOW_S });
    this.hub = new RateLimiterPostgres({ ...common, keyPrefix: 'enrol-hub', points: ENROL_TRIES_PER_HUB, duration: ENROL_HUB_WINDOW_S });
  }

  /**
   * Reserves one try for `address` before its code is checked.
   * @param at the hub's clock (audit rows only; the windows run on the wall clock)
   * @throws TooManyRequests (429, Retry-After) over either limit
   */
  async take(db: HubDb, address: string, at: Date): Promise<EnrolTry> {
    const key = addressKey(address);
    try {
      await this.byAddress.consume(key);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      // the first refusal of this window (the counter is atomic) writes the one row, if the hub's budget allows
      if (e.consumedPoints === ENROL_TRIES_PER_ADDRESS + 1 && (await this.hub.consume('all').then(() => true, () => false))) {
        await audit(db, { at, actor: 'unknown', action: 'enrolment-throttled', detail: { scope: 'address', address: key, limit: ENROL_TRIES_PER_ADDRESS, windowSeconds: ENROL_ADDRESS_WINDOW_S } });
      }
      throw tooMany(e, `${ENROL_TRIES_PER_ADDRESS} wrong enrolment codes from this address within ${ENROL_ADDRESS_WINDOW_S / 60} minutes`);
    }
    try {
      await this.hub.consume('all');
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      await this.byAddress.reward(key, 1); // this try never reached the code
      if (e.consumedPoints === ENROL_TRIES_PER_HUB + 1) await audit(db, { at, actor: 'unknown', action: 'enrolment-throttled', detail: { scope: 'hub', limit: ENROL_TRIES_PER_HUB, windowSeconds: ENROL_HUB_WINDOW_S } });
      throw tooMany(e, `more than ${ENROL_TRIES_PER_HUB} enrolment tries on this hub within a minute`);
    }
    return { giveBack: async () => void (await Promise.all([this.byAddress.reward(key, 1), this.hub.reward('all', 1)])) };
  }
}

function tooMany(res: RateLimiterRes, why: string): TooManyRequests {
  const retry = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new TooManyRequests(`Too many enrolment tries: ${why}. Try again in ${retry} s, with the code exactly as the exam board gave it.`, retry);
}
