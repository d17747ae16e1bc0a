/**
 * Hostile uploads against the real server process (issue 22 §1, CI size): zip bombs
 * shaped as .xlsx, .docx and .pptx (one part inflating to 200 MB; the bench uses 1 GB), a
 * zip that lies about its sizes, and a 39 MB .txt, each at every upload route. Every
 * bomb is refused with 413/422 problem details, the long text is read up to its cap
 * (`truncated: true`), the server's RSS grows by at most 200 MB over the whole barrage,
 * and a candidate's answer save still answers afterwards.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBombs, heavyWorkbook, longText } from '../../scripts/bench/bombs.mjs';
import { saveAnswers, type Ctx } from '../../scripts/soak/actions.js';
import { JsonClient } from '../../scripts/soak/http.js';
import { startReceiver, type Receiver } from '../../scripts/soak/receiver.js';
import { seed, type Seeded } from '../../scripts/soak/seed.js';
import { freePort, jobChildPids, ServerProcess } from '../../scripts/soak/server-process.js';
import { newTally } from '../../scripts/soak/tally.js';
import { newWorkspace } from './upload-lanes.js';

/** A /proc status figure of a process, MB (0 once it is gone). */
const statusMB = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};
const rssMB = (pid: number) => statusMB(pid, 'VmRSS');

/**
 * Samples every 20 ms: the server's peak RSS, the job processes' peak RSS (VmHWM while
 * each lives), and the peak of server + job processes at the same instant.
 */
function memorySampler(pid: number) {
  const m = { before: rssMB(pid), serverPeak: 0, childPeak: 0, sumPeak: 0 };
  m.serverPeak = m.sumPeak = m.before;
  const timer = setInterval(() => {
    const server = rssMB(pid);
    let sum = server;
    for (const c of jobChildPids(pid)) {
      m.childPeak = Math.max(m.childPeak, statusMB(c, 'VmHWM'));
      sum += rssMB(c);
    }
    m.serverPeak = Math.max(m.serverPeak, server);
    m.sumPeak = Math.max(m.sumPeak, sum);
  }, 20);
  return { m, stop: () => clearInterval(timer) };
}

let dir: string;
let server: ServerProcess;
let receiver: Receiver;
let seeded: Seeded;
let client: JsonClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hallcbt-bombs-'));
  server = new ServerProcess({ dataDir: join(dir, 'data'), port: await freePort(), logFile: join(dir, 'server.log'), env: { CBT_RATE_LIMIT_PER_MIN: '100000', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' /* the seeded candidates all start from loopback */ } });
  server.spawn();
  await server.ready();
  receiver = await startReceiver();
  client = new JsonClient(server.baseUrl);
  seeded = await seed(client, receiver.url, 2, { objective: 4, essays: 0 });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The upload routes, each with the file name it accepts for an archive. */
function routes() {
  const h = seeded.halls[0]!;
  return [
    { route: 'POST /questions/import-excel', path: '/questions/import-excel', fields: { workspaceId: h.workspaceId, examId: h.examId }, file: 'questions.xlsx' },
    { route: 'POST /exams/{id}/roster/import', path: `/exams/${h.examId}/roster/import`, fields: {}, file: 'roster.xlsx' },
    { route: 'POST /questions/import', path: '/questions/import', fields: { workspaceId: h.workspaceId, examId: h.examId }, file: 'bank.docx' },
    { route: 'POST /api/cbt/ai/generate-questions', path: '/api/cbt/ai/generate-questions', fields: { count: '5' }, file: 'notes.docx' },
  ];
}

/**
 * POSTs a multipart form with node:http and resolves on the response even when the server
 * answered before reading the whole body (a 413 by Content-Length) and the rest of the
 * write failed (EPIPE) — fetch reports that as a failure.
 */
async function upload(path: string, fields: Record<string, string>, name: string, bytes: Uint8Array, apiKey = seeded.halls[0]!.apiKey) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([bytes]), name);
  const encoded = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(path, server.baseUrl);
  return new Promise<{ status: number; type: string; retryAfter?: string; body: any }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length, 'x-api-key': apiKey } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), retryAfter: res.headers['retry-after'], body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
      res.on('error', reject);
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'EPIPE' || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    req.end(body);
  });
}

