/**
 * Board accounts on the hub (docs/hub.md, "The board's page"): e-mail and password (scrypt,
 * src/platform/crypto.ts, as the hall's examiner sign-in), roles (src/hub/board-roles.ts),
 * and sessions by a bearer token (`cbtb_` + 40 base62 characters, 12 hours, stored as its
 * SHA-256 digest), which the page keeps in sessionStorage as the hall's admin page keeps its
 * key. Every sign-in (accepted, refused, throttled), sign-out and account change writes an
 * audit row. Failed sign-ins are held back per e-mail + address and per address with the
 * hall's growing waits, counted in PostgreSQL so that a restart or a second hub process
 * keeps them (src/hub/sign-in-throttle.ts; docs/decisions.md, "Board accounts and their
 * roles", "Board sign-in throttle in PostgreSQL").
 */
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import { hashSecret, sha256Hex, verifySecret } from '../platform/crypto.js';
import { Conflict, Forbidden, NotFound, Unauthorized } from '../platform/errors.js';
import { randomBase62 } from '../platform/ids.js';
import { audit } from './audit.js';
import { BOARD_ROLES, type BoardRole } from './board-roles.js';
import type { HubDeps } from './deps.js';
import { boardAccounts, boardSessions } from './db/schema.js';
import { newHubId } from './ids.js';
import { PgGuessThrottle } from './sign-in-throttle.js';

/** A session lasts a working day. */
export const SESSION_MS = 12 * 3600_000;
const TOKEN_PREFIX = 'cbtb_';
const MIN = 60_000;

const roles = z.array(z.enum(BOARD_ROLES)).min(1).max(3);
/** Roles without repeats, in the order given. */
const distinct = (r: BoardRole[]) => [...new Set(r)];
const password = z.string().min(8, 'at least 8 characters').max(200);
export const accountInputSchema = z.object({ email: z.string().trim().email().max(200), name: z.string().trim().min(1).max(200), password, roles });
export const accountPatchSchema = z.object({ name: z.string().trim().min(1).max(200).optional(), roles: roles.optional(), password: password.optional(), disabled: z.boolean().optional() }).refine((p) => Object.keys(p).length > 0, 'name, roles, password or disabled');
export const ownPasswordSchema = z.object({ currentPassword: z.string().min(1).max(200), password });
export const signInSchema = z.object({ email: z.string().trim().min(1).max(200), password: z.string().min(1).max(200) });

/** An account as the API shows it (never the hash). */
export interface BoardAccount {
  id: string;
  email: string;
  name: string;
  roles: BoardRole[];
  disabled: boolean;
  createdAt: string;
}

type Row = typeof boardAccounts.$inferSelect;
const view = (r: Row): BoardAccount => ({ id: r.id, email: r.email, name: r.name, roles: r.roles as BoardRole[], disabled: r.disabledAt !== null, createdAt: r.createdAt.toISOString() });
const emailKey = (email: string) => email.trim().toLowerCase();

/** The two sign-in throttles, shared by every hub process through PostgreSQL (the hall's limits: 10 per e-mail + address, 50 per address, in 15 minutes). */
export function signInThrottles(deps: Pick<HubDeps, 'db' | 'clock'>) {
  const guesses = (name: string, free: number) => new PgGuessThrottle({ name, free, windowMs: 15 * MIN, baseDelayMs: 30_000, maxDelayMs: 15 * MIN }, deps.db, deps.clock);
  return { bySeat: guesses('board-sign-in', 10), byAddress: guesses('board-sign-in-address', 50) };
}
export type SignInThrottles = ReturnType<typeof signInThrottles>;

/** A hash nobody can match, with real passwords' scrypt parameters: an unknown e-mail costs what a wrong password costs. */
const DUMMY_HASH = 'scrypt$131072$8$1$iNsTo+8175B4JLOfKl42ag==$K7AuuYsB6gEOC2UcaSEcRlK+cXzB1OTBf5c1swXAgss=';

