/**
 * `npm run bench:hub` — issue #24's hub benchmark. On a throwaway PostgreSQL cluster with
 * durable settings (fsync, synchronous_commit and full_page_writes on; `--pg=fast` for the
 * test clusters' fsync-off settings) it starts the real hub (`dist/src/hub/main.js`, as
 * `npm run hub` runs it) as one process and then as two behind a round-robin client (what
 * any HTTP load balancer does), and for each: enrols H simulated halls (each with its own
 * Ed25519 key), publishes one 60-question exam to all of them, has every hall download its
 * package, then has every hall send its C results (one event per attempt, each with its
 * answers) the way a hall's outbox does: signed batches of at most 500 events and 2 MB
 * (`POST /hub/v1/results/batch`), from this separate process, `--concurrency` halls at
 * once. Reports attempts/s, batch latency p50/p99 (the ingest latency every attempt of a
 * batch sees), package download time, PostgreSQL size and the hub processes' peak RSS,
 * checks every result was stored exactly once, and writes the report (docs/benchmarks-hub.md
 * unless --out says otherwise). The 1-process run is the baseline of the 2-process ratio.
 *
 * Options: --halls=1000 --candidates=300 --answers=60 --processes=1,2 --concurrency=8
 *          --download-concurrency=48 --pg=durable|fast --out=PATH
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { newSigningKeyPair, signRequest } from '../../src/core/sync/signing.js';
import { MAX_RESULT_BATCH_BYTES, MAX_RESULT_BATCH_EVENTS } from '../../src/core/sync/messages.js';
import { gradeFor } from '../../src/core/grading/scale.js';
import { freePort, pgBinDir, startPgCluster } from '../../test/pg/cluster.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const H = Number(arg('halls', '1000'));
const C = Number(arg('candidates', '300'));
const A = Number(arg('answers', '60'));
const PROCESSES = arg('processes', '1,2').split(',').map(Number);
const CONCURRENCY = Number(arg('concurrency', '8'));
const DOWNLOAD_CONCURRENCY = Number(arg('download-concurrency', '48'));
const DURABLE = arg('pg', 'durable') !== 'fast';
/** papers: a paper's roster holds at most 20,000 candidates (src/hub/exams.ts), so 3,000,000 results need 150 */
const PAPERS = Number(arg('papers', String(Math.max(1, Math.ceil((H * C) / 20_000)))));
const HALLS_PER_PAPER = Math.ceil(H / PAPERS);
/** the paper hall `i` (0-based) sits */
const paperOf = (i: number) => Math.floor(i / HALLS_PER_PAPER);
/** candidate `s` of hall `i`: one sitting each */
const studentId = (i: number, s: number) => `C${i + 1}-${s + 1}`;
const OUT = arg('out', join(ROOT, 'docs', 'benchmarks-hub.md'));
const log = (...a: unknown[]) => console.log(...a);

