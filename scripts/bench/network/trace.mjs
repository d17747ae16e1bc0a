/**
 * Diagnostic preload for the network bench's server (issue 26, the save tail at 54 Mbit/s):
 * `BENCH_SERVER_NODE_ARGS="--import ./scripts/bench/network/trace.mjs" BENCH_TRACE=/tmp/x`
 * with `node scripts/bench/network/run.mjs --dump=/tmp/x …`. It changes no behaviour; on exit
 * it writes `<BENCH_TRACE>.server-<pid>.json` with, on the epoch clock
 * (`performance.timeOrigin + now`, comparable with the bench's own stamps on this machine):
 * - `frames`: each save-channel frame, from the `message` event to its reply's `send`
 *   ([at, ms, the candidate's port, ms on a CPU, ms waiting for a CPU]; the frame's time on
 *   the server's main thread and in its per-channel queue; the last two from the main
 *   thread's /proc/thread-self/schedstat);
 * - `pushes`: each durableSeq push (`{"d":…}` frames), [at, ms of its send];
 * - `gc`: each garbage-collection pause [at, ms, kind] (PerformanceObserver 'gc');
 * - `flush`: each answer flush [at, totalMs, loopMs, rows] (AnswerBuffer.prototype.flush);
 * - `stalls`: each time a 2 ms timer ran over 3 ms late [at, ms late].
 * Not for figures: it adds a timer and a wrapper per frame to the server it observes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { createRequire } from 'node:module';

const OUT = process.env.BENCH_TRACE;
const SRC = new URL('../../../dist/src/', import.meta.url);
const { AnswerBuffer } = await import(new URL('modules/answers/index.js', SRC).href);
// the server's own copy of ws (the same file its save channel loads)
const require = createRequire(new URL('modules/candidate/save-channel.js', SRC));
const WebSocket = require('ws').WebSocket;

const epoch = (t) => Math.round((performance.timeOrigin + t) * 1000) / 1000;
const r3 = (x) => Math.round(x * 1000) / 1000;
const t = { frames: [], pushes: [], gc: [], flush: [], stalls: [] };
const MAX = 400_000;

// the main thread's scheduler counters (ns on a CPU, ns runnable but waiting for one): a
// frame's wall time that is neither is time the (virtual) CPU was taken from the whole
// machine (steal) or spent in the kernel's interrupts
const sched = () => {
  try {
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return [run, wait];
  } catch {
    return [0, 0];
  }
};
const emit = WebSocket.prototype.emit;
WebSocket.prototype.emit = function traced(ev, ...a) {
  if (ev === 'message') (this.__traceQ ??= []).push([performance.now(), ...sched()]);
  return emit.call(this, ev, ...a);
};
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function tracedSend(data, ...a) {
  const t0 = performance.now();
  const r = send.call(this, data, ...a);
  const t1 = performance.now();
  if (typeof data === 'string' && t.frames.length < MAX) {
    if (data.startsWith('{"d":')) t.pushes.push([epoch(t0), r3(t1 - t0)]);
    else {
      const m = this.__traceQ?.shift();
      if (m !== undefined) {
        const [run, wait] = sched();
        t.frames.push([epoch(m[0]), r3(t1 - m[0]), this._socket?.remotePort ?? 0, r3((run - m[1]) / 1e6), r3((wait - m[2]) / 1e6)]);
      }
    }
  }
  return r;
};

const flush = AnswerBuffer.prototype.flush;
AnswerBuffer.prototype.flush = function tracedFlush(...a) {
  const began = performance.now();
  const p = flush.apply(this, a);
  p.then((s) => {
    if (s.rows + s.activityRows > 0) t.flush.push([epoch(began), r3(s.totalMs), r3(s.loopMs), s.rows]);
  }).catch(() => {});
  return p;
};

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) t.gc.push([epoch(e.startTime), r3(e.duration), e.detail?.kind ?? e.kind]);
}).observe({ entryTypes: ['gc'] });

let expected = performance.now() + 2;
setInterval(() => {
  const now = performance.now();
  if (now - expected > 3) t.stalls.push([epoch(expected), r3(now - expected)]);
  expected = now + 2;
}, 2).unref();

process.on('exit', () => {
  if (OUT) writeFileSync(`${OUT}.server-${process.pid}.json`, JSON.stringify(t));
});
