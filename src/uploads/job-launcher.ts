/**
 * The server's side of the job launcher (issue 22 §1; entry: job-launcher-main.ts): job
 * processes are started by a small process the server spawns once, at boot, while its own
 * heap is small, not by the server. `spawn` forks the calling process, and a fork copies
 * its page tables while its event loop waits: 6–16 ms for the server at ~180–340 MB RSS,
 * about two dozen times per 30 s of hostile uploads in the uploads bench — stalls the
 * hall's saves felt. The only fork the server makes after boot is a restart of a launcher
 * that died (docs/decisions.md, "Job processes are started by a launcher").
 *
 * `launchJobProcess(args)` returns a `LaunchedChild`, what job-process.ts needs of a child
 * process: its `pid` (for reading its memory after a job, and SIGKILL), IPC `send` (with a
 * handle: the connection handed over to read an upload from) and `'message'` (both relayed
 * by the launcher), its `stdin` (a socket straight to the child: the job's byte frames do
 * not pass through the launcher), `'spawn'`, `'exit'` (code, signal, the tail of its
 * stderr, whether the launcher's memory watchdog killed it) and `'error'` (it never
 * started). Children and the launcher are SIGKILLed when the server exits; the launcher
 * kills its children and exits when the server dies (its IPC channel closes), and the
 * children exit by themselves when the launcher dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

/** V8 old-generation heap of the launcher, MB: it relays job messages, nothing more. */
export const LAUNCHER_HEAP_MB = 64;
/**
 * V8 semi-space of the launcher, MB. With V8's default (16 MB) the launcher's young
 * generation grew with the messages it relays (the question engine's passages and
 * results): its RSS went from 43 to 103 MB over one 30 s window of the uploads bench.
 */
export const LAUNCHER_SEMI_SPACE_MB = 1;
/**
 * Node flags of the launcher. `--optimize-for-size`: after 12 rounds of the bench's
 * generation uploads its RSS levelled off at ~61 MB instead of 64–70 MB (measured apart).
 */
const LAUNCHER_FLAGS = ['--optimize-for-size', `--max-old-space-size=${LAUNCHER_HEAP_MB}`, `--max-semi-space-size=${LAUNCHER_SEMI_SPACE_MB}`];

/** A message from the launcher (job-launcher-main.ts). */
type FromLauncher =
  | { op: 'ready' }
  | { op: 'spawned'; id: number; pid: number }
  | { op: 'error'; id: number; message: string }
  | { op: 'msg'; id: number; msg: unknown }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null; stderr: string; overMemory: boolean };

/** How a job process is to be started: node's arguments, its nice value where SCHED_IDLE is missing, its memory watchdog. */
export interface LaunchOptions {
  args: string[];
  nice: number;
  rssLimitMb: number;
  watchEveryMs: number;
}

type Send = [message: unknown, handle: unknown, callback: ((err: Error | null) => void) | undefined];

/** Node's arguments for the launcher (through tsx's loader from TypeScript sources). */
function launcherArgs(): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./job-launcher-main.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const flags = [...LAUNCHER_FLAGS];
  if (fromSource) flags.push('--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href);
  return [...flags, entry];
}

/** The launcher process while it lives. */
class Launcher {
  readonly proc: ChildProcess;
  dead = false;
  private ready = false;
  private readonly queue: Send[] = [];
  readonly children = new Map<number, LaunchedChild>();
  /** children that hold the event loop (a job in flight) */
  private readonly holding = new Set<number>();

  constructor() {
    this.proc = spawn(process.execPath, launcherArgs(), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    this.proc.on('message', (m: FromLauncher, handle?: unknown) => this.onMessage(m, handle));
    this.proc.on('error', (err) => {
      if (this.proc.pid === undefined) this.gone(`the job launcher could not start (${err.message})`, true);
    });
    this.proc.on('exit', (code, signal) => this.gone(`its launcher ended (${signal ?? `exit code ${code}`})`, false));
    this.setRef();
    // a launcher started again (the last one died) keeps the cap in force
    if (capPercent < 100) this.send({ op: 'cap', percent: capPercent });
  }

  private onMessage(m: FromLauncher, handle: unknown): void {
    if (m.op === 'ready') {
      this.ready = true;
      for (const s of this.queue.splice(0)) this.write(...s);
      return;
    }
    const child = this.children.get(m.id);
    if (!child) {
      (handle as Socket | undefined)?.destroy?.();
      return;
    }
    if (m.op === 'spawned') child.spawned(m.pid, handle as Socket);
    else if (m.op === 'msg') child.emit('message', m.msg);
    else if (m.op === 'error') {
      this.children.delete(m.id);
      this.hold(m.id, false);
      child.failed(new Error(m.message));
    } else if (m.op === 'exit') {
      this.children.delete(m.id);
      this.hold(m.id, false);
      child.exited(m.code, m.signal, m.stderr, m.overMemory);
    }
  }

  /** The launcher died (or never started): every child of it is ended and answers. */
  private gone(why: string, neverStarted: boolean): void {
    if (this.dead) return;
    this.dead = true;
    if (current === this) current = null;
    for (const [id, child] of this.children) {
      this.children.delete(id);
      if (neverStarted || child.pid === undefined) child.failed(new Error(why));
      else {
        child.kill(); // it would exit by itself (its IPC channel closed); not a moment later
        child.exited(null, 'SIGKILL', '', false, why);
      }
    }
    this.holding.clear();
  }

  /** Sends a message to the launcher once it listens. */
  send(message: unknown, handle?: unknown, callback?: (err: Error | null) => void): void {
    if (!this.ready) this.queue.push([message, handle, callback]);
    else this.write(message, handle, callback);
  }

  private write(message: unknown, handle: unknown, callback: ((err: Error | null) => void) | undefined): void {
    if (this.dead || !this.proc.connected) return callback?.(new Error('the job launcher is gone'));
    // a connection handed over stays open here (the server answers on it)
    this.proc.send(message as never, handle as never, { keepOpen: true }, (err) => callback?.(err ?? null));
  }

  /** A child with a job in flight keeps the server's event loop alive (tests, scripts); an idle one does not. */
  hold(id: number, on: boolean): void {
    if (on) this.holding.add(id);
    else this.holding.delete(id);
    this.setRef();
  }

  private setRef(): void {
    type Handle = { ref?(): void; unref?(): void } | null | undefined;
    const on = this.holding.size > 0;
    for (const h of [this.proc, (this.proc as unknown as { channel?: Handle }).channel] as Handle[]) (on ? h?.ref?.() : h?.unref?.());
  }
}

let current: Launcher | null = null;
/** The cap on job processes now in force, percent of the time they may run (100: none). */
let capPercent = 100;
let started = 0;
let nextId = 1;
let exitHook = false;

/** The launcher, started when there is none (at boot, or again after it died). */
function launcher(): Launcher {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      if (!current) return;
      for (const c of current.children.values()) c.kill();
      current.proc.kill('SIGKILL');
    });
  }
  if (!current || current.dead) {
    if (started++ > 0) process.stderr.write('hallcbt: the job launcher ended; started a new one\n');
    current = new Launcher();
  }
  return current;
}

