/**
 * Where webhooks may go (issue 22 part 4): anyone on the hall network can hold a
 * workspace key, so a webhook URL must not turn the appliance into a port scanner of
 * itself or a reader of cloud metadata. Refused: loopback (127.0.0.0/8, ::1), this
 * machine's own addresses, link-local (169.254.0.0/16 with the cloud metadata address
 * 169.254.169.254, fe80::/10, and AWS's fd00:ec2::254), unspecified (0.0.0.0/8, ::),
 * multicast and broadcast; IPv4-mapped IPv6 addresses are judged as their IPv4 address.
 * LAN and internet addresses are allowed. `CBT_WEBHOOK_ALLOW_LOCAL=1` allows loopback
 * and this machine's addresses, for a receiver on the same machine; the other kinds stay
 * refused.
 *
 * Checked when the URL is set (400; names are resolved, and a name that does not resolve
 * now — the hall is offline — is accepted) and again at every delivery on the addresses
 * DNS gives then, which are the addresses connected to (webhookLookup), so a name that
 * later resolves to a refused address (DNS rebinding) is not followed.
 *
 * The hall's hub link (modules/hub-link/hub-http.ts) uses the same guard with its own
 * wording and setting (CBT_HUB_ALLOW_LOCAL; issue #34, finding 1).
 */
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';

/** Why an address is refused; `local` kinds are the ones the setting allows. */
export interface Refusal {
  address: string;
  kind: 'loopback' | 'this machine' | 'link-local' | 'unspecified' | 'multicast' | 'broadcast';
  local: boolean;
}

const ranges: [Refusal['kind'], string, number, 'ipv4' | 'ipv6'][] = [
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['link-local', 'fd00:ec2::254', 128, 'ipv6'],
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['broadcast', '255.255.255.255', 32, 'ipv4'],
];
const lists = new Map<Refusal['kind'], BlockList>();
for (const [kind, net, prefix, type] of ranges) {
  const l = lists.get(kind) ?? new BlockList();
  l.addSubnet(net, prefix, type);
  lists.set(kind, l);
}

/** `::ffff:1.2.3.4` (and `::ffff:0102:0304`) → `1.2.3.4`; anything else unchanged. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const a = parseInt(hex[1]!, 16);
    const b = parseInt(hex[2]!, 16);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return address;
}

/** Why `address` (an IP literal) is refused as a webhook destination, or null when allowed. */
export function refusedAddress(address: string, allowLocal: boolean): Refusal | null {
  const ip = unmapped(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  const family = isIP(ip);
  if (!family) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of lists) {
    if (list.check(ip, type)) {
      const local = kind === 'loopback';
      if (local && allowLocal) return null;
      return { address: ip, kind, local };
    }
  }
  const own = Object.values(networkInterfaces()).flat().some((ni) => ni && unmapped(ni.address.replace(/%.*$/, '')).toLowerCase() === ip.toLowerCase());
  if (own && !allowLocal) return { address: ip, kind: 'this machine', local: true };
  return null;
}

/** Who is refused and which setting allows the local kinds (the hub link reuses this guard). */
export interface GuardWording {
  /** e.g. 'webhook destination', 'hub address' */
  what: string;
  /** the environment variable that allows loopback and this machine */
  setting: string;
  /** e.g. 'a receiver on this machine' */
  localUse: string;
}

const webhookWording: GuardWording = { what: 'webhook destination', setting: 'CBT_WEBHOOK_ALLOW_LOCAL', localUse: 'a receiver on this machine' };

/** The sentence for a refusal (problem details, outbox error). */
export function refusalText(r: Refusal, wording: GuardWording = webhookWording): string {
  const where = r.kind === 'this machine' ? 'an address of this machine' : `a ${r.kind} address`;
  return `${wording.what} ${r.address} is ${where}, which is refused${r.local ? ` (set ${wording.setting}=1 for ${wording.localUse})` : ''}`;
}

/**
 * Checks a webhook URL when it is set: its host, and the addresses its name resolves to now.
 * @returns the refusal, or null when the URL may be used (or its name does not resolve yet)
 */
export async function checkWebhookUrl(url: string, allowLocal: boolean): Promise<Refusal | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (isIP(unmapped(host))) return refusedAddress(host, allowLocal);
  if ((host === 'localhost' || host.endsWith('.localhost')) && !allowLocal) return { address: host, kind: 'loopback', local: true };
  let addresses: LookupAddress[];
  try {
    addresses = await Promise.race([
      dnsLookupAsync(host, { all: true }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('DNS timeout')), 3000).unref()),
    ]);
  } catch {
    return null; // offline now: checked again at each delivery
  }
  for (const a of addresses) {
    const r = refusedAddress(a.address, allowLocal);
    if (r) return r;
  }
  return null;
}

/** Error of a refused delivery; `code` lets the outbox report it like a network error. */
export class RefusedDestination extends Error {
  readonly code = 'EDESTINATIONREFUSED';
}

/**
 * A `lookup` for http(s).request that resolves the name and refuses the connection when
 * any address DNS gives is refused: the socket connects only to addresses checked here.
 */
export function webhookLookup(allowLocal: boolean, wording: GuardWording = webhookWording): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as LookupAddress[];
      for (const a of list) {
        const r = refusedAddress(a.address, allowLocal);
        if (r) return callback(new RefusedDestination(refusalText(r, wording)), '', 4);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
