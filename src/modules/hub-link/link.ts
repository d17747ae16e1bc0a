/**
 * This hall's link to an exam board's hub (issue #24 §2, docs/hub-protocol.md): enrolment
 * with a one-time code (the hall makes its Ed25519 key pair; the private key is sealed at
 * rest under the installation key), and signed requests to the hub, whose answers are
 * verified against the hub key received at enrolment before anything is acted on.
 */
import { randomBytes } from 'node:crypto';
import { newSigningKeyPair, openEnvelope, signRequest } from '../../core/sync/signing.js';
import { enrolmentPayloadSchema } from '../../core/sync/messages.js';
import type { HallDeps } from '../../hall/deps.js';
import { writeAudit } from '../../hall/audit.js';
import { ApiError, Conflict, NotFound, ValidationError } from '../../platform/errors.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** How long the hall waits for the hub on any request (plus TIMEOUT_MS_PER_64KB of body). */
export const HUB_TIMEOUT_MS = 15_000;

export interface HubLinkRow {
  workspace_id: string;
  hub_url: string;
  hall_id: string;
  hub_public_key: string;
  public_key: string;
  private_key_sealed: string;
  enrolled_at: number;
  last_sync_at: number | null;
  last_error: string | null;
}

/** The hub could not be reached or answered with an error: 502 problem details naming it. */
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

const trimUrl = (u: string) => u.replace(/\/+$/, '');

/**
 * Refuses hub addresses no exam board's hub can have: link-local (169.254.0.0/16, which
 * holds cloud metadata services, and fe80::/10), unspecified and multicast addresses, after
 * resolving the name (so a name cannot point there either). Loopback and LAN addresses stay
 * allowed: a board may run its hub on the hall's own network.
 * @throws ValidationError naming the address
 */
export async function assertHubAddress(url: string): Promise<void> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ValidationError('The hub address must start with http:// or https://.', [{ path: 'hubUrl', message: 'http or https only' }]);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new HubUnavailable(`The hub's name ${host} could not be resolved on this network.`);
  }
  const forbidden = addresses.find((a) => /^169\.254\.|^0\.|^2(2[4-9]|3\d)\.|^255\.255\.255\.255$/.test(a) || /^(fe[89ab][0-9a-f]:|ff[0-9a-f]{2}:|::$)/i.test(a) || a === '::');
  if (forbidden) throw new ValidationError(`The hub address resolves to ${forbidden}, which is link-local, unspecified or multicast: no hub can be there.`, [{ path: 'hubUrl', message: `not allowed: ${forbidden}` }]);
}

/** Extra patience per 64 KB of request body: a 2 MB batch of results may crawl up a slow uplink. */
const TIMEOUT_MS_PER_64KB = 1_000;

async function hubFetch(url: string, init: RequestInit): Promise<{ status: number; json: any }> {
  await assertHubAddress(url);
  const bodyBytes = typeof init.body === 'string' ? Buffer.byteLength(init.body) : 0;
  const timeoutMs = HUB_TIMEOUT_MS + Math.ceil(bodyBytes / 65_536) * TIMEOUT_MS_PER_64KB;
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const why = (e as Error).name === 'TimeoutError' ? `no answer within ${Math.round(timeoutMs / 1000)} s` : ((e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message);
    throw new HubUnavailable(`The hub at ${new URL(url).origin} could not be reached (${why}).`);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json };
}

/**
 * Enrols this workspace's hall with a hub: creates the key pair, sends the public key with
 * the one-time code, verifies the signed answer, stores the link.
 * @throws Conflict when already enrolled; HubUnavailable when the hub refuses or cannot be reached
 */
export async function enrolWithHub(deps: HallDeps, workspaceId: string, input: { hubUrl: string; enrolmentCode: string; hallName: string }): Promise<HubLinkRow> {
  if (hubLinkOf(deps, workspaceId)) throw new Conflict('This workspace is already enrolled with a hub.');
  const keys = newSigningKeyPair();
  const hubUrl = trimUrl(input.hubUrl);
  const res = await hubFetch(`${hubUrl}/hub/v1/enrol`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ enrolmentCode: input.enrolmentCode, hallName: input.hallName, publicKey: keys.publicKey, clock: new Date(deps.clock.now()).toISOString() }),
  });
  if (res.status !== 200) throw new HubUnavailable(`The hub refused the enrolment: ${res.json?.detail ?? `HTTP ${res.status}`}`, { hubStatus: res.status });
  // trust on first use: the hub's key arrives in the answer it signs; every later package must verify with it
  const claimed = enrolmentPayloadSchema.safeParse(JSON.parse(typeof res.json?.payload === 'string' ? res.json.payload : 'null'));
  if (!claimed.success || !openEnvelope(claimed.data.hubPublicKey, res.json)) throw new HubUnavailable('The hub’s enrolment answer is not signed by the key it names.');
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
  const text = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  const headers = signRequest({ hallId: link.hall_id, privateKey: deps.secrets.open(link.private_key_sealed), method, pathWithQuery: path, body: text, now: deps.clock.now(), nonce: randomBytes(16).toString('base64url') });
  return hubFetch(`${link.hub_url}${path}`, { method, body: text, headers: { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json' }) } });
}

/** The payload of a hub-signed envelope, or null when the signature does not hold. */
export function verifiedFromHub(link: HubLinkRow, envelope: unknown): unknown {
  return openEnvelope(link.hub_public_key, (envelope ?? {}) as { payload?: unknown; signature?: unknown });
}
