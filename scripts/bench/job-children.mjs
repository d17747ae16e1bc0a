import { readFileSync } from 'node:fs';

/** Child pids of a process, from /proc ([] when it is gone). Linux only. */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Whether a process's command line contains `part`. */
function runs(pid, part) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(part);
  } catch {
    return false;
  }
}

/**
 * PID of a HallCBT server's job launcher (the process that starts its job processes,
 * running job-launcher-main), read from /proc; undefined when there is none. Linux only.
 * @param {number} serverPid
 * @returns {number | undefined}
 */
export function jobLauncherPid(serverPid) {
  return childrenOf(serverPid).find((c) => runs(c, 'job-launcher-main.'));
}

/**
 * PIDs of a HallCBT server's job processes (the processes that read uploads, running
 * job-child), read from /proc; [] when the server is gone. They are the children of the
 * server's job launcher (and, with an older server, of the server itself). From sources
 * the server also runs tsx's esbuild service, which is left out. Linux only. Shared by the
 * uploads bench and the soak/test harness (scripts/soak/server-process.ts).
 * @param {number} serverPid
 * @returns {number[]}
 */
export function jobChildPids(serverPid) {
  const launcher = jobLauncherPid(serverPid);
  const candidates = [...childrenOf(serverPid), ...(launcher ? childrenOf(launcher) : [])];
  return candidates.filter((c) => runs(c, 'job-child.'));
}
