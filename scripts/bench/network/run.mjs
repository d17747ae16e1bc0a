#!/usr/bin/env node
/**
 * `npm run bench:network` — issue #26: the hall's Wi-Fi as the bottleneck. The real server
 * (dist/src/main.js with `npm start`'s flags) runs in a network namespace of its own behind a
 * router namespace — the access point — whose two interfaces are shaped with tc/tbf
 * (link.mjs); simulated candidate PCs (client.mjs) in the root
 * namespace all arrive at once with empty caches, load the page, start, save every 2 s and
 * submit. For each link rate and hall size it reports the bytes per candidate per phase
 * (TCP payload on the candidates' sockets; the veth counters for the hall's phases, with
 * every header), when the last candidate had its paper (and p50/p99), save p99 over the link, the
 * same for a bare static file of the same size served by bare.mjs in the same namespace
 * (the baseline), and the physical floor (bytes × candidates ÷ link rate).
 *
 * Saves go over the save channel (one WebSocket per candidate, opened once every candidate
 * has the paper, its handshake reported apart), as the candidate page sends them;
 * `--saves=http` sends them as PUTs (the page's fallback, and the path before the channel).
 *
 * Options: --halls=100,500,1000 --mbit=20,54 --saves-seconds=20 --saves=channel|http --quick (20 candidates,
 * 20 Mbit/s, 6 s of saves) --maths=mathml|html (the page of a current Chromium, the
 * default: the paper as MathML and no KaTeX file; or of a browser without MathML: KaTeX
 * HTML, its stylesheet and fonts) --keep-logs (keep the servers' logs, with each request's ms on the server) --out=PATH
 * (default docs/benchmarks-network.md); --help.
 * Exit 0 with one line when namespaces cannot be made here; 1 when a request failed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, START_FLAGS, buildServer } from '../server.mjs';
import { prepareDatabase } from '../seed.mjs';
import { Candidate } from './client.mjs';
import { createShapedLink, hasNetem, linkAvailability } from './link.mjs';
import { mathsPaper } from './paper.mjs';

const arg = (n, d) => process.argv.find((a) => a.startsWith(`--${n}=`))?.slice(n.length + 3) ?? d;
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('npm run bench:network -- [--halls=100,500,1000] [--mbit=20,54] [--saves-seconds=20] [--saves=channel|http] [--quick] [--maths=mathml|html] [--keep-logs] [--dump=PREFIX] [--out=PATH]\n  --dump=PREFIX: write every save and bare-file save with its start (epoch ms) to PREFIX.client-<mbit>mbit-<n>.json (with BENCH_SERVER_NODE_ARGS=\"--import ./scripts/bench/network/trace.mjs\" BENCH_TRACE=PREFIX, the server’s timeline beside it)\n  --saves=http: saves as PUTs, not over the save channel (one WebSocket per candidate, the default)\n  --keep-logs: keep the servers’ logs (the JSON request log: each request’s ms on the server) and say where\n  --quick: 20 candidates, 20 Mbit/s, 6 s of saves; --maths=html: a browser without MathML (KaTeX HTML, stylesheet and fonts); default mathml');
  process.exit(0);
}
const QUICK = process.argv.includes('--quick');
const MATHS = arg('maths', 'mathml');
if (MATHS !== 'mathml' && MATHS !== 'html') throw new Error(`--maths must be mathml or html, not ${MATHS}`);
const HALLS = (QUICK ? '20' : arg('halls', '100,500,1000')).split(',').map(Number);
const RATES = (QUICK ? '20' : arg('mbit', '20,54')).split(',').map(Number);
const SAVE_S = Number(QUICK ? 6 : arg('saves-seconds', '20'));
const KEEP_LOGS = process.argv.includes('--keep-logs');
const SAVES = arg('saves', 'channel');
if (SAVES !== 'channel' && SAVES !== 'http') throw new Error(`--saves must be channel or http, not ${SAVES}`);
const DUMP = arg('dump', '');
const OUT = arg('out', join(ROOT, 'docs', 'benchmarks-network.md'));
const log = (...a) => console.log(...a);
const SERVER_PORT = 8080;
const BARE_PORT = 8081;

const pct = (xs, p) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const r1 = (x) => Math.round(x * 10) / 10;
const r3 = (x) => Math.round(x * 1000) / 1000;
const epoch = (t) => Math.round((performance.timeOrigin + t) * 1000) / 1000;
const kb = (b) => `${r1(b / 1024)} KB`;

async function waitHttp(url, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The last `n` characters of a log file ('' when it cannot be read). */
const tailOf = (path, n = 4000) => {
  try {
    return readFileSync(path, 'utf8').slice(-n);
  } catch {
    return '';
  }
};

