/**
 * The hub's two ways in (docs/hub-protocol.md): examiners by API key or a board account's
 * session (docs/hub.md, "The board's page"), halls by an Ed25519
 * signature over each request. A hall request is refused (401 problem details and an audit
 * row naming the reason) for an unknown or unenrolled hall, a bad signature, a timestamp
 * more than 5 minutes off, or a nonce already seen by any hub process (a PostgreSQL
 * primary key). An accepted request records the hall's last contact and clock offset.
 */
import type { MiddlewareHandler } from 'hono';
import { eq, sql } from 'drizzle-orm';
import { checkSignedRequest } from '../core/sync/signing.js';
import { presentedKey } from '../platform/auth.js';
import { Unauthorized } from '../platform/errors.js';
import { audit } from './audit.js';
import type { HubDeps, HubEnv } from './deps.js';
import { halls } from './db/schema.js';

/** How often an accepted request refreshes the hall's last contact (a busy hall writes it once, not per request). */
const CONTACT_EVERY_MS = 5_000;
import { examinerByKey } from './keys.js';
import { accountBySession, isSessionToken } from './board-accounts.js';
import { ALL_ROLES, assertRole } from './board-roles.js';

/**
 * Middleware: an examiner — a hub API key (all roles) or a board account's session token
 * (its roles) — as `Authorization: Bearer` or `x-api-key`; 401 otherwise, and 403 when the
 * roles do not allow the request (src/hub/board-roles.ts).
 */
export function requireExaminer(deps: HubDeps): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    if (c.get('examiner')) return next();
    const key = presentedKey(c.req.header('authorization'), c.req.header('x-api-key'));
    if (!key) throw new Unauthorized('Sign in on the board\'s page, or send a hub API key (Authorization: Bearer <key> or x-api-key).');
    if (isSessionToken(key)) {
      const account = await accountBySession(deps, key);
      if (!account) throw new Unauthorized('Your session has ended (signed out, expired after 12 hours, or the account changed): sign in again.', { code: 'SESSION_ENDED' });
      assertRole(account.roles, c.req.method, c.req.path);
      c.set('examiner', { id: account.id, name: account.name });
      c.set('roles', account.roles);
      c.set('sessionToken', key);
      return next();
    }
    const examiner = await examinerByKey(deps.db, key);
    if (!examiner) throw new Unauthorized('The API key is not valid.');
    c.set('examiner', examiner);
    c.set('roles', [...ALL_ROLES]);
    return next();
  };
}

/** Middleware: a request signed by an enrolled hall (see the module header). */
export function requireHallSignature(deps: HubDeps): MiddlewareHandler<HubEnv> {
  return async (c, next) => {
    // hono's '/x/*' also matches '/x': a route under two patterns must check once (its nonce is spent)
    if (c.get('hall')) return next();
    const hallId = c.req.header('x-hall-id') ?? '';
    const now = deps.clock.now();
    const refuse = async (reason: string, detail: string) => {
      await audit(deps.db, { at: new Date(now), actor: hallId ? `hall:${hallId}` : 'unknown', action: 'hall-request-refused', hallId: hallId || null, detail: { reason, method: c.req.method, path: c.req.path } });
      return new Unauthorized(detail, { code: `HALL_${reason.toUpperCase()}` });
    };
    const rows = hallId ? await deps.db.select({ id: halls.id, name: halls.name, publicKey: halls.publicKey }).from(halls).where(eq(halls.id, hallId)) : [];
    const hall = rows[0];
    if (!hall?.publicKey) throw await refuse('unknown', 'This request is not from an enrolled hall (x-hall-id unknown or not enrolled).');
    const url = new URL(c.req.url);
    const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? '' : await c.req.text();
    const check = checkSignedRequest({
      publicKey: hall.publicKey,
      method: c.req.method,
      pathWithQuery: url.pathname + url.search,
      body,
      headers: { timestamp: c.req.header('x-hall-timestamp'), nonce: c.req.header('x-hall-nonce'), signature: c.req.header('x-hall-signature') },
      now,
    });
    if (!check.ok) {
      const detail = {
        headers: 'The request lacks valid x-hall-timestamp, x-hall-nonce or x-hall-signature headers.',
        signature: "The request's signature does not verify with this hall's enrolled key.",
        clock: "The request's timestamp is more than 5 minutes from the hub's clock: set the hall machine's clock.",
      }[check.reason];
      throw await refuse(check.reason, detail);
    }
    // one statement: spend the nonce and, at most every 5 s, record the hall's last contact
    const at = new Date(now);
    const fresh = await deps.db.execute(sql`
      WITH spent AS (INSERT INTO request_nonces (hall_id, nonce, seen_at) VALUES (${hall.id}, ${c.req.header('x-hall-nonce')!}, ${at}) ON CONFLICT DO NOTHING RETURNING 1),
           contact AS (UPDATE halls SET last_contact_at = ${at}, clock_offset_ms = ${check.clockOffsetMs}
                        WHERE id = ${hall.id} AND EXISTS (SELECT 1 FROM spent) AND (last_contact_at IS NULL OR last_contact_at < ${new Date(now - CONTACT_EVERY_MS)}))
      SELECT count(*)::int AS n FROM spent`);
    if ((fresh.rows[0] as { n: number }).n === 0) throw await refuse('replay', 'This request was already received (its nonce was seen before): a replay is refused.');
    c.set('hall', { id: hall.id, name: hall.name });
    return next();
  };
}
