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
import { buildBombs, longText } from '../../scripts/bench/bombs.mjs';
import { saveAnswers, type Ctx } from '../../scripts/soak/actions.js';
import { JsonClient } from '../../scripts/soak/http.js';
import { startReceiver, type Receiver } from '../../scripts/soak/receiver.js';
import { seed, type Seeded } from '../../scripts/soak/seed.js';
import { freePort, ServerProcess } from '../../scripts/soak/server-process.js';
import { newTally } from '../../scripts/soak/tally.js';

const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

let dir: string;
let server: ServerProcess;
let receiver: Receiver;
let seeded: Seeded;
let client: JsonClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hallcbt-bombs-'));
  server = new ServerProcess({ dataDir: join(dir, 'data'), port: await freePort(), logFile: join(dir, 'server.log'), env: { CBT_RATE_LIMIT_PER_MIN: '100000' } });
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
async function upload(path: string, fields: Record<string, string>, name: string, bytes: Uint8Array) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([bytes]), name);
  const encoded = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(path, server.baseUrl);
  return new Promise<{ status: number; type: string; body: any }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length, 'x-api-key': seeded.halls[0]!.apiKey } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
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
    const before = rssMB(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMB(pid))), 20);
    const seen: string[] = [];
    try {
      for (const r of routes()) {
        for (const b of bombs) {
          // the pptx bomb goes to generation as a .pptx; elsewhere each route's own name
          const name = r.path.includes('generate') && b.name.startsWith('pptx') ? 'slides.pptx' : r.file;
          const res = await upload(r.path, r.fields, name, b.bytes);
          seen.push(`${r.route} ← ${b.name}: ${res.status} (peak RSS so far ${peak.toFixed(0)} MB)`);
          expect(res.type, `${r.route} ${b.name}`).toContain('application/problem+json');
          expect(res.status, `${r.route} ${b.name}: ${res.body.detail}`).toBe(b.name.startsWith('lying') ? 422 : 413);
          expect(res.body.detail).toMatch(/unpack|cannot be read safely/);
        }
        const res = await upload(r.path, r.fields, r.file.replace(/\.\w+$/, '.txt'), text);
        seen.push(`${r.route} ← 39 MB .txt: ${res.status} (peak RSS so far ${peak.toFixed(0)} MB)`);
        if (r.path.includes('generate')) {
          expect(res.status, res.body.detail).toBe(200);
          expect(res.body.truncated).toBe(true);
          expect(res.body.warnings.join(' ')).toMatch(/first 1,000,000 characters/);
        } else expect(res.status).toBe(413);
      }
    } finally {
      clearInterval(sampler);
    }
    console.log(`upload bombs: RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB\n  ${seen.join('\n  ')}`);
    expect(peak - before).toBeLessThanOrEqual(200);
    // the hall still works: a candidate's save is acknowledged
    const t = newTally('FULL', 2, 4);
    const ctx: Ctx = { client, tally: t, phase: { killing: false, label: 'after bombs' }, server, rng: Math.random, signInShare: 0 };
    await saveAnswers(ctx, seeded.candidates[0]!, 1);
    expect(t.savesAcknowledged).toBe(1);
    expect((await client.get('/health')).status).toBe(200);
  }, 300_000);
});
