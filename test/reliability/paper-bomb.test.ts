/**
 * Issue #34 §3 against a real hall process: several candidates at once start the largest
 * paper the authoring limits allow (scripts/bench/largest-paper.mjs: its whole text and
 * maths budget spent on the costliest Markdown and KaTeX), first while it is not rendered
 * yet, then again. Honest candidates' saves, sent by a separate process
 * (scripts/bench/save-load.mjs), keep their p99 within 2× the p99 of the same saves without
 * the starts, measured in the same run: before and after the starts on the same process, and
 * during them on a twin hall process that no one attacks (other test files and processes load
 * this shared 2-core machine in bursts; the twin sees the same bursts as the attacked hall).
 * One start's response is bounded in bytes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonClient } from '../../scripts/soak/http.js';
import { startReceiver, type Receiver } from '../../scripts/soak/receiver.js';
import { seed, type Seeded } from '../../scripts/soak/seed.js';
import { freePort, ServerProcess } from '../../scripts/soak/server-process.js';
// @ts-expect-error plain ESM script without types
import { largestPaper } from '../../scripts/bench/largest-paper.mjs';

const LOADER = new URL('../../scripts/bench/save-load.mjs', import.meta.url).pathname;
type Load = { count: number; errors: number; p50: number; p99: number; max: number };

/** Runs the save loader for `ms` at `rate` saves/s over the seeded candidates. */
function saveLoad(baseUrl: string, seeded: Seeded, ms: number, rate: number): Promise<Load> {
  const candidates = seeded.candidates.map((c) => ({ attemptId: c.attemptId, questions: c.questions.filter((q) => q.type === 'MCQ').map((q) => ({ id: q.id, optionIds: q.optionIds })) }));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOADER, JSON.stringify({ baseUrl, rate, ms, candidates })], { timeout: ms + 20_000 }, (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as Load)));
  });
}

/** One start as Chromium sends it over HTTPS (brotli); resolves with its time, its bytes on the wire and decoded. */
function start(baseUrl: string, accessCode: string, studentId: string): Promise<{ ms: number; status: number; wire: number; json: number }> {
  const u = new URL(baseUrl);
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

describe('concurrent starts of the largest allowed paper (a real hall process)', () => {
  let dir: string;
  let receiver: Receiver;
  let server: ServerProcess;
  let twin: ServerProcess;
  let seeded: Seeded;
  let twinSeeded: Seeded;
  let accessCode = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hallcbt-paper-bomb-'));
    receiver = await startReceiver();
    server = new ServerProcess({ dataDir: join(dir, 'data'), port: await freePort(), logFile: join(dir, 'server.log'), env: { CBT_RATE_LIMIT_PER_MIN: '100000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' /* the seeded candidates start from this one loopback address, as no hall does */ } });
    twin = new ServerProcess({ dataDir: join(dir, 'twin'), port: await freePort(), logFile: join(dir, 'twin.log'), env: { CBT_RATE_LIMIT_PER_MIN: '100000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' } });
    server.spawn();
    twin.spawn();
    await Promise.all([server.ready(), twin.ready()]);
    const client = new JsonClient(server.baseUrl);
    [seeded, twinSeeded] = await Promise.all([seed(client, receiver.url, 12, { objective: 10, essays: 0 }), seed(new JsonClient(twin.baseUrl), receiver.url, 12, { objective: 10, essays: 0 })]);
    // the attacker's own workspace and exam: the largest paper the limits let through
    const ws = (await client.post('/workspaces/standalone', { name: 'Bomb', ownerName: 'Bomb Owner', email: `bomb-${Date.now()}@example.com`, webhookUrl: receiver.url })).body as { id: string; apiKey: string };
    const keyed = client.withKey(ws.apiKey);
    const exam = (await keyed.post('/exams', { workspaceId: ws.id, title: 'Largest paper', durationMins: 600, maxTabViolations: 100, isPublished: true })).body as { id: string; accessCode: string };
    const bulk = await keyed.post('/questions/bulk', { workspaceId: ws.id, examId: exam.id, questions: largestPaper() });
    expect(bulk.status, JSON.stringify(bulk.body).slice(0, 300)).toBe(201);
    accessCode = exam.accessCode;
  }, 60_000);

  afterAll(async () => {
    await server?.kill();
    await twin?.kill();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps other candidates’ save p99 within 2× the same run’s baseline, and one start’s response bounded', async () => {
    const RATE = 150;
    const baseline = await saveLoad(server.baseUrl, seeded, 3_000, RATE);
    const during = saveLoad(server.baseUrl, seeded, 9_000, RATE);
    const twinDuring = saveLoad(twin.baseUrl, twinSeeded, 9_000, RATE);
    await new Promise((r) => setTimeout(r, 500));
    // four first starts at once (the paper is not rendered yet), then four later ones
    const first = await Promise.all([0, 1, 2, 3].map((i) => start(server.baseUrl, accessCode, `FIRST-${i}`)));
    const later = await Promise.all([0, 1, 2, 3].map((i) => start(server.baseUrl, accessCode, `LATER-${i}`)));
    const [load, quietTwin] = await Promise.all([during, twinDuring]);
    // the same saves again after the starts: the machine's own load drifts (other test files,
    // other processes), so the baseline is the worst of the quiet runs around the starts and
    // the twin's run beside them
    const after = await saveLoad(server.baseUrl, seeded, 3_000, RATE);
    const base = Math.max(baseline.p99, after.p99, quietTwin.p99);
    const figures = { baseline, after, twin: quietTwin, load, first: first.map((s) => Math.round(s.ms)), later: later.map((s) => Math.round(s.ms)), json: first[0]!.json, wire: first[0]!.wire };
    console.log(`largest allowed paper: ${JSON.stringify(figures)}`);
    for (const s of [...first, ...later]) expect(s.status).toBe(200);
    expect(baseline.errors + load.errors + after.errors + quietTwin.errors).toBe(0);
    expect(baseline.count).toBeGreaterThan(300);
    expect(quietTwin.count).toBeGreaterThan(900);
    // A loopback save takes ~1–3 ms; the floor keeps a quiet baseline's p99 of a millisecond or
    // two (scheduling noise on a shared 2-core machine) from making the bound a few ms that a
    // single GC pause would cross: 5 ms is still far below the seconds a rendering bomb costs.
    expect(load.p99, JSON.stringify(figures)).toBeLessThanOrEqual(2 * Math.max(base, 5));
    // one start's paper: ~2.2 MB of JSON at most (the KaTeX HTML form), a few hundred KB with brotli
    expect(first[0]!.json).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(first[0]!.wire).toBeLessThanOrEqual(512 * 1024);
  }, 60_000);
});
