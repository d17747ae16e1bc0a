/**
 * Workspace rules (docs/api-overview.md, "Workspace", docs/design.md §4): standalone registration with 30 free
 * credits, sign-in-or-sign-up by e-mail + password (scrypt), institution provisioning,
 * password setting, webhook settings. API keys and webhook secrets are sealed at rest;
 * the key is found by its SHA-256 digest.
 */
import type { HallDeps } from '../../hall/deps.js';
import type { WorkspaceRow } from '../../db/rows.js';
import { newId } from '../../platform/ids.js';
import { hashSecret, newApiKey, newWebhookSecret, sha256Hex, verifySecret } from '../../platform/crypto.js';
import { ApiError, Conflict, NotFound, Unauthorized, ValidationError } from '../../platform/errors.js';
import { checkWebhookUrl, refusalText } from '../webhooks/index.js';
import { iso } from '../../platform/clock.js';
import { rosterWaiting } from './credits.js';

/** Credits a new standalone workspace starts with (docs/api-overview.md, "Limits"). */
export const FREE_CREDITS = 30;

interface NewWorkspace {
  name: string;
  type: 'STANDALONE_HALL' | 'INSTITUTION';
  ownerName: string;
  email: string;
  webhookUrl: string | null;
  passwordHash: string | null;
  schoolId?: string | null;
}

