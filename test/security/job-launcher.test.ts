/**
 * Job processes are started by the job launcher (src/uploads/job-launcher.ts; issue 22 §1),
 * against the real server process: the server forks the launcher once at boot and no job
 * process itself (each fork stalled its event loop 6–16 ms at ~180–340 MB RSS); a launcher
 * that dies — idle or mid-job — is replaced and the next job works, the job in flight
 * answering 422 as a dead child's does; and neither the launcher nor a job process outlives
 * the server.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heavyWorkbook, longText } from '../../scripts/bench/bombs.mjs';
import { jobChildPids, jobLauncherPid, type ServerProcess } from '../../scripts/soak/server-process.js';
import { hallProcessSuite, running, sleep, waitGone } from './hall-process.js';

/** PPid of a process, from /proc. */
const parentOf = (pid: number) => Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
/** The children of a process, from /proc ([] when it is gone). */
const childrenOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const cmdlineOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};
async function until<T>(what: string, get: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(5);
  }
}

/** A roster import of one candidate: a short job in the job process. */
function importRoster(server: ServerProcess, apiKey: string, examId: string, id: string) {
  const form = new FormData();
  form.set('file', new Blob([new TextEncoder().encode(`studentId,candidateName,phone\n${id},Ada Obi,\n`)]), 'roster.csv');
  return fetch(`${server.baseUrl}/exams/${examId}/roster/import`, { method: 'POST', body: form, headers: { 'x-api-key': apiKey } });
}

const { startHall } = hallProcessSuite('launcher');

describe('the job launcher (real server process)', () => {
  it('the server starts the launcher at boot and forks no job process itself: every job process is the launcher’s child', async () => {
    const { server, apiKey, examId } = await startHall('forks');
    const serverPid = server.pid!;
    // what the server forked at boot (the launcher; from sources also tsx's esbuild service)
    await sleep(1000);
    const atBoot = new Set(childrenOf(serverPid));
    const launcher = jobLauncherPid(serverPid);
    // every process the server forks while jobs run shows up as its child: watch for any
    const forked = new Set<number>();
    const seen = new Map<number, number>(); // job process → its parent
    const watch = setInterval(() => {
      for (const c of childrenOf(serverPid)) if (!atBoot.has(c)) forked.add(c);
      for (const c of jobChildPids(serverPid)) if (!seen.has(c) && running(c)) seen.set(c, parentOf(c));
    }, 2);
    try {
      // three jobs, each in a fresh job process (the one before is killed after its job)
      for (const id of ['F-1', 'F-2', 'F-3']) {
        const res = await importRoster(server, apiKey, examId, id);
        expect(res.status, await res.clone().text()).toBe(201);
        const [child] = jobChildPids(serverPid);
        expect(child).toBeDefined();
        if (!seen.has(child!)) seen.set(child!, parentOf(child!));
        process.kill(child!, 'SIGKILL');
        await waitGone(child!, 3_000);
        await sleep(200); // the server learns of the death (as in streamed-upload.test.ts)
      }
    } finally {
      clearInterval(watch);
    }
    expect(seen.size, `job processes seen: ${[...seen.keys()].join(', ')}`).toBeGreaterThanOrEqual(3);
    // (the old server forked each job process itself: three here)
    expect([...forked].map((p) => `${p}: ${cmdlineOf(p) || '(gone)'}`), 'processes the server forked after boot').toEqual([]);
    // the launcher, started at boot, started every one
    expect(launcher, 'a launcher among the processes the server started at boot').toBeDefined();
    expect(parentOf(launcher!)).toBe(serverPid);
    for (const [child, parent] of seen) expect(parent, `job process ${child} (${cmdlineOf(child)})`).toBe(launcher);
    expect(jobLauncherPid(serverPid)).toBe(launcher);
  }, 120_000);

  it('a launcher that dies is replaced: a job in flight answers 422 READER_FAILED, the next job works (idle or mid-job)', async () => {
    const { server, apiKey, examId } = await startHall('restart');
    const serverPid = server.pid!;
    // idle: killed between jobs
    const first = await until('a launcher', () => jobLauncherPid(serverPid), 5_000);
    process.kill(first, 'SIGKILL');
    await waitGone(first, 3_000);
    await sleep(200);
    const res = await importRoster(server, apiKey, examId, 'R-1');
    expect(res.status, await res.clone().text()).toBe(201);
    const second = jobLauncherPid(serverPid);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    // mid-job: the generation of a 39 MB text runs in a job process when its launcher dies
    const form = new FormData();
    form.set('count', '3');
    form.set('file', new Blob([longText(39)]), 'notes.txt');
    const pending = fetch(`${server.baseUrl}/api/cbt/ai/generate-questions`, { method: 'POST', body: form, headers: { 'x-api-key': apiKey } });
    const child = await until('a job process', () => jobChildPids(serverPid)[0]);
    await sleep(300);
    process.kill(second!, 'SIGKILL');
    const answer = await pending;
    const body = await answer.json();
    expect(answer.status, JSON.stringify(body)).toBe(422);
    expect(body.code).toBe('READER_FAILED');
    expect(await waitGone(child, 3_000), `job process ${child} outlived its launcher`).toBe(true);
    const next = await importRoster(server, apiKey, examId, 'R-2');
    expect(next.status, await next.clone().text()).toBe(201);
    const third = jobLauncherPid(serverPid);
    expect(third).toBeDefined();
    expect([first, second]).not.toContain(third);
    expect(server.errorLines.filter((l) => l.includes('started a new one')).length, server.errorLines.join('\n')).toBe(2);
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
  }, 120_000);

  it('neither the launcher nor a job process outlives its server: stopped (SIGTERM) or killed (SIGKILL) mid-job', async () => {
    const xlsx = heavyWorkbook();
    for (const how of ['stop', 'kill'] as const) {
      const { server, apiKey, workspaceId, examId } = await startHall(`exit-${how}`);
      const launcher = await until('a launcher', () => jobLauncherPid(server.pid!), 5_000);
      const form = new FormData();
      form.set('workspaceId', workspaceId);
      form.set('examId', examId);
      form.set('file', new Blob([xlsx]), 'big.xlsx');
      const pending = fetch(`${server.baseUrl}/questions/import-excel`, { method: 'POST', body: form, headers: { 'x-api-key': apiKey } }).catch(() => null);
      const child = await until('a job process', () => jobChildPids(server.pid!)[0]);
      await sleep(300);
      await server[how]();
      await pending;
      expect(await waitGone(launcher, 3_000), `launcher ${launcher} still runs 3 s after its server's ${how}`).toBe(true);
      expect(await waitGone(child, 3_000), `job process ${child} still runs 3 s after its server's ${how}`).toBe(true);
    }
  }, 120_000);
});
