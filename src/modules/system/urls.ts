/**
 * The addresses that reach this server, for the start-up banner, /system/info, the admin
 * page's connect screen and the PIN slips. Only addresses the listening socket accepts:
 * listening on every interface (`HOST` 0.0.0.0 or ::), each non-internal IPv4 address of
 * the machine; listening on one address (e.g. `HOST=127.0.0.1`), that address alone; a
 * loopback address reaches this machine only, which `thisMachineOnly` says.
 */
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface ReachableUrls {
  /** `http(s)://<address>:<port>/`, best first */
  urls: string[];
  /** true when the server listens on a loopback address: no other PC can open these */
  thisMachineOnly: boolean;
}

const WILDCARD = new Set(['', '0.0.0.0', '::', '[::]']);

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Addresses that reach a server listening on `host`:`port`.
 * @param host the `HOST` the server was started with (an address or a host name)
 * @param port the port it listens on
 * @param tls  true when it speaks HTTPS
 */
export function reachableUrls(host: string, port: number, tls: boolean): ReachableUrls {
  const scheme = tls ? 'https' : 'http';
  if (WILDCARD.has(host)) {
    const urls: string[] = [];
    for (const list of Object.values(networkInterfaces())) {
      for (const ni of list ?? []) if (ni.family === 'IPv4' && !ni.internal) urls.push(`${scheme}://${ni.address}:${port}/`);
    }
    // no network cable: this machine's own browser still reaches it
    return urls.length ? { urls, thisMachineOnly: false } : { urls: [`${scheme}://localhost:${port}/`], thisMachineOnly: true };
  }
  const bare = host.replace(/^\[|\]$/g, '');
  const shown = isIP(bare) === 6 ? `[${bare}]` : bare;
  return { urls: [`${scheme}://${shown}:${port}/`], thisMachineOnly: isLoopbackHost(host) };
}