/**
 * The real server inside the namespace. Its stdout and stderr (the JSON request log) go to
 * `logPath`, appended, so a failed run can be diagnosed from what the server saw.
 */
async function startServer(link, dataDir, logPath) {
  const fd = openSync(logPath, 'a');
  // BENCH_SERVER_NODE_ARGS (space-separated) adds node flags for diagnosis, e.g. "--import ./scripts/bench/network/trace.mjs"
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn('ip', ['netns', 'exec', link.ns, process.execPath, ...START_FLAGS, ...extra, join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(SERVER_PORT), HOST: link.serverIp, DATA_DIR: dataDir, CBT_RATE_LIMIT_PER_MIN: '1000000', CBT_ANSWER_RATE_LIMIT_PER_MIN: '1000000', CBT_BACKUP_INTERVAL_MINS: '0', CBT_WEBHOOK_ALLOW_LOCAL: '1', CBT_OPEN_ROOM_SEAT_ATTEMPTS: '0' /* the simulated hall shares a few client addresses */ },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const base = `http://${link.serverIp}:${SERVER_PORT}`;
  await waitHttp(`${base}/health`);
  return {
    base,
    pid: proc.pid,
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', resolve);
        proc.kill('SIGTERM');
      }),
  };
}

async function seed(base, link) {
  const call = async (method, path, body, key) => {
    const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: JSON.stringify(body) });
    const j = await r.json();
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(j)}`);
    return j;
  };
  const ws = await call('POST', '/workspaces/standalone', { name: 'Network bench hall', ownerName: 'Bench', email: `net.${Date.now()}@example.com`, webhookUrl: `http://${link.serverIp}:${BARE_PORT}/hook` });
  const exam = await call('POST', '/exams', { workspaceId: ws.id, title: 'Mathematics (network benchmark)', durationMins: 180, maxTabViolations: 100, shuffleQuestions: true, shuffleChoices: true }, ws.apiKey);
  const bulk = await call('POST', '/questions/bulk', { workspaceId: ws.id, examId: exam.id, questions: mathsPaper(60) }, ws.apiKey);
  return { workspaceId: ws.id, examId: exam.id, accessCode: exam.accessCode, questions: bulk.questions.map((q) => ({ id: q.id, optionIds: q.options.map((o) => o.id) })) };
}

/** Runs `fn` for every candidate at once; resolves with each one's ms (or throws the first error). */
async function all(cands, fn) {
  const t0 = performance.now();
  const ends = await Promise.all(cands.map(async (c, i) => {
    await fn(c, i);
    return performance.now() - t0;
  }));
  return { ends, makespan: Math.max(...ends) };
}

