/**
 * A shaped link for the network benchmark (issue #26): a network namespace of our own for
 * the server, a veth pair between it and the root namespace where the clients run, and
 * `tc` token-bucket shaping (tbf) of both directions at the hall's Wi-Fi rate. Delay and
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

/**
 * Creates the namespace and the veth pair and shapes it at `mbit` Mbit/s each way.
 * @returns {{ns: string, serverIp: string, clientIp: string, rootIf: string, mbit: number, reshape(mbit): void, counters(): {rx: number, tx: number}, close(): void}}
 */
export function createShapedLink(mbit) {
  const tag = `${process.pid % 100000}`;
  const ns = `hcbt${tag}`;
  const rootIf = `hcr${tag}`;
  const nsIf = `hcs${tag}`;
  const octet = 16 + (process.pid % 200);
  const serverIp = `10.77.${octet}.2`;
  const clientIp = `10.77.${octet}.1`;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      run(['link', 'del', rootIf]);
    } catch {
      /* already gone with the namespace */
    }
    try {
      run(['netns', 'del', ns]);
    } catch {
      /* gone */
    }
  };
  process.once('exit', close);
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => { close(); process.exit(130); });
  try {
    run(['netns', 'add', ns]);
    run(['link', 'add', rootIf, 'type', 'veth', 'peer', 'name', nsIf]);
    run(['link', 'set', nsIf, 'netns', ns]);
    run(['addr', 'add', `${clientIp}/30`, 'dev', rootIf]);
    run(['link', 'set', rootIf, 'up']);
    run(['-n', ns, 'addr', 'add', `${serverIp}/30`, 'dev', nsIf]);
    run(['-n', ns, 'link', 'set', nsIf, 'up']);
    run(['-n', ns, 'link', 'set', 'lo', 'up']);
  } catch (e) {
    close();
    throw e;
  }
  const shape = (rate) => {
    // tbf: rate, a burst of ~10 ms of traffic (at least 16 KB), and a queue of up to 200 ms
    const burst = Math.max(16 * 1024, Math.round((rate * 1e6) / 8 / 100));
    const args = (dev) => ['qdisc', 'replace', 'dev', dev, 'root', 'tbf', 'rate', `${rate}mbit`, 'burst', String(burst), 'latency', '200ms'];
    tc(args(rootIf));
    execFileSync('ip', ['netns', 'exec', ns, 'tc', ...args(nsIf)], { stdio: ['ignore', 'pipe', 'pipe'] });
  };
  shape(mbit);
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
    /** bytes received from the server (rx) and sent to it (tx) on the client side, with all headers */
    counters: () => ({ rx: stat('rx_bytes'), tx: stat('tx_bytes') }),
    close,
  };
}
