/**
 * `npm run bench:hub` — the hub benchmark (issues #24, #38 §7). On a throwaway PostgreSQL
 * cluster with durable settings (fsync, synchronous_commit and full_page_writes on;
 * `--pg=fast` for the test clusters' fsync-off settings) it starts the real hub
 * (`dist/src/hub/main.js`, as `npm run hub` runs it) as each of `--processes` (several behind
 * a round-robin client, what any HTTP load balancer does), and for each: enrols H simulated
 * halls (each with its own Ed25519 key), creates ⌈H / ⌊20,000 / C⌋⌉ 60-question papers (a
 * roster holds 20,000; each hall sits one, its C candidates assigned to it: a candidate sits
 * a paper once), publishes each to its halls, has every hall download its package, then has
 * every hall send its C results (one event per attempt, each with its answers) the way a
 * hall's outbox does: signed batches of at most 500 events and 2 MB
 * (`POST /hub/v1/results/batch`), from this separate process, `--concurrency` halls at
 * once. With `--seed-sql` the results are inserted by SQL instead (scripts/bench/hub-views.ts),
 * to time the views at millions of rows without the ingest. Reports attempts/s, batch latency
 * p50/p99 (the ingest latency every attempt of a batch sees), the CPU seconds of this load
 * generator, the hub and PostgreSQL during ingest, package download time, PostgreSQL size and
 * the hub processes' peak RSS, checks every result was stored exactly once, then times the
 * board's views (`--view-requests` each), and writes the report to --out (a temp file by
 * default; docs/benchmarks-hub.md keeps the figures chosen). Each cluster is removed after.
 *
 * Options: --halls=1000 --candidates=300 --answers=60 --papers=⌈H/⌊20000/C⌋⌉ --processes=1,2
 *          --concurrency=8 --download-concurrency=48 --pg=durable|fast --seed-sql
 *          --view-requests=50 --hub-cpu-prof=DIR --no-build (dist/ as built) --out=PATH
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { newSigningKeyPair, signRequest } from '../../src/core/sync/signing.js';
import { MAX_RESULT_BATCH_BYTES, MAX_RESULT_BATCH_EVENTS } from '../../src/core/sync/messages.js';
import { gradeFor } from '../../src/core/grading/scale.js';
import { freePort, pgBinDir, startPgCluster } from '../../test/pg/cluster.js';
import { cpuSpent, cpuTicks, seedResultsBySql, timeViews } from './hub-views.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const H = Number(arg('halls', '1000'));
const C = Number(arg('candidates', '300'));
const A = Number(arg('answers', '60'));
const PROCESSES = arg('processes', '1,2').split(',').map(Number);
const CONCURRENCY = Number(arg('concurrency', '8'));
const DOWNLOAD_CONCURRENCY = Number(arg('download-concurrency', '48'));
const DURABLE = arg('pg', 'durable') !== 'fast';
/** papers: a paper's roster holds at most 20,000 candidates (src/hub/exams.ts), so 3,000,000 results from halls of 300 need 152 */
const PAPERS = Number(arg('papers', String(Math.ceil(H / Math.max(1, Math.floor(20_000 / C))))));
const HALLS_PER_PAPER = Math.ceil(H / PAPERS);
/** the paper hall `i` (0-based) sits */
const paperOf = (i: number) => Math.floor(i / HALLS_PER_PAPER);
/** candidate `s` of hall `i`: one sitting each */
const studentId = (i: number, s: number) => `C${i + 1}-${s + 1}`;
/** results inserted by SQL instead of ingested (to time the views at 3,000,000 without the ingest) */
const SEED_SQL = process.argv.includes('--seed-sql');
/** requests per board view after the results are in (0: none) */
const VIEW_REQUESTS = Number(arg('view-requests', '50'));
/** a directory for the hub processes' V8 CPU profiles (--cpu-prof), to see where ingest time goes */
const HUB_CPU_PROF = arg('hub-cpu-prof', '');
/** the report (docs/benchmarks-hub.md holds the figures as chosen and explained, so not overwritten by default) */
const OUT = arg('out', join(tmpdir(), 'hallcbt-bench-hub.md'));
const log = console.log;

type HubProc = { proc: ChildProcess; port: number };
interface Hall {
  id: string;
  keys: { publicKey: string; privateKey: string };
  packageId: string;
  examId: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, DOWNLOAD_CONCURRENCY) * 2 });