async function hallRun(link, n, bareBase, logPath) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-netbench-'));
  let server = await startServer(link, dataDir, logPath);
  try {
    const s = await seed(server.base, link);
    await server.stop();
    prepareDatabase(dataDir, { ...s, credits: n + 10, attempts: 0, studentPrefix: 'N' });
    server = await startServer(link, dataDir, logPath);
    // each phase's end on the console, with what the server's TCP stack counted in it
    const snap = () => ({ t: performance.now(), tcp: link.tcpStats(), drops: link.qdiscStats().drops });
    let mark = snap();
    const phase = (name) => {
      const now = snap();
      const moved = Object.entries(now.tcp).filter(([k, v]) => v !== mark.tcp[k]).map(([k, v]) => `${k.replace(/^\w+:/, '')} +${v - mark.tcp[k]}`);
      log(`    ${name}: ${r1((now.t - mark.t) / 1000)} s; access point dropped ${now.drops - mark.drops} packets${moved.length ? `; server TCP: ${moved.join(', ')}` : ''}`);
      mark = now;
    };
    const cands = Array.from({ length: n }, (_, i) => new Candidate(server.base, `NET${String(i + 1).padStart(5, '0')}`, { maths: MATHS, katexCss: MATHS === 'html' ? katexStylesheet() : undefined }));
    const wire0 = link.counters();
    const b0 = cands.map((c) => c.bytes());
    // page + start, as one flow per candidate: when has the last one its paper?
    const pageEnds = [];
    const startBytesOf = [];
    const flow = await all(cands, async (c, i) => {
      const t = performance.now();
      await c.loadPage();
      pageEnds[i] = { ms: performance.now() - t, bytes: c.bytes() };
      await c.start(s.accessCode);
      startBytesOf[i] = c.bytes() - pageEnds[i].bytes;
      // KaTeX's stylesheet and fonts follow a paper in KaTeX HTML (counted with the page); MathML needs none
      await c.loadMaths();
    });
    const wire1 = link.counters();
    phase('page + start + fonts');
    const startBytes = startBytesOf.reduce((a, x) => a + x, 0) / n;
    const pageBytes = cands.reduce((a, c, i) => a + c.bytes() - b0[i], 0) / n - startBytes;
    // the baseline's flow: a bare static file of the same size, same link, same crowd
    const bare = Array.from({ length: n }, (_, i) => new Candidate(bareBase, `B${i}`));
    const paperSize = Math.round(pageBytes + startBytes);
    const bareFlow = await all(bare, (c) => c.blob(bareBase, paperSize));
    phase('bare file (page + start)');

    // saves: every candidate every 2 s at its own phase, for SAVE_S seconds, and 1 s after
    // each save the bare file of a save response's size from the bare server: both under
    // the same load at the same time (the link carries both; one client process serves
    // both). Round 0 warms both connections alike (either may have been closed while idle
    // during the other flow; a browser's first save would reconnect too) and is reported
    // apart (saveRounds[0]), not in the p99.
    const rounds = SAVE_S / 2 + 1;
    const saveLat = [];
    const bareSaveLat = [];
    const saveRounds = Array.from({ length: rounds }, () => []);
    const bareRounds = Array.from({ length: rounds }, () => []);
    const saveSize = 300; // about a save response's bytes (status line, headers, body)
    // the save channels, as the page opens one after start (its handshake: once per candidate)
    let handshakeBytes = 0;
    if (SAVES === 'channel') {
      const hs = await Promise.all(cands.map((c) => c.openChannel()));
      handshakeBytes = hs.reduce((a, x) => a + x, 0) / n;
      phase('save channels opened');
    }
    const b1 = cands.map((c) => c.bytes());
    const bb1 = bare.map((c) => c.bytes());
    const w1 = link.counters();
    const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
    // --dump: every save and bare save [epoch ms at its start, ms, candidate, round (, the channel's port)], and the
    // bench process's own stalls (a 2 ms timer over 3 ms late), to set against the server's trace
    const dump = { saves: [], bare: [], stalls: [] };
    let expected = performance.now() + 2;
    const stallTimer = DUMP ? setInterval(() => {
      const now = performance.now();
      if (now - expected > 3) dump.stalls.push([epoch(expected), r3(now - expected)]);
      expected = now + 2;
    }, 2) : null;
    await Promise.all(cands.map(async (c, i) => {
      await sleep(Math.random() * 2000);
      for (let k = 0; k < rounds; k++) {
        const t = performance.now();
        await c.save(k);
        const ms = performance.now() - t;
        if (DUMP) dump.saves.push([epoch(t), r3(ms), i, k, c.ws?._socket?.localPort ?? 0]);
        saveRounds[k].push(ms);
        if (k > 0) saveLat.push(ms);
        await sleep(1000 - (performance.now() - t));
        const tb = performance.now();
        await bare[i].blob(bareBase, saveSize);
        const bms = performance.now() - tb;
        if (DUMP) dump.bare.push([epoch(tb), r3(bms), i, k]);
        bareRounds[k].push(bms);
        if (k > 0) bareSaveLat.push(bms);
        await sleep(2000 - (performance.now() - t));
      }
    }));
    if (stallTimer) {
      clearInterval(stallTimer);
      writeFileSync(`${DUMP}.client-${link.mbit}mbit-${n}.json`, JSON.stringify(dump));
    }
    const saveBytes = cands.reduce((a, c, i) => a + c.bytes() - b1[i], 0) / (n * rounds);
    const bareSaveBytes = bare.reduce((a, c, i) => a + c.bytes() - bb1[i], 0) / (n * rounds);
    const w2 = link.counters();
    // the saves' share of the wire in this phase (the bare saves share it), by payload
    const savesWire = ((w2.rx + w2.tx - w1.rx - w1.tx) * saveBytes) / (saveBytes + bareSaveBytes);
    phase('saves (and the bare file saves)');
    const b2 = cands.map((c) => c.bytes());
    const w3 = link.counters();
    const submit = await all(cands, (c) => c.submit());
    const submitBytes = cands.reduce((a, c, i) => a + c.bytes() - b2[i], 0) / n;
    const wire2 = link.counters();
    phase('submit');
    for (const c of cands) c.close();
    for (const c of bare) c.close();

    const flowWire = wire1.rx + wire1.tx - wire0.rx - wire0.tx;
    const floorS = (flowWire * 8) / (link.mbit * 1e6);
    return {
      mbit: link.mbit,
      candidates: n,
      pageBytes,
      startBytes,
      saveBytes,
      saves: SAVES,
      handshakeBytes,
      submitBytes,
      wirePerCandidate: (wire1.rx + wire1.tx - wire0.rx - wire0.tx + savesWire + wire2.rx + wire2.tx - w3.rx - w3.tx) / n,
      bareSaveBytes,
      flowWirePerCandidate: flowWire / n,
      paperP50: pct(flow.ends, 50) / 1000,
      paperP99: pct(flow.ends, 99) / 1000,
      lastPaperS: flow.makespan / 1000,
      pageP99: pct(pageEnds.map((p) => p.ms), 99) / 1000,
      floorS,
      bareLastS: bareFlow.makespan / 1000,
      saveP50: pct(saveLat, 50),
      saveP99: pct(saveLat, 99),
      bareSaveP99: pct(bareSaveLat, 99),
      submitLastS: submit.makespan / 1000,
      // each round of saves (every candidate's k-th save): p50 / p99 / max, ms
      saveRounds: saveRounds.map((xs) => [pct(xs, 50), pct(xs, 99), Math.max(...xs)].map(r1)),
      bareSaveRounds: bareRounds.map((xs) => [pct(xs, 50), pct(xs, 99), Math.max(...xs)].map(r1)),
      retries: cands.reduce((a, c) => a + c.retries, 0),
      bareRetries: bare.reduce((a, c) => a + c.retries, 0),
    };
  } catch (e) {
    // what the server's TCP stack counted up to the failure (a listen-queue overflow? resets?)
    const tcp = link.tcpStats();
    log(`    failed; the server namespace's TCP counters over the whole run: ${Object.entries(tcp).map(([k, v]) => `${k.replace(/^\w+:/, '')} ${v}`).join(', ')}`);
    throw e;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The hashed KaTeX stylesheet the candidate page's script links for a paper in KaTeX HTML (public/candidate/app.<hash>.js). */
function katexStylesheet() {
  const dir = join(ROOT, 'public', 'candidate');
  const script = readdirSync(dir).find((f) => /^app\.[0-9a-f]{10}\.js$/.test(f));
  const path = script && /\/vendor\/katex\/katex\.[0-9a-f]{10}\.css/.exec(readFileSync(join(dir, script), 'utf8'))?.[0];
  if (!path) throw new Error('public/candidate has no built script naming KaTeX’s stylesheet: run npm run build');
  return path;
}

function report(runs, netem) {
  const cmd = `npm run bench:network -- ${process.argv.slice(2).join(' ')}`.trim();
  const rows = runs.map((r) => `| ${r.mbit} Mbit/s | ${r.candidates} | ${kb(r.pageBytes)} | ${kb(r.startBytes)} | ${Math.round(r.saveBytes)} B${r.saves === 'channel' ? ` (channel; handshake ${Math.round(r.handshakeBytes)} B once)` : ' (PUT)'} | ${kb(r.submitBytes)} | ${kb(r.wirePerCandidate)} | ${r1(r.floorS)} s | ${r1(r.lastPaperS)} s (${r1(r.lastPaperS / r.floorS)}×) | ${r1(r.paperP50)} / ${r1(r.paperP99)} s | ${r1(r.bareLastS)} s | ${r1(r.saveP99)} ms | ${r1(r.bareSaveP99)} ms (${r1(r.saveP99 / r.bareSaveP99)}×) |`);
  return [
    '# Network benchmark (issue #26)',
    '',
    `Command: \`${cmd}\` on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}.`,
    'The server runs in its own network namespace behind a router namespace (the hall’s access point) whose two veth interfaces are shaped with `tc` tbf at the given rate in each direction (a burst of 10 ms, a queue of up to 200 ms); the simulated candidate PCs share the other end, all arriving at once with empty caches (page, its scripts and styles, then start), then saving every 2 s, then submitting.',
    MATHS === 'mathml' ? 'The candidates behave like a current Chromium: the paper’s maths as MathML (`?math=mathml`), no KaTeX stylesheet or font (`--maths=html` for a browser without MathML).' : 'The candidates behave like a browser without MathML (`--maths=html`): the paper’s maths as KaTeX HTML, then KaTeX’s stylesheet and the KaTeX fonts the paper’s characters need (counted with the page).',
    SAVES === 'channel' ? 'Saves go over the save channel, one WebSocket per candidate (`GET /attempts/{id}/channel`), as the candidate page sends them; the channels open once every candidate has the paper, and "one save" is the request and reply frames of one save on that socket (its handshake, once per candidate, given beside it). `--saves=http` measures saves as PUTs.' : 'Saves are PUTs (`--saves=http`: the candidate page’s fallback when its save channel is not open).',
    netem ? 'netem is available on this kernel, but this run adds no delay or loss.' : '**No delay or loss is modelled:** this kernel has no `netem` qdisc, so only the link rate is shaped (a real hall Wi-Fi adds latency and retries on top).',
    'Bytes per phase are TCP payload (HTTP headers and bodies) on the candidates’ sockets; "on the wire" is the clients’ veth counters over the hall’s phases, with TCP/IP headers and ACKs (the saves phase, shared with the bare file’s saves, split between the two by payload). The physical floor is the page-and-start traffic on the wire ÷ the link rate. The baseline is a bare node:http server in the same namespace sending a static file of the same size (page + start payload; one save response) to the same crowd, in the same phases (the crowd arriving at once; saves every 2 s once every candidate has the paper).',
    '',
    '| link | candidates | page | start (paper) | one save | submit | on the wire, whole run | floor (page + start) | last candidate has the paper | paper p50 / p99 | bare file, last | save p99 | bare save p99 |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function main() {
  const why = linkAvailability();
  if (why) {
    log(why);
    return;
  }
  log(`HallCBT network benchmark: halls ${HALLS.join(', ')} at ${RATES.join(', ')} Mbit/s; ${SAVE_S} s of saves`);
  buildServer();
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-web.mjs')], { cwd: ROOT, stdio: 'ignore' });
  const netem = hasNetem();
  const link = createShapedLink(RATES[0]);
  // the servers' output, kept (and its tail printed) when a run fails
  const logDir = mkdtempSync(join(tmpdir(), 'hallcbt-netbench-logs-'));
  const bareLog = join(logDir, 'bare.log');
  const bareFd = openSync(bareLog, 'a');
  const bareProc = spawn('ip', ['netns', 'exec', link.ns, process.execPath, join(ROOT, 'scripts/bench/network/bare.mjs'), link.serverIp, String(BARE_PORT)], { stdio: ['ignore', bareFd, bareFd] });
  closeSync(bareFd);
  const runs = [];
  let serverLog = null;
  let failed = true;
  try {
    await waitHttp(`http://${link.serverIp}:${BARE_PORT}/blob/1`);
    for (const mbit of RATES) {
      link.reshape(mbit);
      for (const n of HALLS) {
        log(`  ${mbit} Mbit/s, ${n} candidates…`);
        serverLog = join(logDir, `server-${mbit}mbit-${n}.log`);
        const r = await hallRun(link, n, `http://${link.serverIp}:${BARE_PORT}`, serverLog);
        log(`    page ${kb(r.pageBytes)}, paper ${kb(r.startBytes)}, save ${Math.round(r.saveBytes)} B (${r.saves}); last paper ${r1(r.lastPaperS)} s (floor ${r1(r.floorS)} s); save p99 ${r1(r.saveP99)} ms (bare ${r1(r.bareSaveP99)} ms); ${r.retries} + ${r.bareRetries} (bare) request(s) resent after their reused connection failed`);
        runs.push(r);
      }
    }
    failed = false;
  } finally {
    bareProc.kill('SIGTERM');
    link.close();
    if (failed) {
      for (const [name, path] of [['server', serverLog], ['bare file server', bareLog]]) {
        if (!path) continue;
        console.error(`--- the ${name}'s output (${path}), last lines:\n${tailOf(path)}\n---`);
      }
      console.error(`the servers' logs are kept in ${logDir}`);
    } else if (KEEP_LOGS) {
      console.log(`the servers' logs are kept in ${logDir}`);
    } else {
      rmSync(logDir, { recursive: true, force: true });
    }
  }
  const md = report(runs, netem);
  writeFileSync(OUT, md);
  writeFileSync(OUT.replace(/\.md$/, '.json'), JSON.stringify(runs, null, 1));
  log(md);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
