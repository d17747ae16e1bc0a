/**
 * This hall's link to an exam board's hub (issue #24 §2, docs/hub-protocol.md): enrolment
 * with a one-time code (the hall makes its Ed25519 key pair; the private key is sealed at
 * rest under the installation key), and signed requests to the hub, whose answers are
 * verified against the hub key received at enrolment before anything is acted on.
 * Enrolling and removing need the hall operator's credential (routes.ts); every exchange
 * goes through the bounded client of hub-http.ts (issue #34, finding 1).
 */
import { randomBytes } from 'node:crypto';
import { newSigningKeyPair, openEnvelope, signRequest } from '../../core/sync/signing.js';
import { enrolmentPayloadSchema } from '../../core/sync/messages.js';
import type { HallDeps } from '../../hall/deps.js';
import type { HubLinkRow } from '../../db/rows.js';
import { writeAudit } from '../../hall/audit.js';
import { ApiError, Conflict, NotFound } from '../../platform/errors.js';
import { checkHubAddress, hubExchange, HubExchangeFailed, hubOrigin, type HubExchange } from './hub-http.js';
import { forgetLink, linkSignal } from './link-state.js';

/** The hub could not be reached or answered badly: 502 problem details in one generic sentence (HUB_FAILED_TEXT). */
export class HubUnavailable extends ApiError {
  constructor(detail: string, extra: Record<string, unknown> = {}) {
    super(502, 'hub-unavailable', 'The hub did not answer as expected', detail, { code: 'HUB_UNAVAILABLE', ...extra });
  }
}

/** The workspace's hub link, or null. */
export function hubLinkOf(deps: HallDeps, workspaceId: string): HubLinkRow | null {
  return (deps.sqlite.prepare('SELECT * FROM hub_links WHERE workspace_id = ?').get(workspaceId) as HubLinkRow | undefined) ?? null;
}

/** The link or 404 (this workspace has not enrolled with a hub). */
export function requireHubLink(deps: HallDeps, workspaceId: string): HubLinkRow {
  const link = hubLinkOf(deps, workspaceId);
  if (!link) throw new NotFound('Hub enrolment of this workspace');
  return link;
}

/**
 * Checks a hub address (hub-http.ts hubOrigin and the address guard): 400 for a form or an
 * address no hub may have; loopback and this machine only with `allowLocal`
 * (CBT_HUB_ALLOW_LOCAL=1). Link-local (cloud metadata), unspecified and multicast: never.
 * @returns the origin to store
 * @throws HubUrlRefused naming the address
 */
export function assertHubAddress(url: string, allowLocal = false): Promise<string> {
  return checkHubAddress(url, allowLocal);
}

/**
 * The one sentence a caller sees for any failed exchange (unreachable, refused, timed out,
 * too large, not JSON, bad signature, error status): telling them apart would tell an open
 * port from a closed one. The details go to the server log ("hub-link exchange failed").
 */
export const HUB_FAILED_TEXT = 'The hub is unreachable or answered badly; the hall will try again later. Details are in the hall’s log.';

/** One exchange with the hub at `hubUrl` + `path`; any failure is logged and thrown as HubUnavailable(HUB_FAILED_TEXT). */
async function hubFetch(deps: HallDeps, hubUrl: string, path: string, x: Omit<HubExchange, 'allowLocal'>): Promise<{ status: number; json: any }> {
  try {
    hubOrigin(hubUrl); // a stored address is held to today's rule too
    return await hubExchange(`${hubUrl}${path}`, { ...x, allowLocal: deps.config.CBT_HUB_ALLOW_LOCAL === '1' });
  } catch (e) {
    const reason = e instanceof HubExchangeFailed ? e.reason : (e as Error).message;
    deps.logger.warn('hub-link exchange failed', { hub: hubUrl, path: path.replace(/\?.*$/, ''), reason });
    throw new HubUnavailable(HUB_FAILED_TEXT);
  }
}

/**
 * Enrols this workspace's hall with a hub: creates the key pair, sends the public key with
 * the one-time code, verifies the signed answer, stores the link.
 * @throws Conflict when already enrolled; HubUnavailable when the hub refuses or cannot be reached
 */
