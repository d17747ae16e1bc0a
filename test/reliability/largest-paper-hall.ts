/**
 * A real hall process with honest candidates and an exam holding the largest paper the
 * authoring limits allow (scripts/bench/largest-paper.mjs; issue #34 §3), for the tests that
 * start that paper while the candidates save: test/reliability/paper-bomb.test.ts (what must
 * hold, in `npm test`) and test/timed/paper-bomb.test.ts (the save p99 bound, in
 * `npm run test:timed`; docs/decisions.md, "No timing assertion in npm test").
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { JsonClient } from '../../scripts/soak/http.js';
import { startReceiver, type Receiver } from '../../scripts/soak/receiver.js';
import { seed, type Seeded } from '../../scripts/soak/seed.js';
import { freePort, ServerProcess } from '../../scripts/soak/server-process.js';
// @ts-expect-error plain ESM script without types
import { largestPaper } from '../../scripts/bench/largest-paper.mjs';

const LOADER = new URL('../../scripts/bench/save-load.mjs', import.meta.url).pathname;

/** What the save loader (scripts/bench/save-load.mjs) reports: answered saves, failed ones, latencies in ms. */
export type Load = { count: number; errors: number; p50: number; p99: number; max: number };

/** One hall process with its 12 seeded honest candidates. */
export interface Hall {
  server: ServerProcess;
  seeded: Seeded;
}

/** The halls of one test: `main` holds the largest paper's exam (`accessCode`); `twin`, when asked for, is a second hall no one attacks. */
export interface LargestPaperHalls {
  main: Hall;
  twin?: Hall;
  accessCode: string;
  /** the status and body of the bulk upload of the largest paper (201 expected) */
  bulk: { status: number; body: unknown };
  close(): Promise<void>;
}

const ENV = { CBT_RATE_LIMIT_PER_MIN: '100000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' /* the seeded candidates start from this one loopback address, as no hall does */ };

/**
 * Starts the hall (and a twin with `twin: true`), seeds 12 honest candidates on each (10
 * objective questions), and adds the attacker's workspace and published exam holding the
 * largest allowed paper. Throws when a process does not come up; the caller checks `bulk`.
 */
export async function largestPaperHalls(o: { twin?: boolean } = {}): Promise<LargestPaperHalls> {
  const dir = mkdtempSync(join(tmpdir(), 'hallcbt-paper-bomb-'));
  const receiver: Receiver = await startReceiver();
  const spawn = async (name: string) => {
    const server = new ServerProcess({ dataDir: join(dir, name), port: await freePort(), logFile: join(dir, `${name}.log`), env: ENV });
    server.spawn();
    return server;
  };
  const servers = [await spawn('data'), ...(o.twin ? [await spawn('twin')] : [])];
  const close = async () => {
    for (const s of servers) await s.kill();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(servers.map((s) => s.ready()));
    const seededAll = await Promise.all(servers.map((s) => seed(new JsonClient(s.baseUrl), receiver.url, 12, { objective: 10, essays: 0 })));
    const client = new JsonClient(servers[0]!.baseUrl);
    const ws = (await client.post('/workspaces/standalone', { name: 'Bomb', ownerName: 'Bomb Owner', email: `bomb-${Date.now()}@example.com`, webhookUrl: receiver.url })).body as { id: string; apiKey: string };
    const keyed = client.withKey(ws.apiKey);
    const exam = (await keyed.post('/exams', { workspaceId: ws.id, title: 'Largest paper', durationMins: 600, maxTabViolations: 100, isPublished: true })).body as { id: string; accessCode: string };
    const bulk = await keyed.post('/questions/bulk', { workspaceId: ws.id, examId: exam.id, questions: largestPaper() });
    const hall = (i: number): Hall => ({ server: servers[i]!, seeded: seededAll[i]! });
    return { main: hall(0), ...(o.twin ? { twin: hall(1) } : {}), accessCode: exam.accessCode, bulk: { status: bulk.status, body: bulk.body }, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Runs the save loader for `ms` at `rate` saves/s over the hall's seeded candidates (a separate process). */
export function saveLoad(hall: Hall, ms: number, rate: number): Promise<Load> {
  const candidates = hall.seeded.candidates.map((c) => ({ attemptId: c.attemptId, questions: c.questions.filter((q) => q.type === 'MCQ').map((q) => ({ id: q.id, optionIds: q.optionIds })) }));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOADER, JSON.stringify({ baseUrl: hall.server.baseUrl, rate, ms, candidates })], { timeout: ms + 20_000 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as Load)));
  });
}

/** One start as Chromium sends it over HTTPS (brotli); resolves with its time (ms), status, bytes on the wire and decoded. */
export function startLargest(hall: Hall, accessCode: string, studentId: string): Promise<{ ms: number; status: number; wire: number; json: number }> {
  const u = new URL(hall.server.baseUrl);
  const body = Buffer.from(JSON.stringify({ accessCode, studentId, candidateName: `Bomb ${studentId}`, candidatePin: '2468' }));
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path: '/attempts/start', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length, 'accept-encoding': 'gzip, deflate, br, zstd' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const json = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(raw).length : raw.length;
        resolve({ ms: performance.now() - t0, status: res.statusCode!, wire: raw.length, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