interface HubProc {
  proc: ChildProcess;
  port: number;
}
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
  const proc = spawn(process.execPath, [join(ROOT, 'dist/src/hub/main.js')], { env: { ...process.env, ...env, HUB_PORT: String(port), HUB_HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** CPU seconds (user + system) of each process: `pid` and, with `children`, every process whose parent it is (PostgreSQL's backends). */
function cpuTicks(pid: number, children = false): Map<number, number> {
  const out = new Map<number, number>();
  const read = (p: number) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      // after "pid (comm) ": state, ppid, …, utime (14th field), stime (15th)
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
    } catch {
      return null;
    }
  };
  const own = read(pid);
  if (own) out.set(pid, own.ticks);
  if (children) for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    const r = read(Number(d));
    if (r && r.ppid === pid) out.set(Number(d), r.ticks);
  }
  return out;
}
/** CPU seconds spent between two {@link cpuTicks} samples (a process absent from `before` started since: all its ticks count). */
const cpuSpent = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((s, [p, t]) => s + t - (before.get(p) ?? 0), 0) / 100;

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

async function runOnce(processes: number) {
  const cluster = await startPgCluster({ durable: DURABLE });
  const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-hubbench-'));
  const hubs: HubProc[] = [];
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, hubs.reduce((s, h) => s + rssMb(h.proc.pid!), 0));
  }, 500);
  try {
    const url = cluster.createDatabase('hub_bench');
    const env = { DATABASE_URL: url, HUB_DATA_DIR: dataDir, HUB_DB_POOL: String(Math.ceil(40 / processes)) };
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
      await expectOk(call(port(i + 1), 'POST', '/hub/v1/enrol', JSON.stringify({ enrolmentCode: created.enrolmentCode, hallName: `Hall ${i + 1}`, publicKey: keys.publicKey, clock: new Date().toISOString() })), 'enrol');
      halls[i] = { id: created.id, keys, packageId: '', examId: '' };
    });
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

    const total = H * C;
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

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const stored = Number((await client.query('select count(*) from hub_results')).rows[0].count);
    const size = Number((await client.query('select pg_database_size(current_database()) as s')).rows[0].s);
    await client.end();
    if (stored !== total) throw new Error(`stored ${stored} results, expected ${total}`);
    return { processes, halls: H, attempts: total, publishS, downloadS, downloadP99: pct(dlLat, 99), packageKB: Math.round(packageBytes / 1024), ingestS, perSec: Math.round(total / ingestS), p50: pct(batchLat, 50), p99: pct(batchLat, 99), batches, resent, loadAvg: loads.length ? Math.round((loads.reduce((a, b) => a + b, 0) / loads.length) * 10) / 10 : null, perBatch: Math.round(total / batches), pgMB: Math.round(size / 2 ** 20), peakRssMB: peakRss, stored, cpuS };
  } finally {
    clearInterval(sampler);
    for (const h of hubs) h.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  log(`HallCBT hub benchmark: ${H} halls × ${C} candidates × ${A} answers; hub processes ${PROCESSES.join(', ')}; ${CONCURRENCY} halls sending at once; PostgreSQL ${DURABLE ? 'durable' : 'fast (fsync off)'}`);
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
  const runs = [];
  for (const p of PROCESSES) {
    runs.push(await runOnce(p));
    writeFileSync(`${OUT}.partial.json`, JSON.stringify(runs, null, 2));
    log(JSON.stringify(runs.at(-1)));
  }
  const pgVersion = /\/postgresql\/(\d+)\//.exec(pgBinDir() ?? '')?.[1] ?? '';
  const base = runs[0]!;
  const cmd = `npm run bench:hub -- ${process.argv.slice(2).join(' ')}`.trim();
  const lines = [
    '# Hub benchmark (issue #24)',
    '',
    `Command: \`${cmd}\` on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, PostgreSQL ${pgVersion} from Debian (a throwaway cluster, ${DURABLE ? 'durable settings: fsync, synchronous_commit, full_page_writes on; max_wal_size 4 GB' : 'fsync, synchronous_commit and full_page_writes OFF (test settings, not durable)'}).`,
    `The hub processes, PostgreSQL and this load generator share the machine's ${cpus().length} cores. Each result event is one attempt with ${A} answers; each hall sends its ${C} in signed batches (≤ ${MAX_RESULT_BATCH_EVENTS} events, ≤ ${MAX_RESULT_BATCH_BYTES / 2 ** 20} MB; here ${base.perBatch} per batch on average), ${CONCURRENCY} halls at once; the hub checks each batch (Ed25519 signature over the body, clock window, nonce in PostgreSQL), recomputes every score from the answers and its own copy of the paper, and stores the batch in one transaction, once per event id, only for the hall's own package and roster. Ingest latency is per batch: what every attempt in it waits.`,
    '',
    '| hub processes | halls | attempts | ingest time | attempts/s | ×first run | batch p50 | batch p99 | package download (all halls) | download p99 | publish | PostgreSQL size | hubs’ peak RSS |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map((r) => `| ${r.processes} | ${r.halls} | ${r.attempts} (stored ${r.stored}) | ${r.ingestS.toFixed(1)} s | ${r.perSec} | ${(r.perSec / base.perSec).toFixed(2)} | ${r.p50} ms | ${r.p99} ms | ${r.downloadS.toFixed(1)} s (${r.packageKB} KB each) | ${r.downloadP99} ms | ${r.publishS.toFixed(1)} s | ${r.pgMB} MB | ${r.peakRssMB} MB |`),
    '',
    `Target: all ${H * C} attempts ingested in under 10 minutes, and two hub processes faster than one.`,
    ...runs.map((r) => `- ${r.processes} process(es): ${(r.ingestS / 60).toFixed(1)} min — ${r.ingestS < 600 ? 'met' : 'NOT met'}.`),
    runs.length > 1 ? `- Two processes vs one: ${(runs[1]!.perSec / base.perSec).toFixed(2)}× — ${runs[1]!.perSec > base.perSec ? 'faster' : 'NOT faster'}.` : '',
    '',
  ];
  writeFileSync(OUT, lines.join('\n'));
  writeFileSync(`${OUT}.json`, JSON.stringify({ cmd, at: new Date().toISOString(), durable: DURABLE, concurrency: CONCURRENCY, runs }, null, 2));
  log(lines.join('\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
