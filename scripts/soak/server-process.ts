/**
 * The real HallCBT server as a child process (`node --import tsx src/main.ts`) on one
 * data directory and one fixed port, so that candidates reconnect to the same address
 * after every restart. SIGKILL is the crash; the process gets no chance to flush or
 * close the database. Every line the server prints goes to `<runDir>/server.log`;
 * error-level log lines are counted (a crash campaign should produce none).
 *
 * `alive` records, in epoch ms, when each process was spawned and when it died: the
 * downtime-credit check bounds the time a candidate may be charged by the time some
 * server process was running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface ServerOptions {
  dataDir: string;
  port: number;
  /** file that receives the server's stdout and stderr */
  logFile: string;
  env?: Record<string, string>;
  /** run dist/src/main.js (compiled by `npm run build`) instead of the TypeScript sources */
  built?: boolean;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export { jobChildPids, jobLauncherPid } from '../bench/job-children.mjs';

export class ServerProcess {
  private proc: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private listening: Promise<void> = Promise.resolve();
  /** [spawnedAt, diedAt | null] per process, epoch ms */
  readonly alive: [number, number | null][] = [];
  errorLines: string[] = [];
  spawns = 0;
  /** spawn → "listening", ms, of every process that got that far */
  readonly startupMs: number[] = [];

  constructor(private readonly opts: ServerOptions) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.opts.port}`;
  }

  /** Starts a process; `ready()` resolves when it prints its "listening" line. */
  spawn(): void {
    if (this.proc) throw new Error('server already running');
    const env = {
      ...process.env,
      PORT: String(this.opts.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.opts.dataDir,
      CBT_BACKUP_INTERVAL_MINS: '0',
      CBT_WEBHOOK_ALLOW_LOCAL: '1', // the soak's webhook receiver is on loopback
      ...this.opts.env,
    };
    // built: as the systemd unit starts it (systemd/hallcbt.service, `--v8-pool-size=1`)
    const main = join(ROOT, 'dist', 'src', 'main.js');
    const entry = this.opts.built ? ['--v8-pool-size=1', main] : ['--import', 'tsx', join(ROOT, 'src', 'main.ts')];
    if (this.opts.built && !existsSync(main)) throw new Error('--built needs the compiled server: run `npm run build` first');
    const proc = spawn(process.execPath, entry, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    this.spawns++;
    const life: [number, number | null] = [Date.now(), null];
    this.alive.push(life);
    let buffered = '';
    this.listening = new Promise<void>((resolve, reject) => {
      const onLine = (line: string) => {
        if (line.includes('"msg":"listening"')) {
          this.startupMs.push(Date.now() - life[0]);
          resolve();
        }
        if (line.includes('"level":"error"')) this.errorLines.push(line);
      };
      const onData = (d: Buffer) => {
        const s = d.toString();
        appendFileSync(this.opts.logFile, s);
        buffered += s;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const l of lines) onLine(l);
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', (d: Buffer) => {
        appendFileSync(this.opts.logFile, d.toString());
        this.errorLines.push(`stderr: ${d.toString().trim()}`);
      });
      proc.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}) before listening; see ${this.opts.logFile}`)));
    });
    this.listening.catch(() => undefined);
    this.exited = new Promise<void>((r) =>
      proc.once('exit', () => {
        life[1] = Date.now();
        this.proc = null;
        r();
      }),
    );
  }

  /** Resolves when the current process listens. @throws if it exited first or took > 30 s */
  async ready(timeoutMs = 30_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`server not listening after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.listening, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILL: the process dies at once, mid-request and mid-transaction. */
  async kill(): Promise<void> {
    if (!this.proc) return;
    this.proc.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: graceful stop (flushes the answer buffer, closes the database). */
  async stop(): Promise<void> {
    if (!this.proc) return;
    this.proc.kill('SIGTERM');
    await this.exited;
  }

  /** pid of the current process (undefined while down) */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get running(): boolean {
    return this.proc !== null;
  }

  /** Milliseconds some server process was alive within [from, to] (epoch ms). */
  aliveWithin(from: number, to: number): number {
    let ms = 0;
    for (const [a, b] of this.alive) {
      const end = Math.min(to, b ?? Date.now());
      const start = Math.max(from, a);
      if (end > start) ms += end - start;
    }
    return ms;
  }
}
