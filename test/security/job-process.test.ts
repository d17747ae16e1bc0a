/**
 * The job process that reads uploads (src/uploads/job-process.ts, job-pool.ts; issue 22 §1), against
 * the real server process: a child that dies mid-job is answered with a clear 422 (no
 * 5xx) and the next upload works; the child runs under SCHED_IDLE (nice 19 without chrt);
 * and a child does not outlive its server, whether the server is stopped (SIGTERM) or
 * killed (SIGKILL).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heavyWorkbook, longText } from '../../scripts/bench/bombs.mjs';
import { jobChildPids, type ServerProcess } from '../../scripts/soak/server-process.js';
import { hallProcessSuite, running, sleep, waitGone } from './hall-process.js';

/** Fields 3… of /proc/<pid>/stat (after the command's name). */
const statOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};
/** Field 19 of /proc/<pid>/stat: the nice value. */
const niceOf = (pid: number) => Number(statOf(pid)[16]);
/** Field 41 of /proc/<pid>/stat: the scheduling policy (0 SCHED_OTHER, 5 SCHED_IDLE). */
const policyOf = (pid: number) => Number(statOf(pid)[38]);
const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

/** Polls for the server's first job process (≤ 20 s). */
async function firstChild(serverPid: number): Promise<number> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const [pid] = jobChildPids(serverPid);
    if (pid) return pid;
    await sleep(5);
  }
  throw new Error('no job process appeared');
}

function generate(server: ServerProcess, apiKey: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set('count', '3');
  form.set('file', new Blob([bytes]), name);
  return fetch(`${server.baseUrl}/api/cbt/ai/generate-questions`, { method: 'POST', body: form, headers: { 'x-api-key': apiKey } });
}

const notes = new TextEncoder().encode(
  'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. ' +
    'The chlorophyll in the leaves absorbs the light energy. Oxygen is released into the air as a by-product of the reaction. ' +
    'Respiration is the process by which living cells release energy from glucose, using oxygen and giving off carbon dioxide.',
);

const { startHall } = hallProcessSuite('jobproc');

describe('the job process that reads uploads (real server process)', () => {
  it('runs under SCHED_IDLE (the server does not); a child killed mid-job answers 422 READER_FAILED, and the next upload works', async () => {
    const { server, apiKey } = await startHall('crash');
    const pending = generate(server, apiKey, longText(39), 'notes.txt').catch((e: Error) => e);
    const child = await firstChild(server.pid!);
    // chrt sets the policy, then execs node in the same process
    const end = Date.now() + 2000;
    while (policyOf(child) !== SCHED_IDLE && Date.now() < end) await sleep(5);
    expect(policyOf(child)).toBe(SCHED_IDLE);
    expect(policyOf(server.pid!)).toBe(SCHED_OTHER);
    // its V8 heap is capped, its young generation small (2 MB semi-spaces: the ICAN paper's engine job peaked 162 → 128 MB)
    const argv = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--max-old-space-size=160');
    expect(argv).toContain('--max-semi-space-size=2');
    process.kill(child, 'SIGKILL');
    const res = await pending;
    if (res instanceof Error) throw res;
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(body.code).toBe('READER_FAILED');
    expect(body.detail).toMatch(/stopped.*SIGKILL.*Nothing was changed/);
    const next = await generate(server, apiKey, notes, 'notes.txt');
    expect(next.status, await next.clone().text()).toBe(200);
    expect((await next.json()).questions.length).toBeGreaterThan(0);
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
  }, 120_000);

  it('without chrt the child runs at nice 19 under the normal policy, and the server says so in one line', async () => {
    // PATH without chrt (node itself is started by its absolute path)
    const { server, apiKey } = await startHall('no-chrt', { PATH: '/nonexistent' });
    const pending = generate(server, apiKey, notes, 'notes.txt');
    const child = await firstChild(server.pid!);
    const end = Date.now() + 1000;
    while (niceOf(child) === niceOf(server.pid!) && Date.now() < end) await sleep(5);
    expect(policyOf(child)).toBe(SCHED_OTHER);
    expect(niceOf(child) - niceOf(server.pid!)).toBe(19);
    const res = await pending;
    expect(res.status, await res.clone().text()).toBe(200);
    const said = server.errorLines.filter((l) => l.includes('not SCHED_IDLE'));
    expect(said.length, server.errorLines.join('\n')).toBe(1);
    expect(said[0]).toMatch(/nice 19, not SCHED_IDLE: chrt could not run \(ENOENT\)/);
  }, 120_000);

  it('a job process does not outlive its server: stopped (SIGTERM) or killed (SIGKILL)', async () => {
    // a workbook exceljs chews on for many seconds (until the heap cap stops it): the child
    // is mid-job when its server goes
    const xlsx = heavyWorkbook();
    for (const how of ['stop', 'kill'] as const) {
      const { server, apiKey, workspaceId, examId } = await startHall(how);
      const form = new FormData();
      form.set('workspaceId', workspaceId);
      form.set('examId', examId);
      form.set('file', new Blob([xlsx]), 'big.xlsx');
      const pending = fetch(`${server.baseUrl}/questions/import-excel`, { method: 'POST', body: form, headers: { 'x-api-key': apiKey } }).catch(() => null);
      const child = await firstChild(server.pid!);
      await sleep(500);
      expect(running(child)).toBe(true);
      await server[how]();
      await pending;
      expect(await waitGone(child, 3_000), `job process ${child} still runs 3 s after its server's ${how}`).toBe(true);
    }
  }, 120_000);
});