/**
 * Starts the job launcher now (the server calls this at boot, while its heap is small, so
 * the one fork is cheap); otherwise the first job starts it. Returns its pid.
 */
export function startJobLauncher(): number | undefined {
  return launcher().proc.pid;
}

/**
 * Caps every job process, now and later ones, to running `percent` % of the time: the
 * launcher continues (SIGCONT) and stops (SIGSTOP) them, `percent` ms of every 100 ms;
 * 100 lifts the cap.
 * job-pool.ts sets it while an exam is live (docs/decisions.md, "Background jobs yield
 * to a live exam"). Values are clamped to 1–100.
 */
export function setJobCpuCap(percent: number): void {
  const p = Math.max(1, Math.min(100, Math.round(percent)));
  if (p === capPercent) return;
  capPercent = p;
  if (current && !current.dead) current.send({ op: 'cap', percent: p });
}

/** The cap on job processes in force, percent of the time they may run (100: none). */
export function jobCpuCap(): number {
  return capPercent;
}

/** A job process started by the launcher, as job-process.ts sees it. Events: 'spawn', 'message', 'exit', 'error'. */
export class LaunchedChild extends EventEmitter {
  pid: number | undefined;
  /** The child's stdin (the job's byte frames), once it started. */
  stdin: Socket | null = null;
  private over = false;
  private killWanted = false;
  private ref = false;

  constructor(
    private readonly id: number,
    private readonly via: Launcher,
  ) {
    super();
  }

  /** @internal the launcher started it */
  spawned(pid: number, stdin: Socket | undefined): void {
    this.pid = pid;
    this.stdin = stdin ?? null;
    this.stdin?.on('error', () => {}); // a child that died closes its stdin (EPIPE); its exit answers
    this.applyRef();
    if (this.killWanted) this.kill();
    this.emit('spawn');
  }

  /** @internal it ended */
  exited(code: number | null, signal: NodeJS.Signals | null, stderr: string, overMemory: boolean, why?: string): void {
    if (this.over) return;
    this.over = true;
    this.stdin?.destroy();
    this.emit('exit', code, signal, stderr, overMemory, why);
  }

  /** @internal it never started */
  failed(err: Error): void {
    if (this.over) return;
    this.over = true;
    this.emit('error', err);
  }

  /** Sends an IPC message to the child (through the launcher), with a handle or not; `callback` gets an error when it could not go. */
  send(message: unknown, handle?: unknown, callback?: (err: Error | null) => void): void {
    if (this.over) return callback?.(new Error('the job process is gone'));
    this.via.send({ op: 'send', id: this.id, msg: message }, handle, callback);
  }

  /** SIGKILLs the child (now, or as soon as its pid is known). */
  kill(): void {
    if (this.over) return;
    if (this.pid === undefined) {
      this.killWanted = true;
      return;
    }
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      /* gone already: its exit answers */
    }
  }

  /** Whether the child keeps the server's event loop alive (while a job is in flight). */
  setRef(on: boolean): void {
    this.ref = on;
    this.applyRef();
  }

  private applyRef(): void {
    if (this.over) return;
    this.via.hold(this.id, this.ref);
    if (this.ref) this.stdin?.ref();
    else this.stdin?.unref();
  }
}

/**
 * Starts a job process through the launcher (started first if there is none).
 * @returns at once; the child's pid and stdin come with its 'spawn' event, 'error' when it
 *   could not be started (the launcher could not start, or node/chrt could not run)
 */
export function launchJobProcess(o: LaunchOptions): LaunchedChild {
  const via = launcher();
  const id = nextId++;
  const child = new LaunchedChild(id, via);
  via.children.set(id, child);
  via.send({ op: 'spawn', id, ...o });
  return child;
}