/** Inserts a workspace with fresh secrets; returns the row and the plaintext secrets. */
function insertWorkspace(deps: HallDeps, w: NewWorkspace): { row: WorkspaceRow; apiKey: string; webhookSecret: string } {
  const apiKey = newApiKey();
  const webhookSecret = newWebhookSecret();
  const id = newId('ws');
  const emailKey = w.email.trim().toLowerCase();
  if (deps.sqlite.prepare('SELECT 1 FROM workspaces WHERE email_key = ?').get(emailKey)) {
    throw new Conflict('A workspace with this e-mail address already exists. Sign in with POST /workspaces/login.', { code: 'EMAIL_TAKEN' });
  }
  deps.sqlite
    .prepare(
      `INSERT INTO workspaces (id, name, type, owner_name, owner_email, email_key, password_hash, credits, api_key_digest, api_key_sealed, webhook_secret_sealed, webhook_url, school_id, created_at)
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    )
    .run(id, w.name, w.type, w.ownerName, w.email.trim(), emailKey, w.passwordHash, FREE_CREDITS, sha256Hex(apiKey), deps.secrets.seal(apiKey), deps.secrets.seal(webhookSecret), w.webhookUrl, w.schoolId ?? null, deps.clock.now());
  return { row: getWorkspaceRow(deps, id), apiKey, webhookSecret };
}

/** Loads a workspace row. @throws NotFound */
export function getWorkspaceRow(deps: HallDeps, id: string): WorkspaceRow {
  const row = deps.sqlite.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
  if (!row) throw new NotFound('Workspace');
  return row;
}

/** Counts of exams and questions for login/me responses. */
export function workspaceCounts(deps: HallDeps, id: string): { exams: number; questions: number } {
  const r = deps.sqlite
    .prepare('SELECT (SELECT count(*) FROM exams WHERE workspace_id = ?) AS exams, (SELECT count(*) FROM questions WHERE workspace_id = ?) AS questions')
    .get(id, id) as { exams: number; questions: number };
  return r;
}

/**
 * Refuses a webhook URL on loopback, link-local, unspecified or this machine's addresses
 * (webhooks/url-guard.ts), unless CBT_WEBHOOK_ALLOW_LOCAL allows the local ones.
 * @throws ValidationError (400) naming the address and why
 */
async function assertWebhookAllowed(deps: HallDeps, url: string): Promise<void> {
  const refused = await checkWebhookUrl(url, deps.config.CBT_WEBHOOK_ALLOW_LOCAL === '1');
  if (refused) {
    const why = refusalText(refused);
    throw new ValidationError(`The webhook URL is not allowed: its ${why}.`, [{ path: 'webhookUrl', message: why }], { code: 'WEBHOOK_URL_REFUSED' });
  }
}

/** POST /workspaces/standalone → 201 body. @throws ValidationError for a refused webhook URL */
export async function registerStandalone(deps: HallDeps, input: { name: string; ownerName: string; email: string; webhookUrl?: string }) {
  if (input.webhookUrl !== undefined) await assertWebhookAllowed(deps, input.webhookUrl);
  const { row, apiKey, webhookSecret } = insertWorkspace(deps, { ...input, webhookUrl: input.webhookUrl ?? null, type: 'STANDALONE_HALL', passwordHash: null });
  return { id: row.id, name: row.name, type: row.type, credits: row.credits, apiKey, webhookSecret };
}

function loginBody(deps: HallDeps, row: WorkspaceRow) {
  return {
    id: row.id,
    name: row.name,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
    credits: row.credits,
    apiKey: deps.secrets.open(row.api_key_sealed),
    _count: workspaceCounts(deps, row.id),
  };
}

/** hashSecret() of a random secret nobody kept, with the parameters of real passwords. */
const DUMMY_HASH = 'scrypt$131072$8$1$iNsTo+8175B4JLOfKl42ag==$K7AuuYsB6gEOC2UcaSEcRlK+cXzB1OTBf5c1swXAgss=';

/**
 * Checks `password` against DUMMY_HASH: the same scrypt work as a real check, for
 * accounts with no password, so a failure's timing does not tell the account's state
 * (docs/design.md §4). Always false.
 */
async function dummyVerify(password: string): Promise<false> {
  await verifySecret(password, DUMMY_HASH);
  return false;
}

/**
 * POST /workspaces/login: known e-mail + right password → 200; unknown e-mail → a new
 * STANDALONE_HALL workspace with that password (spec: "When the account is new, a
 * workspace is created"), unless `createIfMissing` is false: then 404 NO_SUCH_HALL and
 * nothing is created; wrong password → 401; no password set yet → 401 explaining how.
 * Failures are held back per e-mail + address and per address with growing waits (429,
 * never a lock another address can put on the owner), and every failure costs one scrypt.
 */
export async function login(deps: HallDeps, input: { email: string; password: string; createIfMissing?: boolean }, address: string) {
  const emailKey = input.email.trim().toLowerCase();
  const seat = `${emailKey}\n${address}`;
  deps.limits.loginBySeat.check(seat, 'Too many failed sign-ins for this e-mail from this computer');
  deps.limits.loginByAddress.check(address, 'Too many failed sign-ins from this computer');
  const failed = () => {
    deps.limits.loginBySeat.fail(seat);
    deps.limits.loginByAddress.fail(address);
  };
  const row = deps.sqlite.prepare('SELECT * FROM workspaces WHERE email_key = ?').get(emailKey) as WorkspaceRow | undefined;
  if (!row) {
    if (input.createIfMissing === false) {
      // asking costs a failure per address, as a wrong password does (docs/decisions.md, "Asking before creating a hall")
      deps.limits.loginByAddress.fail(address);
      throw new ApiError(404, 'not-found', 'Not found', 'No hall is registered with this e-mail.', { code: 'NO_SUCH_HALL' });
    }
    if (input.password.length < 8) {
      await dummyVerify(input.password);
      throw new Unauthorized('No workspace uses this e-mail yet; to create one, choose a password of at least 8 characters.', { code: 'PASSWORD_TOO_SHORT' });
    }
    const passwordHash = await hashSecret(input.password);
    const localName = emailKey.split('@')[0] ?? 'Exam hall';
    const { row: created } = insertWorkspace(deps, { name: `${localName}'s hall`, type: 'STANDALONE_HALL', ownerName: localName, email: input.email, webhookUrl: null, passwordHash });
    return loginBody(deps, created);
  }
  if (!row.password_hash) {
    await dummyVerify(input.password);
    failed();
    throw new Unauthorized('This workspace has no password yet. Sign in to the admin page with its API key and set one (PUT /workspaces/me/password).', { code: 'NO_PASSWORD' });
  }
  if (!(await verifySecret(input.password, row.password_hash))) {
    failed();
    throw new Unauthorized('The password is wrong for this e-mail. Check it (capital letters count) and try again.', { code: 'LOGIN_FAILED' });
  }
  deps.limits.loginBySeat.clear(seat);
  return loginBody(deps, row);
}

