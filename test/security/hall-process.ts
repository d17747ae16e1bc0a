/**
 * For the tests that run the hall as a real server process (scripts/soak/server-process.ts)
 * to watch its job processes from outside: `/proc` helpers and `hallProcessSuite`, which
 * gives a test file a temp directory and a webhook receiver and kills every hall it started.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { JsonClient } from '../../scripts/soak/http.js';
import { startReceiver, type Receiver } from '../../scripts/soak/receiver.js';
import { seed, type Seeded } from '../../scripts/soak/seed.js';
import { freePort, ServerProcess } from '../../scripts/soak/server-process.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether `pid` is alive (not gone, not a zombie), from /proc. */
export function running(pid: number): boolean {
  try {
    return !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits up to `ms` for `pid` to end; true when it did. */
export async function waitGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && running(pid)) await sleep(20);
  return !running(pid);
}

/** A hall started by `startHall`: its process, and the seeded workspace's key and exam. */
export interface StartedHall {
  server: ServerProcess;
  apiKey: string;
  workspaceId: string;
  examId: string;
  /** the seeded candidate's attempt, IN_PROGRESS */
  attemptId: string;
}

/**
 * Registers the file's beforeAll/afterAll (a temp directory named after `prefix`, a webhook
 * receiver; every hall killed and the directory removed after the tests) and returns
 * `startHall(name, env)`: a real server process on a free port with its data under `name`,
 * seeded with one workspace and an exam of two objective questions, and one candidate's
 * attempt in progress.
 */
export function hallProcessSuite(prefix: string): { startHall(name: string, env?: Record<string, string>): Promise<StartedHall> } {
  let dir: string;
  let receiver: Receiver;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `hallcbt-${prefix}-`));
    receiver = await startReceiver();
  }, 30_000);
  afterAll(async () => {
    for (const s of servers) await s.kill();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    async startHall(name, env = {}) {
      const server = new ServerProcess({ dataDir: join(dir, name), port: await freePort(), logFile: join(dir, `${name}.log`), env: { CBT_RATE_LIMIT_PER_MIN: '100000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' /* a whole hall from loopback */, ...env } });
      servers.push(server);
      server.spawn();
      await server.ready();
      const seeded: Seeded = await seed(new JsonClient(server.baseUrl), receiver.url, 1, { objective: 2, essays: 0 });
      const h = seeded.halls[0]!;
      return { server, apiKey: h.apiKey, workspaceId: h.workspaceId, examId: h.examId, attemptId: seeded.candidates[0]!.attemptId };
    },
  };
}
