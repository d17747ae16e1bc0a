/**
 * Entry of the job launcher (job-launcher.ts; issue 22 §1): a small Node process the server
 * starts once, at boot, that starts the job processes (job-child.ts) for it, so the server
 * never forks during an exam. A fork copies the forking process's page tables and blocks
 * its event loop meanwhile: ~6–16 ms for the server at ~180–340 MB RSS, ~1.5 ms for this
 * process at ~40 MB, and here the stall is nobody's answer (docs/decisions.md, "Job
 * processes are started by a launcher").
 *
 * It imports nothing of the server's (node built-ins only: it starts fast and stays small).
 * Protocol with the server, over IPC (`serialization: 'advanced'`):
 * - server → launcher `{op: 'spawn', id, args, nice, rssLimitMb, watchEveryMs}`: start
 *   `node <args>` under SCHED_IDLE (`chrt --idle 0`; nice `nice` where chrt is missing or
 *   refused, said once on stderr), watch its resident memory every `watchEveryMs` and
 *   SIGKILL it past `rssLimitMb`; answer `{op: 'spawned', id, pid}` with the child's stdin
 *   (a socket: the server writes the job's byte frames straight into it, nothing passes
 *   here), or `{op: 'error', id, message}` when it could not start.
 * - server → launcher `{op: 'send', id, msg}` (with a handle or not): `msg` goes to child
 *   `id` with the handle (a connection handed over to read an upload from); this process's
 *   copy of the handle is closed once sent.
 * - launcher → server `{op: 'msg', id, msg}` for each IPC message of child `id`, and
 *   `{op: 'exit', id, code, signal, stderr, overMemory}` when it ended (`stderr`: the last
 *   4 KB it printed, for telling heap exhaustion; `overMemory`: the watchdog killed it).
 * - server → launcher `{op: 'cap', percent}`: every child may run `percent` % of the time
 *   (stopped and continued every 100 ms) until the next cap; 100 lifts it (job-pool.ts
 *   sets it while an attempt is in progress).
 * - `{op: 'ready'}` once this process listens.
 * When the server goes away (the IPC channel closes) every child is killed and this
 * process exits; the children also exit by themselves when this process dies.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** A message from the server (job-launcher.ts). */
type ToLauncher =
  | { op: 'spawn'; id: number; args: string[]; nice: number; rssLimitMb: number; watchEveryMs: number }
  | { op: 'send'; id: number; msg: unknown }
  | { op: 'cap'; percent: number };

const children = new Map<number, ChildProcess>();
let idlePolicy: boolean | null = null;

/**
 * Whether children can run under Linux's SCHED_IDLE policy (util-linux `chrt --idle 0`,
 * probed once: `chrt --idle 0 true`); where not, one line on stderr says children run at
 * nice `nice` instead.
 */
function schedIdle(nice: number): boolean {
  if (idlePolicy === null) {
    let why = '';
    if (process.platform !== 'linux') why = 'not Linux';
    else {
      const probe = spawnSync('chrt', ['--idle', '0', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5_000 });
      if (probe.error) why = `chrt could not run (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})`;
      else if (probe.status !== 0) why = `chrt refused (${probe.stderr.toString().trim() || `exit ${probe.status}`})`;
    }
    idlePolicy = !why;
    if (why) process.stderr.write(`hallcbt: job processes run at nice ${nice}, not SCHED_IDLE: ${why}\n`);
  }
  return idlePolicy;
}

/** Resident memory of a process, MB (0 when it is gone). */
function residentMB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const tell = (message: unknown, handle?: unknown) => {
  if (process.connected) process.send!(message, handle as never, {}, () => {});
};

/** Closes this process's copy of a handle the server sent (a TCP handle: only our descriptor). */
const closeHandle = (handle: unknown) => (handle as { close?: () => void } | undefined)?.close?.();

