/**
 * One webhook POST (docs/design.md §8) over node:http/https instead of fetch, because the socket
 * must connect only to addresses url-guard.ts has checked: the request's `lookup` is
 * webhookLookup(), and an IP literal host is checked before connecting. Redirects are
 * not followed (a 3xx is the status), the body is read and dropped, and the whole try
 * is bounded by `timeoutMs`.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { RefusedDestination, refusedAddress, refusalText, webhookLookup } from './url-guard.js';

/** Thrown when no status arrived within the time limit. */
export class DeliveryTimeout extends Error {
  override name = 'TimeoutError';
}

/**
 * POSTs `body` to `url` with `headers`.
 * @returns the HTTP status
 * @throws RefusedDestination (a refused address), DeliveryTimeout, or the socket's error (with `code`)
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, opts: { timeoutMs: number; allowLocal: boolean }): Promise<number> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const r = refusedAddress(host, opts.allowLocal);
    if (r) return Promise.reject(new RefusedDestination(refusalText(r)));
  }
  const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
  const data = Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(u, { method: 'POST', headers: { ...headers, 'content-length': String(data.length) }, lookup: webhookLookup(opts.allowLocal) }, (res) => {
      res.resume(); // the receiver's answer body is not used
      res.on('end', () => {
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    const timer = setTimeout(() => req.destroy(new DeliveryTimeout(`no response within ${opts.timeoutMs / 1000} s`)), opts.timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(data);
  });
}