/** POST /workspaces/institution: create (201) or return (200) the INSTITUTION workspace of a schoolId. */
export function provisionInstitution(deps: HallDeps, input: { schoolId: string; schoolName: string; email: string }): { created: boolean; body: ReturnType<typeof loginBody> & { type: string; schoolId: string } } {
  const existing = deps.sqlite.prepare('SELECT * FROM workspaces WHERE school_id = ?').get(input.schoolId) as WorkspaceRow | undefined;
  if (existing) return { created: false, body: { ...loginBody(deps, existing), type: existing.type, schoolId: input.schoolId } };
  const { row } = insertWorkspace(deps, { name: input.schoolName, type: 'INSTITUTION', ownerName: input.schoolName, email: input.email, webhookUrl: null, passwordHash: null, schoolId: input.schoolId });
  return { created: true, body: { ...loginBody(deps, row), type: row.type, schoolId: input.schoolId } };
}

/** GET /workspaces/me body. */
export function describeWorkspace(deps: HallDeps, id: string) {
  const row = getWorkspaceRow(deps, id);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
    credits: row.credits,
    webhookUrl: row.webhook_url,
    hasPassword: row.password_hash !== null,
    schoolId: row.school_id,
    createdAt: iso(row.created_at)!,
    _count: workspaceCounts(deps, row.id),
    rosterWaiting: rosterWaiting(deps, row.id, deps.clock.now()),
  };
}

/**
 * PATCH /workspaces/me. A webhook URL set on a workspace that had none starts the outbox's
 * 7-day failure clock (`webhook_url_set_at`) and asks the dispatcher to deliver the events
 * that waited (docs/decisions.md, "An offline centre signs up without a webhook URL").
 * @throws ValidationError for a refused webhook URL
 */
export async function updateWorkspace(deps: HallDeps, id: string, patch: { name?: string; webhookUrl?: string }) {
  if (patch.webhookUrl !== undefined) await assertWebhookAllowed(deps, patch.webhookUrl);
  const row = getWorkspaceRow(deps, id);
  const firstUrl = row.webhook_url === null && patch.webhookUrl !== undefined;
  deps.sqlite
    .prepare('UPDATE workspaces SET name = ?, webhook_url = ?, webhook_url_set_at = ? WHERE id = ?')
    .run(patch.name ?? row.name, patch.webhookUrl ?? row.webhook_url, firstUrl ? deps.clock.now() : row.webhook_url_set_at, id);
  if (firstUrl) deps.events.emit({ kind: 'outbox-due', workspaceId: id }); // the waiting rows are due now
  return describeWorkspace(deps, id);
}

/** PUT /workspaces/me/password. */
export async function setPassword(deps: HallDeps, id: string, password: string): Promise<void> {
  const hash = await hashSecret(password);
  deps.sqlite.prepare('UPDATE workspaces SET password_hash = ? WHERE id = ?').run(hash, id);
}

/** POST /workspaces/me/webhook-secret: rotates and returns the new secret once. */
export function rotateWebhookSecret(deps: HallDeps, id: string): string {
  const secret = newWebhookSecret();
  deps.sqlite.prepare('UPDATE workspaces SET webhook_secret_sealed = ? WHERE id = ?').run(deps.secrets.seal(secret), id);
  return secret;
}

/** GET /workspaces/me/audit: newest first. */
export function listAudit(deps: HallDeps, id: string, limit: number) {
  const rows = deps.sqlite.prepare('SELECT * FROM audit_log WHERE workspace_id = ? ORDER BY created_at DESC LIMIT ?').all(id, limit) as {
    id: string; action: string; target_type: string; target_id: string; reason: string | null; detail_json: string | null; created_at: number;
  }[];
  return rows.map((r) => ({ id: r.id, action: r.action, targetType: r.target_type, targetId: r.target_id, reason: r.reason, detail: r.detail_json ? JSON.parse(r.detail_json) : null, createdAt: iso(r.created_at)! }));
}