export async function enrolWithHub(deps: HallDeps, workspaceId: string, input: { hubUrl: string; enrolmentCode: string; hallName: string }): Promise<HubLinkRow> {
  if (hubLinkOf(deps, workspaceId)) throw new Conflict('This workspace is already enrolled with a hub: remove the link first (DELETE /hub-link).');
  const hubUrl = await checkHubAddress(input.hubUrl, deps.config.CBT_HUB_ALLOW_LOCAL === '1');
  const keys = newSigningKeyPair();
  // every failure, a refusal (wrong or used code) included, is one sentence: see HUB_FAILED_TEXT
  const failed = () => new HubUnavailable('The hub is unreachable or answered badly: check the address, and that the enrolment code is new (a used or mistyped code looks the same from here). Details are in the hall’s log.');
  const refused = (reason: string): never => {
    deps.logger.warn('hub-link exchange failed', { hub: hubUrl, path: '/hub/v1/enrol', reason });
    throw failed();
  };
  const res = await hubFetch(deps, hubUrl, '/hub/v1/enrol', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ enrolmentCode: input.enrolmentCode, hallName: input.hallName, publicKey: keys.publicKey, clock: new Date(deps.clock.now()).toISOString() }),
  }).catch(() => {
    throw failed();
  });
  if (res.status !== 200) refused(`HTTP ${res.status}: ${String(res.json?.detail ?? '').slice(0, 200)}`);
  // trust on first use: the hub's key arrives in the answer it signs; every later package must verify with it
  let payload: unknown = null;
  try {
    payload = JSON.parse(typeof res.json?.payload === 'string' ? res.json.payload : 'null');
  } catch {
    /* refused below */
  }
  const claimed = enrolmentPayloadSchema.safeParse(payload);
  if (!claimed.success || !openEnvelope(claimed.data.hubPublicKey, res.json)) return refused('the enrolment answer is not signed by the key it names');
  const now = deps.clock.now();
  deps.sqlite
    .prepare('INSERT INTO hub_links (workspace_id, hub_url, hall_id, hub_public_key, public_key, private_key_sealed, enrolled_at) VALUES (?,?,?,?,?,?,?)')
    .run(workspaceId, hubUrl, claimed.data.hallId, claimed.data.hubPublicKey, keys.publicKey, deps.secrets.seal(keys.privateKey), now);
  writeAudit(deps.sqlite, { workspaceId, action: 'HUB_ENROLLED', targetType: 'hub', targetId: claimed.data.hallId, detail: { hubUrl }, at: now });
  return hubLinkOf(deps, workspaceId)!;
}

/**
 * A signed request to the hub; returns status and parsed JSON. `rawBody`, when given, is
 * sent (and signed) as these exact bytes instead of `JSON.stringify(body)`.
 * @throws HubUnavailable when unreachable
 */
export async function signedHubRequest(deps: HallDeps, link: HubLinkRow, method: 'GET' | 'POST', path: string, body?: unknown, rawBody?: string): Promise<{ status: number; json: any }> {
  // a link removed while a sync was on its way sends nothing more
  if (hubLinkOf(deps, link.workspace_id)?.hall_id !== link.hall_id) throw new HubUnavailable(HUB_FAILED_TEXT);
  const text = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  const headers = signRequest({ hallId: link.hall_id, privateKey: deps.secrets.open(link.private_key_sealed), method, pathWithQuery: path, body: text, now: deps.clock.now(), nonce: randomBytes(16).toString('base64url') });
  return hubFetch(deps, link.hub_url, path, { method, body: text, signal: linkSignal(deps, link.workspace_id), headers: { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json' }) } });
}

/** The payload of a hub-signed envelope, or null when the signature does not hold. */
export function verifiedFromHub(link: HubLinkRow, envelope: unknown): unknown {
  return openEnvelope(link.hub_public_key, (envelope ?? {}) as { payload?: unknown; signature?: unknown });
}

/**
 * Removes this workspace's hub link (DELETE /hub-link; docs/decisions.md, "Removing a hub
 * link"): requests in flight are aborted at once, the link row (and with it the hall's
 * signing key) is deleted, sealed papers are dropped (only that link's keys could open
 * them), released papers stay as ordinary exams but no longer send results up, and results
 * still waiting to go up are marked FAILED ("hub link removed"). Audited HUB_LINK_REMOVED.
 * @returns what was dropped and kept
 * @throws NotFound when the workspace has no link
 */
export function removeHubLink(deps: HallDeps, workspaceId: string, reason: string | null): { sealedDropped: number; releasedKept: number; resultsFailed: number } {
  const link = requireHubLink(deps, workspaceId);
  forgetLink(deps, workspaceId);
  const now = deps.clock.now();
  return deps.sqlite.transaction(() => {
    const count = (sql: string) => (deps.sqlite.prepare(sql).get(workspaceId) as { n: number }).n;
    const releasedKept = count("SELECT count(*) AS n FROM hub_packages WHERE workspace_id = ? AND state = 'RELEASED'");
    const sealedDropped = deps.sqlite.prepare("DELETE FROM hub_packages WHERE workspace_id = ? AND state <> 'RELEASED'").run(workspaceId).changes;
    // the released rows go too: they are what sends an exam's results to the hub
    deps.sqlite.prepare('DELETE FROM hub_packages WHERE workspace_id = ?').run(workspaceId);
    const resultsFailed = deps.sqlite.prepare("UPDATE hub_outbox SET status = 'FAILED', last_error = 'hub link removed' WHERE workspace_id = ? AND status = 'PENDING'").run(workspaceId).changes;
    deps.sqlite.prepare('DELETE FROM hub_links WHERE workspace_id = ?').run(workspaceId);
    const detail = { hubUrl: link.hub_url, sealedDropped, releasedKept, resultsFailed };
    writeAudit(deps.sqlite, { workspaceId, action: 'HUB_LINK_REMOVED', targetType: 'hub', targetId: link.hall_id, reason, detail, at: now });
    return { sealedDropped, releasedKept, resultsFailed };
  })();
}
