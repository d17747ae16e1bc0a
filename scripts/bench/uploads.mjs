#!/usr/bin/env node
/**
 * `npm run bench:uploads` — hostile uploads during an exam (issue 22 §1). Builds and starts
 * the real server (as `npm run bench` does), seats 500 candidates who save every 2 s from
 * separate generator processes, and measures three windows of `--seconds` each:
 *   A  the hall alone;
 *   B  the hall while this process fires, one after another and over and over, a 1 GB
 *      .xlsx/.docx/.pptx zip bomb, a zip that lies about its sizes, and a 39 MB .txt at
 *      every upload route (bombs.mjs builds them at run time);
 *   A2 the hall alone again.
 * Reported: each upload's status, the server's RSS before B and its peak during B
 * (sampled every 50 ms), save p50/p99 in each window and B's p99 over A's, errors, and
 * whether the server still answers. Written between the `bench:uploads` markers of
 * docs/benchmarks.md. Targets: RSS growth ≤ 200 MB, save p99 within 2× of A, serving.
 * Options: --seconds S (default 45), --candidates N (default 500), --no-report.
 */
import { request as httpRequest } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { buildBombs, longText } from './bombs.mjs';
import { startGenerators } from './drive.mjs';
import { startReceiver } from './receiver.mjs';
import { buildServer, ROOT, sampleProcess } from './server.mjs';
import { prepareRun, waitFlushed } from './setup.mjs';
import { summarizePhase } from './summary.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 45);
const N = arg('candidates', 500);
const REPORT = !process.argv.includes('--no-report');
const PHASE = { probeConnections: 5, probeEveryMs: 200, saveEveryMs: 2000, jitterMs: 400, telemetryEvery: 30 };
const log = (...a) => console.log(...a);

/** POSTs a multipart form; resolves on the response even if the server answered before reading it all. */
async function upload(baseUrl, apiKey, path, fields, name, bytes) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([bytes]), name);
  const encoded = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(path, baseUrl);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': encoded.headers.get('content-type'), 'content-length': body.length, 'x-api-key': apiKey } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let parsed = null;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString());
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, ms: Math.round(performance.now() - t0), body: parsed });
      });
    });
    req.on('error', (e) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    // the rest of the body may fail to write after the answer came (EPIPE on the socket)
    req.on('socket', (s) => s.on('error', () => {}));
    req.end(body);
  });
}

function writeBlock(markdown) {
  const file = `${ROOT}docs/benchmarks.md`;
  const open = '<!-- bench:uploads -->';
  const close = '<!-- /bench:uploads -->';
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  const block = `${open}\n${markdown}\n${close}`;
  writeFileSync(file, a >= 0 && b > a ? doc.slice(0, a) + block + doc.slice(b + close.length) : `${doc.trimEnd()}\n\n${block}\n`);
}