function start(m: Extract<ToLauncher, { op: 'spawn' }>): void {
  // chrt execs node in the same process (same pid), under SCHED_IDLE
  const [cmd, args] = schedIdle(m.nice) ? ['chrt', ['--idle', '0', process.execPath, ...m.args]] : [process.execPath, m.args];
  const child = spawn(cmd as string, args as string[], { stdio: ['pipe', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
  child.on('error', (err) => {
    if (child.pid === undefined) tell({ op: 'error', id: m.id, message: err.message });
  });
  if (child.pid === undefined) return;
  const pid = child.pid;
  children.set(m.id, child);
  try {
    setPriority(pid, m.nice);
  } catch {
    /* already gone: its exit answers */
  }
  let stderr = '';
  let stderrEnded = false;
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4096)));
  child.stderr!.on('end', () => (stderrEnded = true));
  child.stdin!.on('error', () => {});
  let overMemory = false;
  const watchdog = setInterval(() => {
    if (residentMB(pid) > m.rssLimitMb) {
      overMemory = true;
      child.kill('SIGKILL');
    }
  }, m.watchEveryMs);
  child.on('message', (msg) => tell({ op: 'msg', id: m.id, msg }));
  child.on('exit', (code, signal) => {
    clearInterval(watchdog);
    children.delete(m.id);
    // what it printed last (V8's "heap out of memory") may still be in the pipe: wait for its end, briefly
    const report = () => tell({ op: 'exit', id: m.id, code, signal, stderr, overMemory });
    if (stderrEnded) return report();
    const timer = setTimeout(report, 100);
    child.stderr!.once('end', () => {
      clearTimeout(timer);
      report();
    });
  });
  // a new child under a cap: the cycle runs (it is stopped with the others in their rest)
  if (capPercent < 100 && !capTimer) setCap(capPercent);
  // the child's stdin goes to the server (this process's copy is closed once sent)
  tell({ op: 'spawned', id: m.id, pid }, child.stdin);
}

/**
 * The CPU cap on job processes (issue 22 §1; docs/decisions.md, "Background jobs yield to a
 * live exam"): while `capPercent` < 100 every child may run `capPercent` % of each
 * `CAP_PERIOD_MS` and is stopped (SIGSTOP) for the rest; 100 lets them run freely (SIGCONT).
 * SCHED_IDLE keeps a child off a core the server wants, but not out of the caches and
 * memory bandwidth the server shares with it while it runs flat out on the other core.
 * A child is never left stopped by this process: the cap lifted, this process exiting
 * (SIGCONT), the server gone (SIGKILL); SIGKILL ends a stopped process as any other.
 */
const CAP_PERIOD_MS = 100;
let capPercent = 100;
let capTimer: NodeJS.Timeout | null = null;
/** Whether the children are stopped now (the rest of a period). */
let capStopped = false;

const signalChildren = (signal: NodeJS.Signals) => {
  for (const c of children.values()) {
    if (c.pid === undefined || c.exitCode !== null || c.signalCode !== null) continue;
    try {
      process.kill(c.pid, signal);
    } catch {
      /* gone: its exit answers */
    }
  }
};

/** One period of the cap: run `capPercent` % of CAP_PERIOD_MS, stopped for the rest; ends (children running) when the cap is lifted or no child is left. */
function capCycle(): void {
  capTimer = null;
  if (capPercent >= 100 || children.size === 0) {
    if (capStopped) signalChildren('SIGCONT');
    capStopped = false;
    return;
  }
  if (capStopped) {
    capStopped = false;
    signalChildren('SIGCONT');
    capTimer = setTimeout(capCycle, (CAP_PERIOD_MS * capPercent) / 100);
  } else {
    capStopped = true;
    signalChildren('SIGSTOP');
    capTimer = setTimeout(capCycle, (CAP_PERIOD_MS * (100 - capPercent)) / 100);
  }
}

/** Sets the cap (1–100 %) and starts or ends the cycle. */
function setCap(percent: number): void {
  capPercent = Math.max(1, Math.min(100, Math.round(percent)));
  if (capTimer) clearTimeout(capTimer);
  capTimer = null;
  // running under a cap: its run part first; otherwise one step (continues stopped children, or ends the cycle)
  if (capPercent < 100 && children.size > 0 && !capStopped) capTimer = setTimeout(capCycle, (CAP_PERIOD_MS * capPercent) / 100);
  else capCycle();
}

process.on('message', (m: ToLauncher, handle?: unknown) => {
  if (m.op === 'spawn') return start(m);
  if (m.op === 'cap') return setCap(m.percent);
  if (m.op === 'send') {
    const child = children.get(m.id);
    if (!child?.connected) return closeHandle(handle); // it died: its exit answers
    child.send(m.msg as never, handle as never, {}, (err) => {
      closeHandle(handle);
      // not sent (the child is dying): the server's take answers when its exit arrives
      if (err && handle) tell({ op: 'msg', id: m.id, msg: { notTaken: err.message } });
    });
  }
});
process.on('disconnect', () => {
  for (const c of children.values()) c.kill('SIGKILL');
  process.exit(0);
});
// never leave a child stopped: whatever ends this process (an error, a signal) lets them run;
// they exit by themselves when their IPC channel to this process closes
process.on('exit', () => {
  if (capStopped) signalChildren('SIGCONT');
});
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => process.exit(0));
tell({ op: 'ready' });
