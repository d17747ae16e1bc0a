import { readFileSync } from 'node:fs';

/**
 * PIDs of a HallCBT server's job processes (the child processes that read uploads, running
 * job-child), read from /proc; [] when the server is gone. From sources the server also runs
 * tsx's esbuild service, which is left out. Linux only. Shared by the uploads bench and the
 * soak/test harness (scripts/soak/server-process.ts).
 * @param {number} serverPid
 * @returns {number[]}
 */
export function jobChildPids(serverPid) {
  try {
    const pids = readFileSync(`/proc/${serverPid}/task/${serverPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return pids.filter((c) => {
      try {
        return readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('job-child.');
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}