async function main() {
  const command = `npm run bench:uploads${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  log('building the server…');
  buildServer();
  const bombs = await buildBombs(1024);
  const text = longText(39);
  const receiver = await startReceiver();
  const run = await prepareRun({ seated: N, credits: 200, receiverUrl: receiver.url, satSeconds: 2, satConnections: 20, log });
  const target = { host: '127.0.0.1', port: run.server.port };
  const gens = await startGenerators({ target, candidates: run.seated, questions: run.seed.questions, accessCode: run.seed.accessCode, baselinePath: run.baseline.path, processes: 2, probeConnections: 5 });
  const { apiKey, workspaceId, examId } = run.seed;
  const routes = [
    { route: 'POST /questions/import-excel', path: '/questions/import-excel', fields: { workspaceId, examId }, file: 'questions.xlsx' },
    { route: 'POST /exams/{id}/roster/import', path: `/exams/${examId}/roster/import`, fields: {}, file: 'roster.xlsx' },
    { route: 'POST /questions/import', path: '/questions/import', fields: { workspaceId, examId }, file: 'bank.docx' },
    { route: 'POST /api/cbt/ai/generate-questions', path: '/api/cbt/ai/generate-questions', fields: { count: '5' }, file: 'notes.docx' },
  ];
  const shots = routes.flatMap((r) => [
    ...bombs.map((b) => ({ ...r, what: b.name, bytes: b.bytes, name: r.path.includes('generate') && b.name.startsWith('pptx') ? 'slides.pptx' : r.file })),
    { ...r, what: '39 MB .txt', bytes: text, name: r.file.replace(/\.\w+$/, '.txt') },
  ]);
  const phase = (durationMs) => gens.runPhase({ ...PHASE, kind: 'hall', durationMs, deadlineMs: durationMs + 30_000 });
  const out = { candidates: N, seconds: SECONDS, results: [] };
  try {
    log(`warm-up ${Math.min(SECONDS, 15)} s with ${N} candidates…`);
    await phase(Math.min(SECONDS, 15) * 1000);
    await waitFlushed(run.server.baseUrl);
    log('A: the hall alone');
    out.a = summarizePhase(await phase(SECONDS * 1000), { cpuSec: 0 }, SECONDS * 1000);
    await waitFlushed(run.server.baseUrl);
    const before = sampleProcess(run.server.pid).rssMB;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, sampleProcess(run.server.pid).rssMB)), 50);
    log('B: the hall while uploads are fired');
    const hall = phase(SECONDS * 1000);
    const end = Date.now() + SECONDS * 1000;
    let rounds = 0;
    while (Date.now() < end) {
      for (const s of shots) {
        if (Date.now() >= end && rounds > 0) break;
        const r = await upload(run.server.baseUrl, apiKey, s.path, s.fields, s.name, s.bytes);
        if (rounds === 0) out.results.push({ route: s.route, what: s.what, status: r.status, ms: r.ms, truncated: r.body?.truncated });
        else if (out.results.find((x) => x.route === s.route && x.what === s.what)?.status !== r.status) out.results.push({ route: s.route, what: `${s.what} (round ${rounds + 1})`, status: r.status, ms: r.ms });
      }
      rounds++;
    }
    out.b = summarizePhase(await hall, { cpuSec: 0 }, SECONDS * 1000);
    clearInterval(sampler);
    out.rss = { beforeMB: Math.round(before), peakMB: Math.round(peak), afterMB: Math.round(sampleProcess(run.server.pid).rssMB), rounds };
    await waitFlushed(run.server.baseUrl);
    log('A2: the hall alone again');
    out.a2 = summarizePhase(await phase(SECONDS * 1000), { cpuSec: 0 }, SECONDS * 1000);
    out.healthStatus = (await fetch(`${run.server.baseUrl}/health`)).status;
  } finally {
    await gens.close();
    await run.close();
    await receiver.close?.();
  }
  const p = (s, k) => s.requests.save?.[k];
  const ratio = Math.round((p(out.b, 'p99') / p(out.a, 'p99')) * 100) / 100;
  const growth = out.rss.peakMB - out.rss.beforeMB;
  const md = [
    `Command: \`${command}\`, run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (load average before: ${loadavg()[0].toFixed(1)} on this shared 2-core machine).`,
    '',
    `${N} seated candidates save every 2 s (±0.4 s) from 2 generator processes; three windows of ${SECONDS} s. During B this process fires each upload below at its route, one after another, ${out.rss.rounds} time(s) round.`,
    '',
    '| upload | route | status | ms |',
    '|---|---|---|---|',
    ...out.results.map((r) => `| ${r.what} | ${r.route} | ${r.status}${r.truncated ? ' (truncated: true)' : ''} | ${r.ms} |`),
    '',
    '| figure | A (hall alone) | B (hall + uploads) | A2 (hall alone again) |',
    '|---|---|---|---|',
    `| saves | ${p(out.a, 'count')} | ${p(out.b, 'count')} | ${p(out.a2, 'count')} |`,
    `| save p50 / p99 / max (ms) | ${p(out.a, 'p50')} / ${p(out.a, 'p99')} / ${p(out.a, 'max')} | ${p(out.b, 'p50')} / ${p(out.b, 'p99')} / ${p(out.b, 'max')} | ${p(out.a2, 'p50')} / ${p(out.a2, 'p99')} / ${p(out.a2, 'max')} |`,
    `| request errors | ${out.a.errorCount} | ${out.b.errorCount} | ${out.a2.errorCount} |`,
    '',
    `Server RSS: ${out.rss.beforeMB} MB before B, peak ${out.rss.peakMB} MB during B (**+${growth} MB**; target ≤ 200), ${out.rss.afterMB} MB after. Save p99 B ÷ A = **${ratio}** (target ≤ 2). /health after: ${out.healthStatus}.`,
  ].join('\n');
  log(`\n${md}\n`);
  if (REPORT) writeBlock(md);
  return growth <= 200 && ratio <= 2 && out.healthStatus === 200 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
