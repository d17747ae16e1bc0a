#!/usr/bin/env node
/**
 * What V8's young-generation collections cost a bare `ws` echo server holding many
 * sockets, and what the work a save adds to them (docs/benchmarks.md, "What the
 * collections cost at 10,000 channels"). No hall: a server process (this file with
 * `--serve`, under `--trace-gc-nvp`) echoes every text frame, after allocating
 * `--garbage-kb` KB of short-lived objects and keeping `--retain` small objects until the
 * next 500 ms "flush" (as the answer buffer keeps a save until its commit); this process
 * opens `--sockets` sockets to it on loopback and sends `--rate` frames/s round the
 * sockets for `--seconds` s, open loop (after 2 s unmeasured).
 *
 *   node scripts/bench/echo-gc.mjs --sockets=10000 --garbage-kb=8 --retain=16
 *
 * Prints one line: the frames' round trip p50 / p99 / max (ms) and the server's
 * collections over the measured window (scripts/bench/gc-nvp.mjs).
 * Options: --sockets=10000 --rate=2500 --seconds=12 --garbage-kb=0 --retain=0
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { parseNvp, summarise } from './gc-nvp.mjs';
import { freePort } from './server.mjs';
import { listenEcho } from './ws-echo.mjs';

/** The server side: echoes frames (ws-echo.mjs), with the garbage and the retained objects asked for. */
function serve(port, garbageKb, retain) {
  let sink = null;
  let held = [];
  setInterval(() => (held = []), 500);
  const work = () => {
    // ~128 bytes an object: 8 per KB, dead at once
    for (let i = 0; i < garbageKb * 8; i++) sink = { a: i, b: sink === null ? 0 : 1, c: 'x', d: null, e: [i] };
    for (let i = 0; i < retain; i++) held.push({ a: i, b: 2, c: 'y', d: null, e: null, f: null, g: 0 });
  };
  // the parent asks for the server's clock (ms since it started: the nvp lines' clock)
  process.on('message', () => process.send({ now: performance.now() }));
  listenEcho(port, work, () => process.send({ listening: port }));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const o = { sockets: 10_000, rate: 2500, seconds: 12, 'garbage-kb': 0, retain: 0 };
  for (const a of process.argv.slice(2)) {
    const [k, v] = a.replace(/^--/, '').split('=');
    if (!(k in o) || !(Number(v) >= 0)) throw new Error(`unknown option ${a}; see scripts/bench/echo-gc.mjs`);
    o[k] = Number(v);
  }
  const port = await freePort();
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(port), String(o['garbage-kb']), String(o.retain)], { execArgv: ['--trace-gc-nvp'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  const ask = () => new Promise((r) => child.once('message', r));
  await ask(); // listening
  const socks = [];
  /** round trips of the measured frames (ms) */
  const times = [];
  let open = 0;
  for (let i = 0; i < o.sockets; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
    const sent = [];
    ws.on('open', () => open++);
    ws.on('error', () => undefined);
    ws.on('message', () => {
      const t = sent.shift();
      if (t !== undefined && t.measured) times.push(performance.now() - t.at);
    });
    socks.push({ ws, sent });
    if (i % 500 === 499) await sleep(20);
  }
  for (const deadline = Date.now() + 60_000; open < o.sockets; await sleep(50)) if (Date.now() > deadline) throw new Error(`only ${open} of ${o.sockets} sockets opened`);
  const frame = JSON.stringify({ i: 1, q: 'q'.repeat(26), o: 'o'.repeat(26), s: 12 });
  const t0 = performance.now();
  let k = 0;
  let measuredSent = 0;
  let from = null;
  await new Promise((resolve) => {
    const iv = setInterval(() => {
      const elapsed = performance.now() - t0;
      const measured = elapsed >= 2000;
      if (measured && from === null) from = (child.send('now'), ask());
      for (const due = Math.floor((elapsed / 1000) * o.rate); k < due; k++) {
        const s = socks[k % socks.length];
        s.sent.push({ at: performance.now(), measured });
        s.ws.send(frame);
        if (measured) measuredSent++;
      }
      if (elapsed >= 2000 + o.seconds * 1000) {
        clearInterval(iv);
        resolve();
      }
    }, 1);
  });
  child.send('now');
  const to = (await ask()).now;
  const start = (await from).now;
  // every reply back (a busy machine may hold some for a while), at most 10 s; then the log's last lines
  for (const deadline = Date.now() + 10_000; times.length < measuredSent && Date.now() < deadline; ) await sleep(50);
  await sleep(500);
  child.kill();
  for (const s of socks) s.ws.terminate();
  times.sort((a, b) => a - b);
  const q = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * p))] * 100) / 100;
  const rows = parseNvp(log);
  const gc = summarise(rows, start, to);
  console.log(
    `${o.sockets} sockets, ${o.rate} frames/s, garbage ${o['garbage-kb']} KB + ${o.retain} kept objects a frame: ` +
      `round trip p50 ${q(0.5)} p99 ${q(0.99)} max ${q(1)} ms (n ${times.length} of ${measuredSent}); ` +
      `${gc.scavengesPerS} scavenges/s, pause p50 ${gc.scavengePause.p50} max ${gc.scavengePause.max} ms, copied ${gc.copiedMBps} MB/s, allocated ${gc.allocMBps} MB/s, paused ${gc.pausedShare} % of the time`,
  );
  process.exit(0);
}

if (process.argv[2] === '--serve') serve(Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5]));
else if (process.argv[1] === fileURLToPath(import.meta.url)) main().catch((e) => (console.error(e), process.exit(2)));
