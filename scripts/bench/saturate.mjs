/**
 * Throughput at saturation, closed-loop (autocannon's programmatic API) in its own
 * process: `connections` keep-alive connections each send the next request as soon as
 * the last one answers, for `seconds`. Closed-loop p99 at saturation measures queueing,
 * so only the request rate is used from here (PERFORMANCE.md "Measuring").
 *
 * Run as a child: the parent sends `{url, connections, seconds, kind: 'baseline'|'save',
 * path, saves: [{attemptId, questionId, optionIds}]}` and receives
 * `{reqPerSec, total, non2xx, errors, timeouts, p50, p99, clientCpuPct}` (errors counts every connection
 * error — a reset, a refusal — and every time-out, autocannon's 10 s without an answer;
 * autocannon's own `resets` is left out: it counts its request list wrapping round).
 * `saturate(opts)` (parent side) forks it and resolves that reply.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

/**
 * How many distinct saves each connection cycles through (each connection its own, drawn
 * from every seated attempt's questions). autocannon keeps a built request buffer per entry
 * per connection, and a long list makes the generator itself the limit: against hono alone
 * answering the same PUT (2026-11-28, 500 connections; generator-lists.mjs), lists of 8
 * ran at 23,600–24,700 req/s and of 512 at 10,100–12,500, autocannon's CPU per request
 * 31–32 µs against 74–90 µs (docs/benchmarks.md, "The generator's request list").
 */
export const DISTINCT_SAVES = 8;

/** Forks this file and runs one saturation measurement. */
export function saturate(opts) {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => {
      resolve(m);
      child.kill();
    });
    child.once('exit', (code) => reject(new Error(`saturation worker exited with ${code}`)));
    child.send(opts);
  });
}

async function child(o) {
  const { default: autocannon } = await import('autocannon');
  let requests;
  let setupClient;
  if (o.kind === 'save') {
    // each connection cycles through its own few saves (random options of random questions
    // of random attempts), built once: a per-request setupRequest made autocannon re-render
    // every request, and one long list shared by all connections made it keep a built
    // buffer per entry per connection — either way the generator, not the server, became
    // the limit (DISTINCT_SAVES above; the bare route's request is static)
    const someSaves = () => Array.from({ length: o.distinct ?? DISTINCT_SAVES }, () => {
      const s = o.saves[Math.floor(Math.random() * o.saves.length)];
      return {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        path: `/attempts/${s.attemptId}/answers/${s.questionId}`,
        body: `{"optionId":"${s.optionIds[Math.floor(Math.random() * s.optionIds.length)]}"}`,
      };
    });
    requests = someSaves();
    setupClient = (client) => client.setRequests(someSaves());
  } else {
    requests = [{ method: 'GET', path: o.path }];
  }
  const cpu0 = process.cpuUsage();
  const result = await autocannon({ url: o.url, connections: o.connections, duration: o.seconds, pipelining: 1, requests, setupClient });
  const total = result.requests.total;
  const cpu = process.cpuUsage(cpu0);
  process.send({
    reqPerSec: Math.round(total / result.duration),
    total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // the generator's own CPU: when it nears one core, req/s is the generator's limit
    clientCpuPct: Math.round(((cpu.user + cpu.system) / 1e4) / result.duration),
  });
}

if (process.argv.includes('--child')) process.once('message', (o) => child(o).catch((e) => {
  console.error(e);
  process.exit(1);
}));
