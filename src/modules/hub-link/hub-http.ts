/**
 * The hall's HTTP client for its hub (issue #34, finding 1; docs/reliability.md, "Round
 * two, finding 1"). A hub is a remote party: its address is checked like a webhook's
 * (webhooks/url-guard.ts, with CBT_HUB_ALLOW_LOCAL in place of CBT_WEBHOOK_ALLOW_LOCAL),
 * when enrolling and again on the addresses DNS gives at every request; and every reply is
 * bounded — at most MAX_HUB_REPLY_BYTES on the wire and MAX_HUB_REPLY_INFLATED_BYTES after
 * gzip/deflate/br decoding, counted while streaming and cut as soon as either is passed —
 * and the whole exchange, body included, must end within its time limit. Redirects are
 * not followed. Failures are HubExchangeFailed with a reason meant for the server log.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import { ValidationError } from '../../platform/errors.js';
import { checkWebhookUrl, refusalText, refusedAddress, webhookLookup, type GuardWording } from '../webhooks/index.js';

const MB = 1024 * 1024;
/**
 * Largest hub reply on the wire and once inflated. The largest reply is a package: its
 * sealed paper is at most 4,000,000 base64 characters (core/sync/messages.ts), and a
 * 20,000-candidate package measured 2.5 MB (test/hub/usb-package.test.ts). Sealed data
 * does not compress, so one bound serves both sides.
 */
export const MAX_HUB_REPLY_BYTES = 6 * MB;
export const MAX_HUB_REPLY_INFLATED_BYTES = 6 * MB;
/** How long one exchange with the hub may take, reply body included (plus TIMEOUT_MS_PER_64KB of request body). */
export const HUB_TIMEOUT_MS = 15_000;
/** Extra patience per 64 KB of request body: a 2 MB batch of results may crawl up a slow uplink. */
const TIMEOUT_MS_PER_64KB = 1_000;

const hubWording: GuardWording = { what: 'the hub address', setting: 'CBT_HUB_ALLOW_LOCAL', localUse: 'a hub on this machine' };

/** A hub address that cannot be used: 400 problem details on `hubUrl`. */
export class HubUrlRefused extends ValidationError {
  constructor(why: string) {
    super(`The hub address is not allowed: ${why}.`, [{ path: 'hubUrl', message: why }], { code: 'HUB_URL_REFUSED' });
  }
}

/** A failed exchange; `reason` is for the server log only (it may tell an open port from a closed one). */
export class HubExchangeFailed extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * The hub's origin from an address an operator typed: http(s), a host, no user info, query,
 * fragment or path (the protocol's paths are fixed: docs/hub-protocol.md; docs/decisions.md,
 * "Hub addresses and the operator credential"). A trailing `/` is allowed.
 * @returns the origin, e.g. `https://board.example.org:8443`
 * @throws HubUrlRefused naming what is wrong
 */