/**
 * Creates an account. @param actor who did it, for the audit row (`examiner:<id>` or `account:<id>`)
 * @throws Conflict (EMAIL_TAKEN) when an account already uses the e-mail
 */
export async function createAccount(deps: HubDeps, actor: string, input: z.infer<typeof accountInputSchema>): Promise<BoardAccount> {
  const now = new Date(deps.clock.now());
  const id = newHubId('bacc');
  const rows = await deps.db
    .insert(boardAccounts)
    .values({ id, email: input.email, emailKey: emailKey(input.email), name: input.name, roles: distinct(input.roles), passwordHash: await hashSecret(input.password), createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (!rows[0]) throw new Conflict('An account already uses this e-mail.', { code: 'EMAIL_TAKEN' });
  await audit(deps.db, { at: now, actor, action: 'board-account-created', detail: { accountId: id, email: input.email, roles: distinct(input.roles) } });
  return view(rows[0]);
}

/** Every account, oldest first. */
export async function listAccounts(deps: HubDeps): Promise<BoardAccount[]> {
  return (await deps.db.select().from(boardAccounts).orderBy(boardAccounts.createdAt)).map(view);
}

/** One account. @throws NotFound */
export async function getAccount(deps: HubDeps, id: string): Promise<BoardAccount> {
  const rows = await deps.db.select().from(boardAccounts).where(eq(boardAccounts.id, id));
  if (!rows[0]) throw new NotFound('Account');
  return view(rows[0]);
}

/**
 * Changes an account's name, roles, password or disabled state; a new password or a disabled
 * account ends its sessions. The audit row names what changed (never the password).
 * @throws NotFound
 */
export async function patchAccount(deps: HubDeps, actor: string, id: string, patch: z.infer<typeof accountPatchSchema>): Promise<BoardAccount> {
  const now = new Date(deps.clock.now());
  const set: Partial<Row> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.roles !== undefined) set.roles = distinct(patch.roles);
  if (patch.password !== undefined) set.passwordHash = await hashSecret(patch.password);
  if (patch.disabled !== undefined) set.disabledAt = patch.disabled ? now : null;
  const rows = await deps.db.update(boardAccounts).set(set).where(eq(boardAccounts.id, id)).returning();
  if (!rows[0]) throw new NotFound('Account');
  if (patch.password !== undefined || patch.disabled) await deps.db.delete(boardSessions).where(eq(boardSessions.accountId, id));
  // what changed, never the password itself
  const changed = { ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.roles !== undefined ? { roles: distinct(patch.roles) } : {}), ...(patch.disabled !== undefined ? { disabled: patch.disabled } : {}), ...(patch.password !== undefined ? { passwordChanged: true } : {}) };
  await audit(deps.db, { at: now, actor, action: 'board-account-changed', detail: { accountId: id, ...changed } });
  return view(rows[0]);
}

/**
 * Signs in: the right password of an enabled account → a new session token (shown once).
 * @param address the client's address (throttle key)
 * @throws TooManyRequests (429, Retry-After) while held back; Unauthorized (SIGN_IN_FAILED) otherwise, the same for an unknown e-mail, a wrong password and a disabled account
 */