describe('upload bombs at every upload route (real server process)', () => {
  it('refuses every bomb with 413/422, caps the long text, keeps RSS within 200 MB and keeps saving', async () => {
    const pid = server.pid!;
    const bombs = await buildBombs(200);
    const text = longText(39);
    const { m, stop } = memorySampler(pid);
    const seen: string[] = [];
    try {
      for (const r of routes()) {
        for (const b of bombs) {
          // the pptx bomb goes to generation as a .pptx; elsewhere each route's own name
          const name = r.path.includes('generate') && b.name.startsWith('pptx') ? 'slides.pptx' : r.file;
          const res = await upload(r.path, r.fields, name, b.bytes);
          seen.push(`${r.route} ← ${b.name}: ${res.status} (server peak RSS so far ${m.serverPeak.toFixed(0)} MB, job process ${m.childPeak.toFixed(0)} MB)`);
          expect(res.type, `${r.route} ${b.name}`).toContain('application/problem+json');
          expect(res.status, `${r.route} ${b.name}: ${res.body.detail}`).toBe(b.name.startsWith('lying') ? 422 : 413);
          expect(res.body.detail).toMatch(/unpack|cannot be read safely/);
        }
        const res = await upload(r.path, r.fields, r.file.replace(/\.\w+$/, '.txt'), text);
        seen.push(`${r.route} ← 39 MB .txt: ${res.status} (server peak RSS so far ${m.serverPeak.toFixed(0)} MB, job process ${m.childPeak.toFixed(0)} MB)`);
        if (r.path.includes('generate')) {
          expect(res.status, res.body.detail).toBe(200);
          expect(res.body.truncated).toBe(true);
          expect(res.body.warnings.join(' ')).toMatch(/first 400,000 characters/);
        } else expect(res.status).toBe(413);
      }
    } finally {
      stop();
    }
    console.log(
      `upload bombs: server RSS ${m.before.toFixed(0)} → peak ${m.serverPeak.toFixed(0)} MB (+${(m.serverPeak - m.before).toFixed(0)}); job process peak ${m.childPeak.toFixed(0)} MB; ` +
        `server + job process peak ${m.sumPeak.toFixed(0)} MB (+${(m.sumPeak - m.before).toFixed(0)})\n  ${seen.join('\n  ')}`,
    );
    expect(m.serverPeak - m.before).toBeLessThanOrEqual(200);
    // the hall still works: a candidate's save is acknowledged
    const t = newTally('FULL', 2, 4);
    const ctx: Ctx = { client, tally: t, phase: { killing: false, label: 'after bombs' }, server, rng: Math.random, signInShare: 0 };
    await saveAnswers(ctx, seeded.candidates[0]!, 1);
    expect(t.savesAcknowledged).toBe(1);
    expect((await client.get('/health')).status).toBe(200);
  }, 300_000);

  it('a workbook that needs more memory than the job process may use answers 413, and the server keeps serving', async () => {
    // an honest .xlsx (within the archive limits) whose sheet holds ~900,000 cells: exceljs
    // needs far more than the job process's 160 MB heap for it
    const xlsx = heavyWorkbook();
    expect(xlsx.length).toBeLessThan(10 * 1024 * 1024);
    const h = seeded.halls[0]!;
    const res = await upload('/questions/import-excel', { workspaceId: h.workspaceId, examId: h.examId }, 'huge.xlsx', xlsx);
    expect(res.status, res.body?.detail).toBe(413);
    expect(res.body.code).toBe('TOO_HEAVY_TO_READ');
    expect(res.body.detail).toMatch(/more memory than the server sets aside/);
    expect((await client.get('/health')).status).toBe(200);
    const t = newTally('FULL', 2, 4);
    await saveAnswers({ client, tally: t, phase: { killing: false, label: 'after OOM' }, server, rng: Math.random, signInShare: 0 }, seeded.candidates[1]!, 1);
    expect(t.savesAcknowledged).toBe(1);
  }, 300_000);

  it('reads one upload at a time: four more wait their turn, the rest get 503 with Retry-After', async () => {
    const [lying] = (await buildBombs(20)).filter((b) => b.name.startsWith('lying'));
    // from eight workspaces: one workspace may hold only two places (issue #34, finding 8; upload-lanes.test.ts)
    const halls = await Promise.all(Array.from({ length: 8 }, (_, i) => newWorkspace(server.baseUrl, 100 + i)));
    const all = await Promise.all(halls.map((h) => upload('/questions/import-excel', { workspaceId: h.workspaceId, examId: h.examId }, 'q.xlsx', lying!.bytes, h.apiKey)));
    const statuses = all.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 422).length).toBeGreaterThanOrEqual(5);
    const busy = all.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const b of busy) {
      expect(b.body.code).toBe('BUSY');
      expect(b.retryAfter).toBe('5');
    }
    expect(statuses.every((s) => s === 422 || s === 503)).toBe(true);
  }, 300_000);
});
