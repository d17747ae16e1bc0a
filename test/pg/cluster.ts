/**
 * A throwaway PostgreSQL cluster for tests: Debian's `postgresql` binaries, `initdb` into
 * a temp directory and `pg_ctl` on a free loopback port, removed when stopped. Never a
 * mock, never a shared server.
 *
 * `initdb` refuses to run as root, so as root the cluster belongs to the `postgres` user
 * and every command runs through `runuser -u postgres --`. Where no server binaries are
 * found (a developer machine without Debian's `postgresql` package), `pgAvailability()`
 * says why, and the tests skip with that one line (.ci/run installs the package).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dir: string;
  /** a URL for another database of this cluster (created by createDatabase) */
  urlFor(database: string): string;
  /** CREATE DATABASE name; returns its URL */
  createDatabase(name: string): string;
  /** pg_ctl stop -m immediate and remove the directory */
  stop(): Promise<void>;
}

/** The directory holding initdb/pg_ctl/postgres, or null when PostgreSQL is not installed. */
export function pgBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(base, versions[0]!, 'bin') : null;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** null when a cluster can be made here; otherwise the one-line reason to print on skip. */
export function pgAvailability(): string | null {
  if (!pgBinDir()) {
    return "PostgreSQL tests skipped: Debian's postgresql package is not installed (apt-get install postgresql; .ci/run does it)";
  }
  if (isRoot && spawnSync('id', ['postgres']).status !== 0) {
    return 'PostgreSQL tests skipped: running as root but there is no `postgres` user to own the cluster';
  }
  return null;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function asOwner(bin: string, args: string[]): string {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** pg_ctl's log says the server could not listen on its port (another process took it). */
export function lostPortRace(log: string): boolean {
  return /could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(log);
}

/**
 * `pg_ctl start` on a free loopback port. The port is asked of the kernel and released before
 * postgres binds it, so another process (a test server on port 0, another cluster) can take it
 * in between; postgres then fails to bind and pg_ctl fails. That case — and only that one,
 * read from the server's log — is retried on a new port, up to 5 times.
 * @returns the port the server listens on
 * @throws pg_ctl's error with the log's tail, for any other failure or after 5 lost races
 */
async function startOnFreePort(bin: string, data: string, dir: string, serverOpts: (port: number) => string, nextPort: () => Promise<number>): Promise<number> {
  const logFile = join(dir, 'log');
  for (let attempt = 1; ; attempt++) {
    const port = await nextPort();
    const before = existsSync(logFile) ? readFileSync(logFile, 'utf8').length : 0;
    try {
      asOwner(join(bin, 'pg_ctl'), ['-D', data, '-o', serverOpts(port), '-l', logFile, '-w', '-t', '60', 'start']);
      return port;
    } catch (e) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(before) : '';
      if (attempt < 5 && lostPortRace(log)) continue;
      throw new Error(`pg_ctl start failed on port ${port}: ${(e as Error).message}\n${log.slice(-2000)}`);
    }
  }
}

/**
 * initdb + pg_ctl start on a free port, trust auth on loopback only, fsync off (a test
 * cluster: speed over durability). `durable: true` keeps PostgreSQL's durable defaults
 * (fsync, synchronous_commit, full_page_writes on; a commit waits for its WAL flush), with
 * only `max_wal_size` raised to 4 GB and the `settings` given: what the hub benchmark
 * measures. `nextPort` picks the port to try (default `freePort`; a port lost to another
 * process in between is retried on the next one: startOnFreePort). Throws with pg's own
 * output when a step fails.
 */
export async function startPgCluster(opts: { durable?: boolean; settings?: Record<string, string>; nextPort?: () => Promise<number> } = {}): Promise<PgCluster> {
  const why = pgAvailability();
  if (why) throw new Error(why);
  const bin = pgBinDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'hallcbt-pg-'));
  const data = join(dir, 'data');
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  asOwner(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const speed = opts.durable ? '-c max_wal_size=4GB' : '-c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const extra = Object.entries(opts.settings ?? {}).map(([k, v]) => `-c ${k}=${v}`).join(' ');
  let port: number;
  try {
    port = await startOnFreePort(bin, data, dir, (p) => `-p ${p} -k ${dir} -c listen_addresses=127.0.0.1 ${speed} -c max_connections=200 ${extra}`.trim(), opts.nextPort ?? freePort);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const urlFor = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  let stopped = false;
  return {
    url: urlFor('postgres'),
    port,
    dir,
    urlFor,
    createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name: ${name}`);
      asOwner(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-qc', `CREATE DATABASE ${name}`]);
      return urlFor(name);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        asOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
