/**
 * API-key authentication (spec "Authentication", DESIGN §4): the key comes in
 * `Authorization: Bearer <key>` or `x-api-key: <key>`; it is looked up by its SHA-256
 * digest (no plaintext comparison). Missing or unknown → 401. Sets `c.var.workspace`
 * and counts the request against the key's 120/min budget.
 */
import type { MiddlewareHandler } from 'hono';
import { sha256Hex } from './crypto.js';
import { Unauthorized } from './errors.js';
import { consume } from './rate-limit.js';
import type { AppDeps, AppEnv } from './deps.js';

/** Extracts the presented API key from the request headers, or null. */
export function presentedKey(authorization: string | undefined, xApiKey: string | undefined): string | null {
  if (xApiKey && xApiKey.trim()) return xApiKey.trim();
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m) return m[1]!;
  }
  return null;
}

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