function call(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function expectOk(p: Promise<{ status: number; text: string }>, what: string): Promise<any> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
  return r.text ? JSON.parse(r.text) : null;
}

async function startHubProcess(env: Record<string, string>): Promise<HubProc & { firstKey: Promise<string | null> }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...(HUB_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${HUB_CPU_PROF}`] : []), join(ROOT, 'dist/src/hub/main.js')], { env: { ...process.env, ...env, HUB_PORT: String(port), HUB_HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const firstKey = new Promise<string | null>((resolve) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /First examiner API key[^:]*: (cbt_\w+)/.exec(out);
      if (m) resolve(m[1]!);
      if (/listening on/.test(out) && !/First examiner/.test(out)) setTimeout(() => resolve(null), 200);
      // keep the request log from filling memory: only the banner matters
      if (out.length > 10_000) out = out.slice(-2_000);
    });
  });
  proc.stderr!.on('data', (d: Buffer) => process.stderr.write(`[hub ${port}] ${d}`));
  for (let i = 0; i < 200; i++) {
    const ok = await call(port, 'GET', '/health').then((r) => r.status === 200, () => false);
    if (ok) return { proc, port, firstKey };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('hub did not start');
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
};

/** Runs `n` jobs with `width` in flight; returns each job's latency in ms. */
async function pool(n: number, job: (i: number) => Promise<void>, width = DOWNLOAD_CONCURRENCY): Promise<number[]> {
  const lat = new Array<number>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await job(i);
        lat[i] = performance.now() - t;
      }
    }),
  );
  return lat;
}

function signed(hall: Hall, method: string, path: string, body?: string): Record<string, string> {
  return signRequest({ hallId: hall.id, privateKey: hall.keys.privateKey, method, pathWithQuery: path, body, now: Date.now(), nonce: randomBytes(16).toString('base64url') });
}

/** clusters to remove if the bench is stopped (SIGINT, SIGTERM, timeout) */
const live = new Set<{ stop(): Promise<void> }>();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void Promise.all([...live].map((c) => c.stop().catch(() => {}))).then(() => process.exit(130)));

async function runOnce(processes: number) {
  const cluster = await startPgCluster({ durable: DURABLE });
  live.add(cluster);
  const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-hubbench-'));
  const hubs: HubProc[] = [];
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, hubs.reduce((s, h) => s + rssMb(h.proc.pid!), 0));
  }, 500);
  try {
    const url = cluster.createDatabase('hub_bench');
    const env = { DATABASE_URL: url, HUB_DATA_DIR: dataDir, HUB_DB_POOL: String(Math.ceil(40 / processes)), HUB_TRUST_PROXY: '1' };
    const first = await startHubProcess(env);
    hubs.push(first);
    const key = await first.firstKey;
    if (!key) throw new Error('no examiner key printed');
    for (let i = 1; i < processes; i++) hubs.push(await startHubProcess(env));
    const port = (i: number) => hubs[i % hubs.length]!.port;
    const ex = { 'x-api-key': key };

    log(`  ${processes} hub process(es): enrolling ${H} halls`);
    const halls: Hall[] = [];
    await pool(H, async (i) => {
      const created = await expectOk(call(port(i), 'POST', '/hub/v1/halls', JSON.stringify({ name: `Hall ${i + 1}` }), ex), 'create hall');
      const keys = newSigningKeyPair();
      await expectOk(call(port(i + 1), 'POST', '/hub/v1/enrol', JSON.stringify({ enrolmentCode: created.enrolmentCode, hallName: `Hall ${i + 1}`, publicKey: keys.publicKey, clock: new Date().toISOString() }), { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }), 'enrol');
      halls[i] = { id: created.id, keys, packageId: '', examId: '' };
      // each hall from its own address, as halls are (the hub counts enrolment tries per address:
      // src/hub/enrol-throttle.ts, behind a proxy by X-Forwarded-For); 8 at once
    }, 8);
    const questions = Array.from({ length: A }, (_, q) => ({ prompt: `Question ${q + 1}: which option is right?`, type: 'MCQ', marks: 1, options: ['A', 'B', 'C', 'D'].map((t, o) => ({ text: `Option ${t} of ${q + 1}`, isCorrect: o === q % 4 })) }));
    // a candidate sits a paper once, at one hall (docs/hub.md, "Candidates and centres"): each
    // paper's roster (≤ 20,000) names every candidate's hall, and every hall sits one paper
    const exams: { id: string; questions: { id: string; options: { id: string; isCorrect: boolean }[] }[] }[] = [];
    const tPub = performance.now();
    for (let p = 0; p < PAPERS; p++) {
      const mine = halls.map((h, i) => ({ h, i })).filter(({ i }) => paperOf(i) === p);
      const roster = mine.flatMap(({ h, i }) => Array.from({ length: C }, (_, s) => ({ studentId: studentId(i, s), candidateName: `Candidate ${s + 1} of hall ${i + 1}`, pin: '123456', hallId: h.id })));
      const exam = await expectOk(call(port(p), 'POST', '/hub/v1/exams', JSON.stringify({ title: `Benchmark paper ${p + 1}`, durationMins: 60, startsAt: new Date(Date.now() - 3600_000).toISOString(), questions, roster }), ex), 'create exam');
      exams.push(exam);
      for (let b = 0; b < mine.length; b += 100) {
        const ids = mine.slice(b, b + 100).map(({ h }) => h.id);
        const pub = await expectOk(call(port(b / 100), 'POST', `/hub/v1/exams/${exam.id}/publish`, JSON.stringify({ hallIds: ids }), ex), 'publish');
        const byId = new Map(mine.map(({ h }) => [h.id, h]));
        for (const x of pub.packages) Object.assign(byId.get(x.hallId)!, { packageId: x.packageId, examId: exam.id });
      }
    }
    const publishS = (performance.now() - tPub) / 1000;

    const total = H * C;
    /** every hall downloads its package, then sends its results; what it took */
    const ingest = async () => {
      log(`  package download by ${H} halls`);
      const tDl = performance.now();
      let packageBytes = 0;
      const dlLat = await pool(H, async (i) => {
        const h = halls[i]!;
        const path = `/hub/v1/packages/${h.packageId}`;
        const r = await call(port(i), 'GET', path, undefined, signed(h, 'GET', path));
        if (r.status !== 200) throw new Error(`download: ${r.status} ${r.text}`);
        packageBytes = r.text.length;
      });
      const downloadS = (performance.now() - tDl) / 1000;

      log(`  ingesting ${total} attempts × ${A} answers`);
      const tIn = performance.now();
      const pgPid = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      const cpu0 = { gen: process.cpuUsage(), hubs: hubs.map((h) => cpuTicks(h.proc.pid!)), pg: cpuTicks(pgPid, true) };
      let done = 0;
      const loads: number[] = [];
      const progress = setInterval(() => {
        loads.push(loadavg()[0]!);
        log(`    ${done} / ${total} (${Math.round(done / ((performance.now() - tIn) / 1000))}/s, load ${loadavg()[0]!.toFixed(1)})`);
      }, 15_000);
      const event = (h: number, s: number) => {
        const hall = halls[h]!;
        const i = s * H + h;
        let score = 0;
        const answers = exams[paperOf(h)]!.questions.map((q, k) => {
          const o = q.options[(s + k) % 4]!;
          if (o.isCorrect) score++;
          return { questionId: q.id, optionId: o.id, text: null, awardedMarks: null, reviewed: false };
        });
        const pct2 = Math.round((score / A) * 10000) / 100;
        return JSON.stringify({
          eventId: `evt_b${i}`,
          type: 'exam.attempt.completed',
          packageId: hall.packageId,
          examId: hall.examId,
          createdAt: new Date().toISOString(),
          attempt: { attemptId: `att_b${i}`, studentId: studentId(h, s), candidateName: `Candidate ${s + 1} of hall ${h + 1}`, status: 'COMPLETED', startedAt: new Date(Date.now() - 3_000_000).toISOString(), completedAt: new Date().toISOString(), disqualifiedAt: null, creditedMs: 0, violations: 0, score, maxScore: A, percentage: pct2, grade: gradeFor(pct2), pendingReview: false, answers, audit: [] },
        });
      };
      // every hall's outbox: its C results, cut as a hall cuts them (≤ 500 events, ≤ 2 MB)
      const batchLat: number[] = [];
      let batches = 0;
      let resent = 0;
      let rr = 0;
      const path = '/hub/v1/results/batch';
      await pool(H, async (h) => {
        const hall = halls[h]!;
        let cur: string[] = [];
        let bytes = 0;
        const send = async () => {
          const body = `{"events":[${cur.join(',')}]}`;
          const n = cur.length;
          batches++;
          cur = [];
          bytes = 0;
          const t = performance.now();
          // as a hall does: a dropped connection (a keep-alive socket the hub closed as we wrote) is sent again, freshly signed
          let r: { status: number; text: string } | null = null;
          for (let attempt = 0; !r; attempt++) {
            try {
              r = await call(port(rr++), 'POST', path, body, signed(hall, 'POST', path, body));
            } catch (e) {
              if (attempt >= 3) throw e;
              resent++;
            }
          }
          batchLat.push(performance.now() - t);
          if (r.status !== 200) throw new Error(`ingest: ${r.status} ${r.text.slice(0, 300)}`);
          const outcomes = (JSON.parse(r.text) as { results: { status: string }[] }).results;
          if (outcomes.length !== n || outcomes.some((o) => o.status === 'refused')) throw new Error(`ingest: not every event stored: ${r.text.slice(0, 300)}`);
          done += n;
        };
        for (let s = 0; s < C; s++) {
          const e = event(h, s);
          const size = Buffer.byteLength(e) + 1;
          if (cur.length > 0 && (cur.length >= MAX_RESULT_BATCH_EVENTS || bytes + size > MAX_RESULT_BATCH_BYTES)) await send();
          cur.push(e);
          bytes += size;
        }
        if (cur.length) await send();
      }, CONCURRENCY);
      clearInterval(progress);
      const ingestS = (performance.now() - tIn) / 1000;
      const genCpu = process.cpuUsage(cpu0.gen);
      // where the 2 cores went during ingest: the load generator (building + signing), the hub process(es), PostgreSQL
      const cpuS = { generator: Math.round((genCpu.user + genCpu.system) / 1e5) / 10, hubs: Math.round(hubs.reduce((s, h, i) => s + cpuSpent(cpu0.hubs[i]!, cpuTicks(h.proc.pid!)), 0) * 10) / 10, postgres: Math.round(cpuSpent(cpu0.pg, cpuTicks(pgPid, true)) * 10) / 10 };
      return { dlLat, packageBytes, downloadS, ingestS, batchLat, batches, resent, loads, cpuS };
    };

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      let seedS: number | null = null;
      let run: Awaited<ReturnType<typeof ingest>> | null = null;
      if (SEED_SQL) {
        log(`  seeding ${total} results by SQL`);
        seedS = Math.round(await seedResultsBySql(client, halls, exams, C, log));
      } else run = await ingest();
      const stored = Number((await client.query('select count(*) from hub_results')).rows[0].count);
      const size = Number((await client.query('select pg_database_size(current_database()) as s')).rows[0].s);
      const resultsMB = Math.round(Number((await client.query(`select pg_total_relation_size('hub_results') as s`)).rows[0].s) / 2 ** 20);
      if (stored !== total) throw new Error(`stored ${stored} results, expected ${total}`);
      log(`  timing the board's views (${VIEW_REQUESTS} requests each)`);
      const views = VIEW_REQUESTS > 0 ? await timeViews((path) => call(port(0), 'GET', path, undefined, ex), exams.map((x) => x.id), VIEW_REQUESTS, H) : [];
      for (const v of views) log(`    ${v.view}: p50 ${v.p50} ms, p95 ${v.p95} ms, max ${v.max} ms (${v.kb} KB)`);
      const ing = run
        ? { downloadS: run.downloadS, downloadP99: pct(run.dlLat, 99), packageKB: Math.round(run.packageBytes / 1024), ingestS: run.ingestS, perSec: Math.round(total / run.ingestS), p50: pct(run.batchLat, 50), p99: pct(run.batchLat, 99), batches: run.batches, resent: run.resent, loadAvg: run.loads.length ? Math.round((run.loads.reduce((a, b) => a + b, 0) / run.loads.length) * 10) / 10 : null, perBatch: Math.round(total / run.batches), cpuS: run.cpuS }
        : null;
      return { processes, halls: H, papers: PAPERS, attempts: total, publishS, seedS, ...ing, pgMB: Math.round(size / 2 ** 20), resultsMB, peakRssMB: peakRss, stored, views };
    } finally {
      await client.end();
    }
  } finally {
    clearInterval(sampler);
    for (const h of hubs) h.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await cluster.stop();
    live.delete(cluster);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  log(`HallCBT hub benchmark: ${H} halls × ${C} candidates × ${A} answers; hub processes ${PROCESSES.join(', ')}; ${CONCURRENCY} halls sending at once; PostgreSQL ${DURABLE ? 'durable' : 'fast (fsync off)'}`);
  if (!process.argv.includes('--no-build')) execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
  const runs = [];
  for (const p of PROCESSES) {
    runs.push(await runOnce(p));
    writeFileSync(`${OUT}.partial.json`, JSON.stringify(runs, null, 2));
    log(JSON.stringify(runs.at(-1)));
  }
  const pgVersion = /\/postgresql\/(\d+)\//.exec(pgBinDir() ?? '')?.[1] ?? '';
  const cmd = `npm run bench:hub -- ${process.argv.slice(2).join(' ')}`.trim();
  const ingested = runs.filter((r) => r.ingestS !== undefined);
  const base = ingested[0];
  const lines = [
    '# Hub benchmark (issues #24, #38 §7)',
    '',
    `Command: \`${cmd}\` on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, PostgreSQL ${pgVersion} from Debian (a throwaway cluster, ${DURABLE ? 'durable settings: fsync, synchronous_commit, full_page_writes on; max_wal_size 4 GB' : 'fsync, synchronous_commit and full_page_writes OFF (test settings, not durable)'}).`,
    `The hub processes, PostgreSQL and this load generator share the machine's ${cpus().length} cores. ${H} halls sit ${PAPERS} paper(s) (each hall one paper; its ${C} candidates on that paper's roster). ${SEED_SQL ? 'Results were inserted by SQL (--seed-sql), not ingested.' : `Each result event is one attempt with ${A} answers; each hall sends its ${C} in signed batches (≤ ${MAX_RESULT_BATCH_EVENTS} events, ≤ ${MAX_RESULT_BATCH_BYTES / 2 ** 20} MB; here ${base?.perBatch} per batch on average), ${CONCURRENCY} halls at once; the hub checks each batch (Ed25519 signature over the body, clock window, nonce in PostgreSQL), recomputes every score from the answers and its own copy of the paper, and stores the batch in one transaction, once per event id, only for the hall's own package and roster. Ingest latency is per batch: what every attempt in it waits.`}`,
    '',
    ...(base
      ? [
          '| hub processes | halls | attempts | ingest time | attempts/s | ×first run | batch p50 | batch p99 | CPU s: load generator / hub / PostgreSQL | package download (all halls) | download p99 | publish | PostgreSQL size (hub_results) | hubs’ peak RSS |',
          '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
          ...ingested.map((r) => `| ${r.processes} | ${r.halls} | ${r.attempts} (stored ${r.stored}) | ${r.ingestS!.toFixed(1)} s | ${r.perSec} | ${(r.perSec! / base.perSec!).toFixed(2)} | ${r.p50} ms | ${r.p99} ms | ${r.cpuS!.generator} / ${r.cpuS!.hubs} / ${r.cpuS!.postgres} | ${r.downloadS!.toFixed(1)} s (${r.packageKB} KB each) | ${r.downloadP99} ms | ${r.publishS.toFixed(1)} s | ${r.pgMB} MB (${r.resultsMB} MB) | ${r.peakRssMB} MB |`),
          '',
          `Target (issue 38 §7): all ${H * C} attempts ingested in under 20 minutes.`,
          ...ingested.map((r) => `- ${r.processes} process(es): ${(r.ingestS! / 60).toFixed(1)} min — ${r.ingestS! < 1200 ? 'met' : 'NOT met'}.`),
          '',
        ]
      : []),
    ...runs.flatMap((r) => [
      `Views with ${r.stored} results (${r.processes} hub process(es)${r.seedS !== null ? `, seeded by SQL in ${r.seedS} s` : ''}; PostgreSQL ${r.pgMB} MB, hub_results ${r.resultsMB} MB), one at a time (“page:” the board page’s calls, “whole:” the unpaged API); target p95 < 300 ms for the page’s views:`,
      '',
      '| view | requests | p50 | p95 | max | response |',
      '|---|---|---|---|---|---|',
      ...r.views.map((v) => `| ${v.view} | ${v.requests} | ${v.p50} ms | ${v.p95} ms | ${v.max} ms | ${v.kb} KB |`),
      '',
    ]),
  ];
  writeFileSync(OUT, lines.join('\n'));
  writeFileSync(`${OUT}.json`, JSON.stringify({ cmd, at: new Date().toISOString(), durable: DURABLE, concurrency: CONCURRENCY, runs }, null, 2));
  log(lines.join('\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