export async function signIn(deps: HubDeps, throttles: SignInThrottles, input: z.infer<typeof signInSchema>, address: string): Promise<{ token: string; expiresAt: string; account: BoardAccount }> {
  const key = emailKey(input.email);
  const seat = `${key}\n${address}`;
  const now = new Date(deps.clock.now());
  try {
    await throttles.bySeat.check(seat, 'Too many failed sign-ins for this e-mail from this computer');
    await throttles.byAddress.check(address, 'Too many failed sign-ins from this computer');
  } catch (e) {
    await audit(deps.db, { at: now, actor: 'unknown', action: 'board-sign-in-throttled', detail: { email: key, address } });
    throw e;
  }
  const rows = await deps.db.select().from(boardAccounts).where(eq(boardAccounts.emailKey, key));
  const row = rows[0];
  const ok = row ? await verifySecret(input.password, row.passwordHash) : await verifySecret(input.password, DUMMY_HASH).then(() => false);
  if (!row || !ok || row.disabledAt) {
    await throttles.bySeat.fail(seat);
    await throttles.byAddress.fail(address);
    await audit(deps.db, { at: now, actor: row ? `account:${row.id}` : 'unknown', action: 'board-sign-in-refused', detail: { email: key, address, reason: !row ? 'unknown-email' : !ok ? 'wrong-password' : 'disabled' } });
    throw new Unauthorized('The e-mail or password is wrong, or the account is disabled. Check them (capital letters count) and try again.', { code: 'SIGN_IN_FAILED' });
  }
  await throttles.bySeat.clear(seat);
  const token = `${TOKEN_PREFIX}${randomBase62(40)}`;
  const expiresAt = new Date(now.getTime() + SESSION_MS);
  await deps.db.insert(boardSessions).values({ tokenDigest: sha256Hex(token), accountId: row.id, createdAt: now, expiresAt });
  await audit(deps.db, { at: now, actor: `account:${row.id}`, action: 'board-signed-in', detail: { address } });
  return { token, expiresAt: expiresAt.toISOString(), account: view(row) };
}

/** True when `key` has the form of a session token (so it is not looked up as an API key). */
export const isSessionToken = (key: string) => key.startsWith(TOKEN_PREFIX);

/** The enabled account holding an unexpired session `token`, or null. */
export async function accountBySession(deps: HubDeps, token: string): Promise<BoardAccount | null> {
  const rows = await deps.db
    .select({ a: boardAccounts })
    .from(boardSessions)
    .innerJoin(boardAccounts, eq(boardAccounts.id, boardSessions.accountId))
    .where(and(eq(boardSessions.tokenDigest, sha256Hex(token)), gt(boardSessions.expiresAt, new Date(deps.clock.now())), isNull(boardAccounts.disabledAt)));
  return rows[0] ? view(rows[0].a) : null;
}

/**
 * An account changes its own password: the current one must be right (a wrong one counts
 * as a failed sign-in against the throttles); every other session of the account ends.
 * @throws TooManyRequests while held back; Forbidden (403, PASSWORD_WRONG)
 */
export async function changeOwnPassword(deps: HubDeps, throttles: SignInThrottles, accountId: string, token: string, input: z.infer<typeof ownPasswordSchema>, address: string): Promise<void> {
  const now = new Date(deps.clock.now());
  const row = (await deps.db.select().from(boardAccounts).where(eq(boardAccounts.id, accountId)))[0];
  if (!row) throw new NotFound('Account');
  const seat = `${row.emailKey}\n${address}`;
  await throttles.bySeat.check(seat, 'Too many wrong passwords for this account from this computer');
  if (!(await verifySecret(input.currentPassword, row.passwordHash))) {
    await throttles.bySeat.fail(seat);
    await throttles.byAddress.fail(address);
    await audit(deps.db, { at: now, actor: `account:${accountId}`, action: 'board-password-change-refused', detail: { address } });
    // 403, not 401: the session is good (a 401 would send the page back to sign-in)
    throw new Forbidden('The current password is wrong: nothing was changed.', { code: 'PASSWORD_WRONG' });
  }
  await deps.db.update(boardAccounts).set({ passwordHash: await hashSecret(input.password) }).where(eq(boardAccounts.id, accountId));
  await deps.db.delete(boardSessions).where(and(eq(boardSessions.accountId, accountId), ne(boardSessions.tokenDigest, sha256Hex(token))));
  await audit(deps.db, { at: now, actor: `account:${accountId}`, action: 'board-account-changed', detail: { accountId, passwordChanged: true, by: 'self' } });
}

/** Ends the session `token` (sign-out), with an audit row. */
export async function signOut(deps: HubDeps, token: string, accountId: string): Promise<void> {
  await deps.db.delete(boardSessions).where(eq(boardSessions.tokenDigest, sha256Hex(token)));
  await audit(deps.db, { at: new Date(deps.clock.now()), actor: `account:${accountId}`, action: 'board-signed-out', detail: {} });
}