export function hubOrigin(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new HubUrlRefused('it is not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new HubUrlRefused('it must start with http:// or https://');
  if (!u.hostname) throw new HubUrlRefused('it has no host');
  if (u.username || u.password) throw new HubUrlRefused('it may not carry a user name or password');
  if (u.search || raw.includes('?')) throw new HubUrlRefused('it may not have a query (?…)');
  if (u.hash || raw.includes('#')) throw new HubUrlRefused('it may not have a fragment (#…)');
  if (u.pathname !== '/' && u.pathname !== '') throw new HubUrlRefused('it may not have a path: give the hub’s origin only, e.g. https://board.example.org');
  return u.origin;
}

/**
 * Checks a hub address when enrolling: its form (hubOrigin) and its host, resolved now
 * (a name that does not resolve is left to the enrolment request, which then fails).
 * @returns the origin to store
 * @throws HubUrlRefused (400)
 */
export async function checkHubAddress(raw: string, allowLocal: boolean): Promise<string> {
  const origin = hubOrigin(raw);
  const refused = await checkWebhookUrl(origin, allowLocal);
  if (refused) throw new HubUrlRefused(refusalText(refused, hubWording));
  return origin;
}

function decoderFor(encoding: string | undefined): Transform | null {
  const e = (encoding ?? '').trim().toLowerCase();
  if (e === '' || e === 'identity') return null;
  if (e === 'gzip' || e === 'x-gzip') return createGunzip();
  if (e === 'deflate') return createInflate();
  if (e === 'br') return createBrotliDecompress();
  throw new HubExchangeFailed(`unknown content-encoding ${e.slice(0, 40)}`);
}

export interface HubExchange {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  allowLocal: boolean;
  /** aborts the exchange (the link was removed) */
  signal?: AbortSignal;
}

/**
 * One request to the hub at `url` (its stored origin + a protocol path).
 * @returns the status and the parsed JSON body (null when empty or, for a status other than 200, not JSON)
 * @throws HubExchangeFailed: address refused, connection failed, time limit, reply over a
 *   limit, bad compression, unknown content-encoding, a 200 reply that is not JSON, aborted
 */
export function hubExchange(url: string, x: HubExchange): Promise<{ status: number; json: any }> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const r = refusedAddress(host, x.allowLocal);
    if (r) return Promise.reject(new HubExchangeFailed(refusalText(r, hubWording)));
  }
  const data = x.body === undefined ? undefined : Buffer.from(x.body, 'utf8');
  const timeoutMs = HUB_TIMEOUT_MS + Math.ceil((data?.length ?? 0) / 65_536) * TIMEOUT_MS_PER_64KB;
  const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    let res: IncomingMessage | undefined;
    let decoder: Transform | null = null;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      x.signal?.removeEventListener('abort', onAbort);
      decoder?.destroy();
      res?.destroy();
      req.destroy();
      reject(new HubExchangeFailed(reason));
    };
    const onAbort = () => fail('aborted: the hub link was removed');
    // agent: false — a fresh connection each time, so every request passes the address check
    // (a pooled keep-alive socket would skip the lookup); one request per 15 s costs nothing
    const headers: Record<string, string> = { ...x.headers, 'accept-encoding': 'gzip, deflate, br', ...(data ? { 'content-length': String(data.length) } : {}) };
    const req = request(u, { method: x.method, headers, lookup: webhookLookup(x.allowLocal, hubWording), agent: false }, (response) => {
      res = response;
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > MAX_HUB_REPLY_BYTES) return fail(`reply announced ${declared} bytes, over the ${MAX_HUB_REPLY_BYTES}-byte limit`);
      try {
        decoder = decoderFor(response.headers['content-encoding']);
      } catch (e) {
        return fail((e as Error).message);
      }
      const chunks: Buffer[] = [];
      let wire = 0;
      let inflated = 0;
      const keep = (c: Buffer) => {
        inflated += c.length;
        if (inflated > MAX_HUB_REPLY_INFLATED_BYTES) return fail(`reply inflates past the ${MAX_HUB_REPLY_INFLATED_BYTES}-byte limit`);
        chunks.push(c);
      };
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        x.signal?.removeEventListener('abort', onAbort);
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          if (response.statusCode === 200) return reject(new HubExchangeFailed('a 200 reply that is not JSON'));
        }
        resolve({ status: response.statusCode ?? 0, json });
      };
      response.on('data', (c: Buffer) => {
        wire += c.length;
        if (wire > MAX_HUB_REPLY_BYTES) return fail(`reply over the ${MAX_HUB_REPLY_BYTES}-byte limit`);
        if (decoder) decoder.write(c);
        else keep(c);
      });
      response.on('error', (e) => fail(`reply broken: ${(e as { code?: string }).code ?? e.message}`));
      if (decoder) {
        decoder.on('data', keep);
        decoder.on('error', () => fail('reply is not valid compressed data'));
        decoder.on('end', finish);
        response.on('end', () => decoder!.end());
      } else response.on('end', finish);
    });
    const timer = setTimeout(() => fail(`no complete answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    req.on('error', (e) => fail(`connection failed: ${(e as { code?: string }).code ?? e.message}`));
    if (x.signal?.aborted) return onAbort();
    x.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(data);
  });
}
