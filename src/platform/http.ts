/** Small HTTP helpers shared by routers: who sent a request. */
import type { Context } from 'hono';
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';

/** An address as compared and shown: an IPv4-mapped IPv6 address (`::ffff:10.0.0.5`) as its IPv4 form. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The TCP peer address of the request ("unknown" under app.request() in tests); a reverse proxy's own address when there is one. */
export function peerAddress(c: Context): string {
  try {
    const a = getConnInfo(c).remote.address;
    return a ? plain(a) : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The address of the computer that sent the request: the TCP peer, or — when the peer is
 * one of `trustedProxies` (CBT_TRUSTED_PROXIES) — the client that proxy names in
 * `X-Forwarded-For`. The header is read from the right (each proxy appends the address it
 * received the request from) and the first address that is not a trusted proxy is the
 * client; anything a client wrote further left is not believed, and a header that is
 * missing or not an IP address leaves the peer (RFC 7239 §5.2 on the same rule for
 * `Forwarded`). From any other peer the header is ignored, so nobody can choose the
 * address their sign-in throttles and seat are kept under (docs/decisions.md, "Throttles
 * keyed by what a guesser controls").
 * @param trustedProxies addresses of reverse proxies, as configured (may be empty)
 * @returns an IPv4 or IPv6 address as text, or "unknown"
 */
export function clientAddress(c: Context, trustedProxies: readonly string[] = []): string {
  const peer = peerAddress(c);
  if (!trustedProxies.length || !trustedProxies.includes(peer)) return peer;
  const forwarded = c.req.header('x-forwarded-for');
  if (!forwarded) return peer;
  const hops = forwarded.split(',').map((h) => plain(h.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) return peer;
    if (!trustedProxies.includes(hop)) return hop;
  }
  return peer;
}
