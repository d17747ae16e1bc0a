/**
 * The hall's API-key authentication (docs/design.md §4): the presented key
 * (platform/auth.ts) is looked up by its SHA-256 digest (no plaintext comparison).
 * Missing or unknown → 401. Sets `c.var.workspace` and counts the request against the
 * key's per-minute budget (CBT_RATE_LIMIT_PER_MIN).
 */
import type { MiddlewareHandler } from 'hono';
import { sha256Hex } from '../platform/crypto.js';
import { Unauthorized } from '../platform/errors.js';
import { consume } from '../platform/rate-limit.js';
import { presentedKey } from '../platform/auth.js';
import type { AppEnv } from '../platform/deps.js';
import type { AppDeps } from './deps.js';

/** Middleware: requires a valid API key; 401 otherwise. */
export function requireApiKey(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const stmt = deps.sqlite.prepare('SELECT id, name FROM workspaces WHERE api_key_digest = ?');
  return async (c, next) => {
    // routers mounted at the same prefix may each register this middleware: run once
    if (c.get('workspace')) return next();
    const key = presentedKey(c.req.header('authorization'), c.req.header('x-api-key'));
    if (!key) throw new Unauthorized();
    const ws = stmt.get(sha256Hex(key)) as { id: string; name: string } | undefined;
    if (!ws) throw new Unauthorized('The API key is not valid.');
    const headers = await consume(deps.limits.general, `key:${ws.id}`);
    c.set('workspace', ws);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
