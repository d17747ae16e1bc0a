/**
 * The hall operator's credential (docs/design.md §4, §11; issue 22 part 2): whole-appliance
 * operations (backups now; restore is scripts/restore on the machine itself) need it, and
 * a workspace API key — which anyone on the hall network can obtain by signing up —
 * never reaches them.
 *
 * The credential is `cbtop_` + 40 random base62 characters (≈ 238 bits). Only its
 * SHA-256 digest is stored, in `<DATA_DIR>/operator.key` (JSON, mode 0600): a digest is
 * enough for a secret that cannot be guessed, as for API keys. It is created by
 * scripts/install (printed once), or on the first `npm start` of a fresh data directory
 * (printed once in the banner), and replaced with `scripts/operator rotate`, which writes
 * the same file format. The file is read on each check, so a rotation takes effect at
 * once in a running server.
 *
 * Requests carry it in `x-operator-key: <credential>` or `Authorization: Bearer
 * cbtop_…`. Missing or wrong → 401; a valid workspace API key instead → 403 (it is a
 * known caller who may not do this). Wrong credentials are held back per address.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { randomBase62 } from '../platform/ids.js';
import { sha256Hex } from '../platform/crypto.js';
import { ApiError, Unauthorized } from '../platform/errors.js';
import { presentedKey } from '../platform/auth.js';
import { clientAddress } from '../platform/http.js';
import type { AppEnv } from '../platform/deps.js';
import type { AppDeps } from './deps.js';

/** File name of the stored digest inside the data directory. */
export const OPERATOR_FILE = 'operator.key';
const PREFIX = 'cbtop_';

/** A fresh operator credential (not stored). */
export function newOperatorCredential(): string {
  return `${PREFIX}${randomBase62(40)}`;
}

/** Stores a new credential's digest in `dataDir` (atomically, mode 0600) and returns the credential. */
export function rotateOperatorCredential(dataDir: string, now = Date.now()): string {
  const credential = newOperatorCredential();
  const file = join(dataDir, OPERATOR_FILE);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ v: 1, sha256: sha256Hex(credential), createdAt: new Date(now).toISOString() })}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return credential;
}

/** Creates the credential when `dataDir` has none; returns it then (to print once), else null. */
export function ensureOperatorCredential(dataDir: string): string | null {
  return existsSync(join(dataDir, OPERATOR_FILE)) ? null : rotateOperatorCredential(dataDir);
}

/** The stored digest (hex), or null when none is set or the file is unreadable. */
function storedDigest(dataDir: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, OPERATOR_FILE), 'utf8')) as { sha256?: unknown };
    return typeof parsed.sha256 === 'string' && /^[0-9a-f]{64}$/.test(parsed.sha256) ? parsed.sha256 : null;
  } catch {
    return null;
  }
}

/** Whether `presented` is the operator credential of `dataDir` (constant-time digest comparison). */
export function isOperatorCredential(dataDir: string, presented: string): boolean {
  const stored = storedDigest(dataDir);
  if (!stored) return false;
  const a = createHash('sha256').update(presented, 'utf8').digest();
  return timingSafeEqual(a, Buffer.from(stored, 'hex'));
}

/** The operator credential a request presents, or null. */
function presentedOperator(authorization: string | undefined, xOperator: string | undefined): string | null {
  if (xOperator?.trim()) return xOperator.trim();
  const bearer = presentedKey(authorization, undefined);
  return bearer?.startsWith(PREFIX) ? bearer : null;
}

/** The problem for a request without the operator credential. */
function operatorRequired(status: 401 | 403, detail: string): ApiError {
  return status === 401 ? new Unauthorized(detail, { code: 'OPERATOR_REQUIRED' }) : new ApiError(403, 'operator-required', 'Operator credential required', detail, { code: 'OPERATOR_REQUIRED' });
}

/** Middleware: requires the hall operator's credential (see the module header for the answers). */
export function requireOperator(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const keyLookup = deps.sqlite.prepare('SELECT 1 FROM workspaces WHERE api_key_digest = ?');
  return async (c, next) => {
    const address = clientAddress(c, deps.config.CBT_TRUSTED_PROXIES);
    deps.limits.operatorByAddress.check(address, 'Too many wrong operator credentials from this computer');
    const presented = presentedOperator(c.req.header('authorization'), c.req.header('x-operator-key'));
    if (!presented) {
      const key = presentedKey(c.req.header('authorization'), c.req.header('x-api-key'));
      if (key && keyLookup.get(sha256Hex(key))) {
        throw operatorRequired(403, 'Backups and other whole-appliance operations need the hall operator’s credential (x-operator-key), not a workspace API key.');
      }
      throw operatorRequired(401, 'The hall operator’s credential is required (x-operator-key: cbtop_…).');
    }
    if (!isOperatorCredential(deps.config.DATA_DIR, presented)) {
      deps.limits.operatorByAddress.fail(address);
      throw operatorRequired(401, 'The operator credential is not valid. It was printed when HallCBT was installed; `scripts/operator rotate` on the hall machine makes a new one.');
    }
    await next();
  };
}
