/**
 * The largest paper the authoring limits allow (scripts/bench/largest-paper.mjs) on a real
 * hall process (issue #34 §3): first starts (4 at once, the paper not rendered yet) and
 * later starts (one at a time), per maths form, with their latency, their bytes on the wire
 * (brotli, as Chromium asks over HTTPS; gzip, as it asks on plain HTTP) and decoded, and the
 * server's peak RSS. Prints one JSON object. `npx tsx scripts/bench/paper-bomb.ts`
 * (docs/benchmarks.md, "Largest allowed paper").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { JsonClient } from '../soak/http.js';
import { freePort, ServerProcess } from '../soak/server-process.js';
// @ts-expect-error plain ESM script without types
import { largestPaper } from './largest-paper.mjs';

const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** One start; resolves with its time (ms), bytes on the wire and decoded. */
function start(baseUrl: string, path: string, accessCode: string, studentId: string, encoding: string): Promise<{ ms: number; wire: number; json: number }> {
  const u = new URL(baseUrl);
  const body = Buffer.from(JSON.stringify({ accessCode, studentId, candidateName: `Bench ${studentId}`, candidatePin: '2468' }));
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path, agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length, 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (res.statusCode !== 200) return reject(new Error(`start ${res.statusCode}: ${raw.toString().slice(0, 200)}`));
        const enc = res.headers['content-encoding'];
        const json = enc === 'br' ? brotliDecompressSync(raw).length : enc === 'gzip' ? gunzipSync(raw).length : raw.length;
        resolve({ ms: Math.round(performance.now() - t0), wire: raw.length, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'hallcbt-paper-bomb-bench-'));
const server = new ServerProcess({ dataDir: join(dir, 'data'), port: await freePort(), logFile: join(dir, 'server.log'), env: { CBT_RATE_LIMIT_PER_MIN: '100000' } });
try {
  server.spawn();
  await server.ready();
  const client = new JsonClient(server.baseUrl);
  const ws = (await client.post('/workspaces/standalone', { name: 'Bench', ownerName: 'Bench Owner', email: `bench-${Date.now()}@example.com`, webhookUrl: 'http://127.0.0.1:9/hook' })).body as { id: string; apiKey: string };
  const keyed = client.withKey(ws.apiKey);
  const exam = (await keyed.post('/exams', { workspaceId: ws.id, title: 'Largest paper', durationMins: 600, maxTabViolations: 100 })).body as { id: string; accessCode: string };
  const bulk = await keyed.post('/questions/bulk', { workspaceId: ws.id, examId: exam.id, questions: largestPaper() });
  if (bulk.status !== 201) throw new Error(`bulk ${bulk.status}`);
  const pid = server.pid!;
  let peak = rssMB(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMB(pid))), 20);
  const before = rssMB(pid);
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [form, path] of [['html', '/attempts/start'], ['mathml', '/attempts/start?math=mathml']] as const) {
    const first = await Promise.all([0, 1, 2, 3].map(() => start(server.baseUrl, path, exam.accessCode, `B${n++}`, 'gzip, deflate, br, zstd')));
    const later = [];
    for (let i = 0; i < 5; i++) later.push(await start(server.baseUrl, path, exam.accessCode, `B${n++}`, i % 2 ? 'gzip, deflate' : 'gzip, deflate, br, zstd'));
    out[form] = { firstMs: first.map((s) => s.ms), laterMs: later.map((s) => s.ms), json: first[0]!.json, wireBr: first[0]!.wire, wireGzip: later[1]!.wire };
  }
  clearInterval(sampler);
  console.log(JSON.stringify({ ...out, rssBeforeMB: Math.round(before), rssPeakMB: Math.round(peak) }, null, 1));
} finally {
  await server.kill();
  rmSync(dir, { recursive: true, force: true });
}
