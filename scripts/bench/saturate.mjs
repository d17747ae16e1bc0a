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
  if (o.kind === 'save') {
    // 512 saves of random options of random questions of random attempts, built once:
    // a per-request setupRequest made autocannon re-render every request and the
    // generator, not the server, became the limit (the bare route's request is static)
    requests = Array.from({ length: 512 }, () => {
      const s = o.saves[Math.floor(Math.random() * o.saves.length)];
      return {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        path: `/attempts/${s.attemptId}/answers/${s.questionId}`,
        body: `{"optionId":"${s.optionIds[Math.floor(Math.random() * s.optionIds.length)]}"}`,
      };
    });
  } else {
    requests = [{ method: 'GET', path: o.path }];
  }
  const cpu0 = process.cpuUsage();
  const result = await autocannon({ url: o.url, connections: o.connections, duration: o.seconds, pipelining: 1, requests });
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
