/**
 * A shaped link for the network benchmark (issue #26): a network namespace of our own for
 * the server, a router namespace (the hall's access point) between it and the root
 * namespace where the clients run, joined by veth pairs, and `tc` token-bucket shaping
 * (tbf) of both directions on the router at the hall's Wi-Fi rate. Delay and
 * loss would need netem, which these machines' kernels do not have: the report says so
 * instead of faking them.
 *
 * Everything is named after the process id and removed by `close()` (and by the exit
 * handlers) even when the benchmark fails half way.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const run = (args) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const tc = (args) => execFileSync('tc', args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/**
 * null when namespaces and tc can be used here; otherwise the one-line reason to print.
 */
export function linkAvailability() {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'network benchmark skipped: creating network namespaces needs root (CAP_NET_ADMIN)';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
    execFileSync('tc', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'network benchmark skipped: `ip` and `tc` (Debian package iproute2) are not installed';
  }
  const probe = `hcbtprobe${process.pid}`;
  try {
    run(['netns', 'add', probe]);
    run(['netns', 'del', probe]);
  } catch (e) {
    return `network benchmark skipped: this machine cannot create network namespaces (${String(e.stderr ?? e.message).trim().split('\n')[0]})`;
  }
  return null;
}

/** Whether this kernel has the netem qdisc (delay, loss). */
export function hasNetem() {
  const ns = `hcbtnetem${process.pid}`;
  try {
    run(['netns', 'add', ns]);
    execFileSync('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '10ms'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    try {
      run(['netns', 'del', ns]);
    } catch {
      /* gone */
    }
  }
}

/** The counters `tcpStats()` reports (prefix as in /proc/net/netstat and /proc/net/snmp). */
const TCP_COUNTERS = ['TcpExt:ListenOverflows', 'TcpExt:ListenDrops', 'TcpExt:SyncookiesSent', 'TcpExt:SyncookiesRecv', 'TcpExt:SyncookiesFailed', 'TcpExt:EmbryonicRsts', 'TcpExt:TCPReqQFullDoCookies', 'TcpExt:TCPReqQFullDrop', 'TcpExt:TCPAbortOnData', 'TcpExt:TCPAbortOnClose', 'TcpExt:TCPAbortOnTimeout', 'TcpExt:TCPAbortOnMemory', 'TcpExt:TCPRetransFail', 'TcpExt:TCPTimeouts', 'Tcp:OutRsts', 'Tcp:EstabResets', 'Tcp:AttemptFails', 'Tcp:RetransSegs'];

/**
 * Creates the server's namespace and a router namespace between it and the root namespace
 * (where the clients run), joined by two veth pairs, and shapes the router's two egress
 * interfaces at `mbit` Mbit/s — the hall's access point.
 *
 * The queue is on a box of its own, as a hall's access point is, not on the server's own
 * interface: a qdisc on the sending host's interface drops packets *locally*, and Linux
 * TCP treats a locally dropped zero-window probe as "local congestion", counts it and
 * retries every 500 ms, and kills the connection after tcp_retries2 (15) such probes —
 * with no reset sent. At 500 candidates that is what happened to the connections of
 * clients that were slow to read while the full tbf queue dropped every probe for ~8 s:
 * TCPAbortOnTimeout in the server's namespace, then `read ECONNRESET` at the client when
 * its next segment met the forgotten connection. A server behind a real access point sends
 * its probes and they are answered (or lost on the air, which is an ordinary timeout).
 *
 * @returns {{ns: string, serverIp: string, clientIp: string, rootIf: string, mbit: number, reshape(mbit): void, tcpStats(): Record<string, number>, counters(): {rx: number, tx: number}, qdiscStats(): {drops: number, backlogMaxBytes?: number}, close(): void}}
 */
