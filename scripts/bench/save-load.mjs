/**
 * Honest candidates' answer saves as a separate process, for the tests and benches that
 * measure what other work does to them (test/reliability/paper-bomb.test.ts, test/timed/paper-bomb.test.ts,
 * scripts/bench/paper-bomb.ts). Each candidate saves one MCQ answer at a time (PUT
 * /attempts/:id/answers/:questionId, seq counting up), all candidates together at `rate`
 * saves per second, for `ms` milliseconds, on keep-alive connections.
 *
 * Input: one JSON argument `{baseUrl, rate, ms, candidates: [{attemptId, questions: [{id, optionIds}]}]}`.
 * Output: one JSON line `{count, errors, p50, p99, max}` (latencies in ms) on stdout.
 */
import { Agent, request } from 'node:http';

const { baseUrl, rate, ms, candidates } = JSON.parse(process.argv[2]);
const u = new URL(baseUrl);
const agent = new Agent({ keepAlive: true, maxSockets: candidates.length });
const seqs = candidates.map(() => 1_000);
const latencies = [];
let errors = 0;

/** One save of candidate `i` due at `t0` (its latency counts from then); resolves when its response has been read. */
function save(i, t0) {
  const c = candidates[i];
  const q = c.questions[seqs[i] % c.questions.length];
  const body = Buffer.from(JSON.stringify({ optionId: q.optionIds[seqs[i] % q.optionIds.length], seq: ++seqs[i] }));
  return new Promise((resolve) => {
    const req = request({ host: u.hostname, port: u.port, method: 'PUT', path: `/attempts/${c.attemptId}/answers/${q.id}`, agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) latencies.push(performance.now() - t0);
        else errors++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

// a candidate has one save at a time, as the page does: a save due while the previous one
// is still out waits for it, and its latency counts from when it was due (no coordinated omission)
const chains = candidates.map(() => Promise.resolve());
const started = performance.now();
const gap = 1000 / rate;
let n = 0;
while (performance.now() - started < ms) {
  const i = n++ % candidates.length;
  const due = performance.now();
  chains[i] = chains[i].then(() => save(i, due));
  const next = started + n * gap;
  await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
}
await Promise.all(chains);
latencies.sort((a, b) => a - b);
const at = (p) => Number((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(2));
process.stdout.write(`${JSON.stringify({ count: latencies.length, errors, p50: at(0.5), p99: at(0.99), max: at(1) })}\n`);
agent.destroy();
