#!/usr/bin/env node
/**
 * Reads one cell's `--dump` of the network bench and the server's trace (trace.mjs) and says
 * where the slow saves' time went: `node scripts/bench/network/trace-report.mjs PREFIX 54 1000`.
 * Each save is matched to its frame on the server (by the channel's port and order), so its
 * time splits into the server's part (message event → reply sent) and the rest (link,
 * kernels, the bench process). The slow saves (over the bare file's p99 × 2, and the
 * slowest 1 %) are set against what overlapped them: a GC pause, a flush (from its start
 * to its commit and marking clean), a burst of durableSeq pushes, a stall of the server's
 * or the bench's event loop. The slowest 1 % of the bare file's saves get the same
 * overlaps, as a control (the bare server is another process: only the link and the bench
 * process are shared).
 * When the bare file server was traced too (BENCH_TRACE, bare.mjs) and the frames carry the
 * main thread's scheduler counters (trace.mjs), it also sets the two servers' own time per
 * request side by side: wall, on a CPU, waiting for a CPU (the bare file's saves, 300 B,
 * against the frames, in the saves' phase), and counts the bare server's stalls.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const [prefix, mbit, n] = process.argv.slice(2);
const client = JSON.parse(readFileSync(`${prefix}.client-${mbit}mbit-${n}.json`, 'utf8'));
// the server of the measured phase: the trace with frames whose times cover the saves
const dir = dirname(prefix);
const traces = readdirSync(dir)
  .filter((f) => f.startsWith(`${basename(prefix)}.server-`))
  .map((f) => {
    try {
      return JSON.parse(readFileSync(join(dir, f), 'utf8'));
    } catch {
      return { frames: [] }; // a server that exited while another wrote (the seeding server's)
    }
  })
  .filter((t) => t.frames.length);
const t0 = client.saves[0][0];
const server = traces.find((t) => t.frames.some((f) => Math.abs(f[0] - t0) < 5000));
if (!server) throw new Error('no server trace with frames at the saves’ times');
// the bare file server's trace (one for the whole bench run), when it was traced
const bareTraceFile = readdirSync(dir).find((f) => f.startsWith(`${basename(prefix)}.bare-`));
const bareTrace = bareTraceFile ? JSON.parse(readFileSync(join(dir, bareTraceFile), 'utf8')) : null;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : 0;
};
const r2 = (x) => Math.round(x * 100) / 100;
const measured = (xs) => xs.filter((x) => x[3] > 0); // round 0 warms up (run.mjs)

// frames by port, in order; saves by port, in order (round 0 included in both)
const byPort = new Map();
for (const f of server.frames) (byPort.get(f[2]) ?? byPort.set(f[2], []).get(f[2])).push(f);
const seen = new Map();
const saves = client.saves.map((s) => {
  const k = seen.get(s[4]) ?? 0;
  seen.set(s[4], k + 1);
  const f = byPort.get(s[4])?.[k];
  return { at: s[0], ms: s[1], round: s[3], serverMs: f ? f[1] : NaN, arriveLag: f ? f[0] - s[0] : NaN };
}).filter((s) => s.round > 0);
const bare = measured(client.bare).map((b) => ({ at: b[0], ms: b[1] }));

// pushes: bursts (gaps under 2 ms)
const bursts = [];
for (const [at, ms] of server.pushes) {
  const b = bursts.at(-1);
  if (b && at - b.end < 2) {
    b.end = at + ms;
    b.count++;
  } else bursts.push({ at, end: at + ms, count: 1 });
}
const intervals = {
  gc: server.gc.map(([at, ms, kind]) => ({ at, end: at + ms, kind })),
  flush: server.flush.map(([at, totalMs]) => ({ at, end: at + totalMs })),
  pushes: bursts,
  serverStall: server.stalls.map(([at, ms]) => ({ at, end: at + ms })),
  clientStall: client.stalls.map(([at, ms]) => ({ at, end: at + ms })),
  ...(bareTrace ? { bareStall: bareTrace.stalls.map(([at, ms]) => ({ at, end: at + ms })) } : {}),
};
const overlaps = (r, list) => list.some((e) => e.at < r.at + r.ms && e.end > r.at);

const slowReport = (name, rs, limit) => {
  const slow = rs.filter((r) => r.ms > limit);
  const out = { name, count: slow.length, limitMs: r2(limit) };
  for (const [k, list] of Object.entries(intervals)) out[k] = slow.filter((r) => overlaps(r, list)).length;
  out.none = slow.filter((r) => !Object.values(intervals).some((l) => overlaps(r, l))).length;
  // all three processes stalled over it: the machine's pause, not one process's (the bare
  // server is in no save's path)
  if (intervals.bareStall) out.allThreeStalled = slow.filter((r) => overlaps(r, intervals.serverStall) && overlaps(r, intervals.clientStall) && overlaps(r, intervals.bareStall)).length;
  if (slow[0]?.serverMs !== undefined) {
    out.serverOver1ms = slow.filter((r) => r.serverMs > 1).length;
    out.serverMsP50 = r2(pct(slow.map((r) => r.serverMs), 50));
    out.restMsP50 = r2(pct(slow.map((r) => r.ms - r.serverMs), 50));
  }
  return out;
};

const saveP99 = pct(saves.map((s) => s.ms), 99);
const bareP99 = pct(bare.map((b) => b.ms), 99);
const summary = {
  saves: saves.length,
  saveP50: r2(pct(saves.map((s) => s.ms), 50)),
  saveP99: r2(saveP99),
  bareP50: r2(pct(bare.map((b) => b.ms), 50)),
  bareP99: r2(bareP99),
  ratio: r2(saveP99 / bareP99),
  serverFrameMs: { p50: r2(pct(saves.map((s) => s.serverMs), 50)), p99: r2(pct(saves.map((s) => s.serverMs), 99)), max: r2(Math.max(...saves.map((s) => s.serverMs))) },
  gc: { count: server.gc.length, over1ms: server.gc.filter((g) => g[1] > 1).length, maxMs: r2(Math.max(0, ...server.gc.map((g) => g[1]))) },
  flush: { count: server.flush.length, loopMsMax: r2(Math.max(0, ...server.flush.map((f) => f[2]))), rowsP50: pct(server.flush.map((f) => f[3]), 50) },
  pushBursts: { count: bursts.length, sizeP50: pct(bursts.map((b) => b.count), 50), sizeMax: Math.max(0, ...bursts.map((b) => b.count)), msP50: r2(pct(bursts.map((b) => b.end - b.at), 50)), msMax: r2(Math.max(0, ...bursts.map((b) => b.end - b.at))) },
  serverStalls: { count: server.stalls.length, maxMs: r2(Math.max(0, ...server.stalls.map((s) => s[1]))) },
  clientStalls: { count: client.stalls.length, maxMs: r2(Math.max(0, ...client.stalls.map((s) => s[1]))) },
};
console.log(JSON.stringify(summary, null, 1));
// each server's own time per request in the saves' phase: the frames (message event → reply
// sent) and the bare file's saves (request event → response ended), with the main thread's
// time on a CPU and waiting for one in between (the send includes the kernel's delivery)
if (bareTrace && server.frames[0]?.length >= 5) {
  const from = saves[0].at;
  const to = Math.max(...saves.map((x) => x.at)) + 100;
  const frames = server.frames.filter((f) => f[0] >= from && f[0] <= to).map((f) => [f[1], f[3], f[4]]);
  const bareReq = bareTrace.requests.filter((r) => r[0] >= from && r[0] <= to && r[4] === 300).map((r) => [r[1], r[2], r[3]]);
  const side = (xs) => ({
    n: xs.length,
    ...Object.fromEntries(['wall', 'cpu', 'wait'].map((k, i) => [k, { p50: r2(pct(xs.map((x) => x[i]), 50)), p99: r2(pct(xs.map((x) => x[i]), 99)), max: r2(Math.max(...xs.map((x) => x[i]))) }])),
    waitOver1ms: xs.filter((x) => x[2] > 1).length,
  });
  console.log('each server’s own ms per request (save frames on the hall server; the bare file’s saves on the bare server):');
  console.log(JSON.stringify({ hall: side(frames), bare: side(bareReq) }));
}
console.log(JSON.stringify(slowReport('saves over 2× the bare p99', saves, 2 * bareP99)));
console.log(JSON.stringify(slowReport('slowest 1 % of saves', saves, saveP99)));
console.log(JSON.stringify(slowReport('slowest 1 % of bare saves', bare, bareP99)));
// where in the flush cycle the slow saves start: ms after the latest flush's start
const phaseOf = (r) => {
  let last = null;
  for (const f of intervals.flush) if (f.at <= r.at) last = f;
  return last ? r.at - last.at : NaN;
};
const hist = (rs) => {
  const h = Array(11).fill(0);
  for (const r of rs) {
    const p = phaseOf(r);
    if (Number.isFinite(p)) h[Math.min(10, Math.floor(p / 100))]++;
  }
  return h.join(' ');
};
console.log('start after the latest flush began, per 100 ms (0–100, …, ≥1000):');
console.log('  all saves      ', hist(saves));
console.log('  slow 1 % saves ', hist(saves.filter((s) => s.ms > saveP99)));
console.log('  slow 1 % bare  ', hist(bare.filter((b) => b.ms > bareP99)));