export function createShapedLink(mbit) {
  const tag = `${process.pid % 100000}`;
  const ns = `hcbt${tag}`;
  const router = `hcbtr${tag}`;
  const rootIf = `hcr${tag}`; // root end of the clients' veth
  const routerClientIf = `hcrc${tag}`; // router end of the clients' veth
  const routerServerIf = `hcrs${tag}`; // router end of the server's veth
  const nsIf = `hcs${tag}`; // server end of the server's veth
  const octet = 16 + (process.pid % 200);
  const clientIp = `10.77.${octet}.1`;
  const routerClientIp = `10.77.${octet}.2`;
  const routerServerIp = `10.77.${octet}.5`;
  const serverIp = `10.77.${octet}.6`;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      run(['link', 'del', rootIf]);
    } catch {
      /* already gone with the namespace */
    }
    for (const n of [ns, router]) {
      try {
        run(['netns', 'del', n]);
      } catch {
        /* gone */
      }
    }
  };
  process.once('exit', close);
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => { close(); process.exit(130); });
  try {
    run(['netns', 'add', ns]);
    run(['netns', 'add', router]);
    run(['link', 'add', rootIf, 'type', 'veth', 'peer', 'name', routerClientIf]);
    run(['link', 'set', routerClientIf, 'netns', router]);
    run(['-n', router, 'link', 'add', routerServerIf, 'type', 'veth', 'peer', 'name', nsIf]);
    run(['-n', router, 'link', 'set', nsIf, 'netns', ns]);
    run(['addr', 'add', `${clientIp}/30`, 'dev', rootIf]);
    run(['link', 'set', rootIf, 'up']);
    run(['route', 'add', `${serverIp}/32`, 'via', routerClientIp, 'dev', rootIf]);
    run(['-n', router, 'addr', 'add', `${routerClientIp}/30`, 'dev', routerClientIf]);
    run(['-n', router, 'addr', 'add', `${routerServerIp}/30`, 'dev', routerServerIf]);
    run(['-n', router, 'link', 'set', routerClientIf, 'up']);
    run(['-n', router, 'link', 'set', routerServerIf, 'up']);
    execFileSync('ip', ['netns', 'exec', router, 'sysctl', '-q', '-w', 'net.ipv4.ip_forward=1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    run(['-n', ns, 'addr', 'add', `${serverIp}/30`, 'dev', nsIf]);
    run(['-n', ns, 'link', 'set', nsIf, 'up']);
    run(['-n', ns, 'link', 'set', 'lo', 'up']);
    run(['-n', ns, 'route', 'add', 'default', 'via', routerServerIp]);
  } catch (e) {
    close();
    throw e;
  }
  const inRouter = (args) => execFileSync('ip', ['netns', 'exec', router, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  const shape = (rate) => {
    // tbf: rate, a burst of ~10 ms of traffic (at least 16 KB), and a queue of up to 200 ms
    const burst = Math.max(16 * 1024, Math.round((rate * 1e6) / 8 / 100));
    for (const dev of [routerClientIf, routerServerIf]) inRouter(['tc', 'qdisc', 'replace', 'dev', dev, 'root', 'tbf', 'rate', `${rate}mbit`, 'burst', String(burst), 'latency', '200ms']);
  };
  shape(mbit);
  /** packets the access point's queues dropped so far (both directions) */
  const qdiscStats = () => {
    let drops = 0;
    for (const dev of [routerClientIf, routerServerIf]) drops += Number(/dropped (\d+)/.exec(inRouter(['tc', '-s', 'qdisc', 'show', 'dev', dev]))?.[1] ?? 0);
    return { drops };
  };
  /**
   * The server namespace's TCP counters that tell a dropped or reset connection from a slow
   * one (/proc/net/netstat and /proc/net/snmp as seen inside the namespace): listen-queue
   * overflows and drops, SYN cookies, resets sent, aborts.
   */
  const tcpStats = () => {
    const out = {};
    for (const file of ['/proc/net/netstat', '/proc/net/snmp']) {
      const lines = execFileSync('ip', ['netns', 'exec', ns, 'cat', file]).toString().trim().split('\n');
      for (let i = 0; i + 1 < lines.length; i += 2) {
        const names = lines[i].split(/\s+/);
        const values = lines[i + 1].split(/\s+/);
        const prefix = names[0];
        names.slice(1).forEach((n, k) => {
          if (TCP_COUNTERS.includes(`${prefix}${n}`)) out[`${prefix}${n}`] = Number(values[k + 1]);
        });
      }
    }
    return out;
  };
  const stat = (name) => Number(readFileSync(`/sys/class/net/${rootIf}/statistics/${name}`, 'utf8'));
  return {
    ns,
    serverIp,
    clientIp,
    rootIf,
    mbit,
    reshape(rate) {
      shape(rate);
      this.mbit = rate;
    },
    tcpStats,
    qdiscStats,
    /** bytes received from the server (rx) and sent to it (tx) on the client side, with all headers */
    counters: () => ({ rx: stat('rx_bytes'), tx: stat('tx_bytes') }),
    close,
  };
}
