/**
 * The baseline server of the network benchmark, run inside the server's namespace: a bare
 * node:http server answering `GET /blob/<bytes>` with that many bytes (no compression, no
 * framework), so each phase can be compared with a static file of the same size moved over
 * the same shaped link at the same time.
 *
 * It also receives the hall server's webhooks at `POST /hook` (204), as the exam board's
 * system would: a delivery that failed would be retried in the background during the
 * measured phases, work a hall whose webhook endpoint answers does not do.
 *
 * With BENCH_TRACE=PREFIX (diagnosis, as trace.mjs for the hall server) it writes
 * `<PREFIX>.bare-<pid>.json` on SIGTERM: each blob request [at (epoch ms), ms from the
 * request event to the response's end, ms on a CPU, ms waiting for a CPU, bytes] (the main
 * thread's /proc/thread-self/schedstat), the same counters as trace.mjs's frames, and its
 * event loop's stalls (a 2 ms timer over 3 ms late, as trace.mjs).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [host, port] = [process.argv[2], Number(process.argv[3])];
const cache = new Map();
const TRACE = process.env.BENCH_TRACE;
const requests = [];
const sched = () => {
  try {
    return readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
  } catch {
    return [0, 0];
  }
};
const r3 = (x) => Math.round(x * 1000) / 1000;
// and its event loop's stalls, with the same 2 ms timer as trace.mjs (so both servers are
// observed alike: the timer also wakes each of them every 2 ms)
const stalls = [];
if (TRACE) {
  let expected = performance.now() + 2;
  setInterval(() => {
    const now = performance.now();
    if (now - expected > 3) stalls.push([r3(performance.timeOrigin + expected), r3(now - expected)]);
    expected = now + 2;
  }, 2).unref();
}
const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/hook') {
    // the hall server's webhook deliveries (see the file's comment): read and acknowledged
    req.resume();
    req.on('end', () => res.writeHead(204).end());
    return;
  }
  const m = /^\/blob\/(\d{1,9})$/.exec(req.url ?? '');
  if (!m) {
    res.writeHead(404).end();
    return;
  }
  const n = Number(m[1]);
  let body = cache.get(n);
  if (!body) cache.set(n, (body = Buffer.alloc(n, 0x61)));
  const t0 = TRACE ? [performance.now(), ...sched()] : null;
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': n });
  res.end(body);
  if (t0 && requests.length < 400_000) {
    const t1 = performance.now();
    const [run, wait] = sched();
    requests.push([r3(performance.timeOrigin + t0[0]), r3(t1 - t0[0]), r3((run - t0[1]) / 1e6), r3((wait - t0[2]) / 1e6), n]);
  }
});
server.keepAliveTimeout = 65_000;
// the same listen backlog as the hall server (src/main.ts), so both meet the crowd alike
server.listen({ port, host, backlog: 4096 }, () => process.send?.('ready'));
process.on('SIGTERM', () => {
  if (TRACE) writeFileSync(`${TRACE}.bare-${process.pid}.json`, JSON.stringify({ requests, stalls }));
  server.close(() => process.exit(0));
});
