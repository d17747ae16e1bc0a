/**
 * Benchmark probe, preloaded into the REAL server process by the harness
 * (`node --import ./scripts/bench/probe.mjs dist/src/main.js`, as `npm start` runs it). It changes no
 * behaviour; it only observes, and answers the orchestrator over the IPC channel:
 *
 * - event-loop delay: `perf_hooks.monitorEventLoopDelay` at 5 ms resolution, reported as
 *   the delay beyond that interval (issue 8: "the flush never blocks the event loop for
 *   more than 20 ms");
 * - every answer flush: AnswerBuffer.prototype.flush is wrapped to record the resolved
 *   FlushStats `{rows, batches, maxBatchMs, totalMs, loopMs, activityRows, writer}` (every
 *   flush, where /health shows only the last): `loopMs` is the time the flush held the
 *   event loop, `maxBatchMs` the longest transaction on the writer's thread;
 * - garbage-collection pauses (PerformanceObserver 'gc');
 * - the longest stall of a 5 ms timer and when in the window it happened;
 * - memory: the largest V8 heap (total and used), external memory and RSS seen in the
 *   window (sampled every 250 ms), to tell JavaScript objects from SQLite caches, threads
 *   and sockets in the RSS.
 *
 * - a timeline (loopback-tail.mjs): every GC pause and every flush of the window with its
 *   start on the epoch clock (`performance.timeOrigin + startTime`, comparable across
 *   processes on one machine), to tell which slow requests overlapped which event.
 *
 * Messages: `{cmd: 'reset'}` starts a new window; `{cmd: 'read', id}` replies
 * `{id, probe: {...}}` with the window's figures (milliseconds); `{cmd: 'timeline', id}`
 * replies `{id, probe: {gc: [{at, ms, kind}], flush: [{at, loopMs, totalMs, rows, maxBatchMs}]}}`
 * (at = epoch ms, at most 20,000 of each per window).
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const SRC = new URL('../../dist/src/', import.meta.url);
const { AnswerBuffer } = await import(new URL('modules/answers/index.js', SRC).href);

// the histogram records the interval between samples, so the delay is the value minus RESOLUTION_MS
const RESOLUTION_MS = 5;
const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
loop.enable();
let flushes = [];
let gc = { count: 0, totalMs: 0, maxMs: 0 };
let timeline = { gc: [], flush: [] };
const TIMELINE_MAX = 20_000;
const epoch = (t) => Math.round((performance.timeOrigin + t) * 100) / 100;
let windowStart = performance.now();
const MB = 1024 * 1024;
const emptyMemory = () => ({ rssMB: 0, heapTotalMB: 0, heapUsedMB: 0, externalMB: 0 });
let memory = emptyMemory();
const sampleMemory = () => {
  const m = process.memoryUsage();
  memory.rssMB = Math.max(memory.rssMB, m.rss / MB);
  memory.heapTotalMB = Math.max(memory.heapTotalMB, m.heapTotal / MB);
  memory.heapUsedMB = Math.max(memory.heapUsedMB, m.heapUsed / MB);
  memory.externalMB = Math.max(memory.externalMB, m.external / MB);
};
setInterval(sampleMemory, 250).unref();
// when in the window the longest stall happened (a 5 ms timer's lateness), to tell a
// phase's own work from the aftermath of what ran before it
let stall = { ms: 0, atMs: 0 };
let expected = performance.now() + RESOLUTION_MS;
setInterval(() => {
  const now = performance.now();
  const late = now - expected;
  if (late > stall.ms) stall = { ms: late, atMs: now - windowStart };
  expected = now + RESOLUTION_MS;
}, RESOLUTION_MS).unref();

const origFlush = AnswerBuffer.prototype.flush;
AnswerBuffer.prototype.flush = function flushProbed(...args) {
  const began = performance.now();
  const p = origFlush.apply(this, args);
  p.then((s) => {
    if (s.rows + s.activityRows > 0 && timeline.flush.length < TIMELINE_MAX) timeline.flush.push({ at: epoch(began), loopMs: s.loopMs, totalMs: s.totalMs, rows: s.rows, maxBatchMs: s.maxBatchMs });
    if (s.rows + s.activityRows > 0 && flushes.length < 100_000) flushes.push({ rows: s.rows, batches: s.batches, maxBatchMs: s.maxBatchMs, totalMs: s.totalMs, loopMs: s.loopMs, activityRows: s.activityRows, writer: s.writer });
  }).catch(() => {});
  return p;
};

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.count++;
    if (timeline.gc.length < TIMELINE_MAX) timeline.gc.push({ at: epoch(e.startTime), ms: Math.round(e.duration * 100) / 100, kind: e.detail?.kind ?? e.kind });
    gc.totalMs += e.duration;
    if (e.duration > gc.maxMs) gc.maxMs = e.duration;
  }
}).observe({ entryTypes: ['gc'] });

const ns = (v) => Math.max(0, Math.round((v / 1e6 - RESOLUTION_MS) * 100) / 100); // ns → ms of delay beyond the interval
const r2 = (v) => Math.round(v * 100) / 100;

function snapshot() {
  const rows = flushes.map((f) => f.rows).sort((a, b) => a - b);
  const pick = (arr, p) => (arr.length ? arr[Math.min(arr.length - 1, Math.ceil((p / 100) * arr.length) - 1)] : 0);
  const maxOf = (arr, k) => arr.reduce((m, x) => Math.max(m, x[k]), 0);
  return {
    windowMs: Math.round(performance.now() - windowStart),
    eventLoopDelayMs: { p50: ns(loop.percentile(50)), p99: ns(loop.percentile(99)), max: ns(loop.max), mean: ns(loop.mean) },
    flush: {
      count: flushes.length,
      rows: flushes.reduce((s, f) => s + f.rows, 0),
      rowsP50: pick(rows, 50),
      rowsMax: pick(rows, 100),
      batchesMax: maxOf(flushes, 'batches'),
      maxBatchMs: r2(maxOf(flushes, 'maxBatchMs')),
      maxTotalMs: r2(maxOf(flushes, 'totalMs')),
      meanBatchMs: r2(flushes.length ? flushes.reduce((s, f) => s + f.maxBatchMs, 0) / flushes.length : 0),
      maxLoopMs: r2(maxOf(flushes, 'loopMs')),
      meanLoopMs: r2(flushes.length ? flushes.reduce((s, f) => s + f.loopMs, 0) / flushes.length : 0),
      activityRowsMax: maxOf(flushes, 'activityRows'),
      writer: flushes[0]?.writer ?? '',
    },
    gc: { count: gc.count, totalMs: r2(gc.totalMs), maxMs: r2(gc.maxMs) },
    longestStall: { ms: r2(stall.ms), atMs: Math.round(stall.atMs) },
    memoryMaxMB: Object.fromEntries(Object.entries((sampleMemory(), memory)).map(([k, v]) => [k, Math.round(v)])),
  };
}

if (process.send) {
  process.on('message', (m) => {
    if (m?.cmd === 'reset') {
      loop.reset();
      flushes = [];
      gc = { count: 0, totalMs: 0, maxMs: 0 };
      timeline = { gc: [], flush: [] };
      memory = emptyMemory();
      stall = { ms: 0, atMs: 0 };
      windowStart = performance.now();
      process.send({ id: m.id, ok: true });
    } else if (m?.cmd === 'timeline') {
      process.send({ id: m.id, probe: timeline });
    } else if (m?.cmd === 'read') {
      process.send({ id: m.id, probe: snapshot() });
    }
  });
  process.channel?.unref();
}
