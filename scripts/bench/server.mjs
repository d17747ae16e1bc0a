/**
 * The server under test: the real server as `npm start` runs it (`dist/src/main.js`, built
 * by `buildServer()` before the first run) started as its own process,
 * with the benchmark probe preloaded (probe.mjs), listening on 127.0.0.1 at a free port
 * with a temp DATA_DIR, and the rate limits raised so the bench measures the server, not
 * the throttle. Its JSON request log goes to `<dataDir>/server.log` (a file, like
 * journald would receive, so logging cost is part of the figures).
 *
 * Also: `sampleProcess(pid)` reads CPU ticks and RSS from /proc for the monitor.
 */
import { execFileSync, spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = fileURLToPath(new URL('./probe.mjs', import.meta.url));
/**
 * The node flags of `npm start` (package.json: `node <flags> dist/src/main.js`), so the
 * server runs here exactly as it is started in a hall.
 */
export const START_FLAGS = (() => {
  const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  if (start[0] !== 'node' || start.at(-1) !== 'dist/src/main.js') throw new Error(`bench: unexpected start script: ${start.join(' ')}`);
  return start.slice(1, -1);
})();

/**
 * Compiles the server (tsc → dist/) so the benchmark measures what `npm start` runs.
 * @throws Error with tsc's output when the build fails
 */
export function buildServer() {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, stdio: 'pipe' });
}

/** A free TCP port on 127.0.0.1 (bound and released at once). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server and waits until GET /health answers 200 (≤ 60 s).
 * @param {{dataDir: string, env?: Record<string,string>, probe?: boolean, source?: boolean}} opts  probe: false
 *   starts it without the probe (exactly `npm start`'s command line; `probe()` then resolves null);
 *   source: true runs the TypeScript sources through tsx (`--import tsx src/main.ts`, the
 *   same node flags) instead of dist/, for tests that must not build
 * @returns {Promise<{baseUrl, port, pid, probe(cmd), stop(): Promise<number|null>, exited: Promise<number|null>}>}
 * @throws Error with the log tail when the process exits or does not answer
 */
export async function startServer({ dataDir, env = {}, probe: withProbe = true, source = false }) {
  const port = await freePort();
  const logPath = join(dataDir, 'server.log');
  const logFd = openSync(logPath, 'a');
  // BENCH_SERVER_NODE_ARGS (space-separated) adds node flags for diagnosis, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...START_FLAGS, ...extra, ...(withProbe ? ['--import', PROBE] : []), ...(source ? ['--import', 'tsx', join(ROOT, 'src', 'main.ts')] : [join(ROOT, 'dist', 'src', 'main.js')])], {
    cwd: ROOT,
    env: {
      ...process.env,
      // as systemd/hallcbt.service runs it
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-old-space-size=768',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CBT_RATE_LIMIT_PER_MIN: '1000000',
      CBT_ANSWER_RATE_LIMIT_PER_MIN: '1000000',
      CBT_BACKUP_INTERVAL_MINS: '0',
      CBT_WEBHOOK_ALLOW_LOCAL: '1', // the benchmark's webhook receiver is on loopback
      CBT_BENCH_BASELINE: '1',
      // every simulated candidate comes from loopback: one computer per attempt would stop the hall at its first candidate
      CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0',
      ...env,
    },
    stdio: ['ignore', logFd, logFd, 'ipc'],
  });
  closeSync(logFd);
  const exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const tail = () => {
    try {
      return readFileSync(logPath, 'utf8').slice(-3000);
    } catch {
      return '';
    }
  };
  let dead = false;
  exited.then(() => (dead = true));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (dead) throw new Error(`server exited during start:\n${tail()}`);
    try {
      const r = await fetch(`${baseUrl}/health`);
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not answer /health within 60 s:\n${tail()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  let nextId = 1;
  const waiting = new Map();
  proc.on('message', (m) => {
    const w = waiting.get(m?.id);
    if (w) {
      waiting.delete(m.id);
      w(m);
    }
  });
  /** Sends a probe command ('reset' | 'read'); resolves the reply (null after 5 s). */
  const probe = (cmd) =>
    new Promise((resolve) => {
      const id = nextId++;
      const t = setTimeout(() => {
        waiting.delete(id);
        resolve(null);
      }, 5000);
      waiting.set(id, (m) => {
        clearTimeout(t);
        resolve(m.probe ?? m);
      });
      proc.send({ cmd, id });
    });

  return {
    baseUrl,
    port,
    pid: proc.pid,
    logPath,
    probe,
    exited,
    /** SIGTERM (flushes answers, closes the DB); SIGKILL after 20 s. Resolves the exit code. */
    async stop() {
      if (dead) return exited;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
}

const CLK_TCK = 100; // Linux USER_HZ; `getconf CLK_TCK` is 100 on every mainstream kernel

/**
 * One reading of a process and of the machine.
 * @returns {{t: number, cpuSec: number, rssMB: number, hwmMB: number, machineBusy: number, machineTotal: number}}
 *   cpuSec = user+system CPU seconds of `pid` so far; machine* = jiffies from /proc/stat
 */
export function sampleProcess(pid) {
  const t = performance.now();
  let cpuSec = 0;
  let rssMB = 0;
  let hwmMB = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    cpuSec = (Number(f[11]) + Number(f[12])) / CLK_TCK; // fields 14 and 15 (utime, stime)
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    rssMB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    hwmMB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    /* process gone */
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + cpu[4];
  const total = cpu.reduce((a, b) => a + b, 0);
  return { t, cpuSec, rssMB, hwmMB, machineBusy: total - idle, machineTotal: total };
}
