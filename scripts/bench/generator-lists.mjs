/**
 * What the load generator's request list costs the generator (docs/benchmarks.md, "The
 * generator's request list"): hono alone (bare-hono.mjs, its own process) answering the
 * save's PUT, saturated by autocannon (saturate.mjs, its own process, 500 keep-alive
 * connections) cycling through lists of 8, 32, 128 and 512 distinct saves, next to the static
 * GET the saturation check's baseline uses. Per list: req/s, and the CPU per request of
 * autocannon and of hono. When autocannon's CPU per request grows with the list while
 * hono's does not, the list, not the server, sets the save rate.
 *
 *   node scripts/bench/generator-lists.mjs [--passes=2] [--seconds=5]
 */
import { startBareHono } from './bare-hono.mjs';
import { saturate } from './saturate.mjs';
import { sampleProcess } from './server.mjs';

const arg = (k, d) => Number(process.argv.find((a) => a.startsWith(`--${k}=`))?.split('=')[1] ?? d);
const passes = arg('passes', 2);
const seconds = arg('seconds', 5);
const bare = await startBareHono();
// save-shaped targets: ids of the hall's lengths, four options each
const saves = Array.from({ length: 100 }, (_, i) => ({
  attemptId: `att_${String(i).padStart(22, '0')}`,
  questionId: `q_${String(i).padStart(22, '0')}`,
  optionIds: ['a', 'b', 'c', 'd'].map((c) => `opt_${c.repeat(22)}`),
}));
const variants = [['GET /bare (static)', { kind: 'baseline', path: '/bare' }], ...[8, 32, 128, 512].map((n) => [`PUT, list of ${n}`, { kind: 'save', saves, distinct: n }])];
try {
  for (const [, v] of variants) await saturate({ url: bare.url, connections: 500, seconds: 2, ...v });
  for (let pass = 1; pass <= passes; pass++) {
    for (const [name, v] of variants) {
      const a = sampleProcess(bare.pid);
      const r = await saturate({ url: bare.url, connections: 500, seconds, ...v });
      const b = sampleProcess(bare.pid);
      const cpu = (b.cpuSec - a.cpuSec) / ((b.t - a.t) / 1000);
      const us = (pct) => Math.round((pct * 1e4) / r.reqPerSec);
      console.log(`pass ${pass} ${name.padEnd(20)} ${r.reqPerSec} req/s; autocannon ${r.clientCpuPct} % (${us(r.clientCpuPct)} µs each); hono ${Math.round(cpu * 100)} % (${us(cpu * 100)} µs each); errors ${r.errors}`);
    }
  }
} finally {
  await bare.stop();
}
