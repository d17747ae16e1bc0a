/**
 * Micro-benchmark of the Safe Exam Browser check (issue 25; issue #34 finding 6) on one
 * core, in process: what one candidate request of an SEB exam costs for the check alone —
 * the URL rebuilt, one SHA-256 of URL + Config Key, a constant-time comparison — for the
 * HTTP header, for the JS-API value, and for the header plus a Browser Exam Key
 * RequestHash against 3 registered keys (one SHA-256 per key), against the same loop
 * reading the headers only (the baseline).
 * Exams without SEB skip the check entirely (`paper.seb === null`). Reads dist/ (run
 * `npm run build` first); prints medians of ROUNDS (argv[2], default 5) rounds.
 *
 *   npm run build && node scripts/bench/micro/seb-check.mjs 5
 */
import { createHash } from 'node:crypto';
import { checkSebRequest, sebVerdict } from '../../../dist/src/modules/seb-check/verify.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const N = 200_000;
const sha = (t) => createHash('sha256').update(t, 'utf8').digest('hex');
const config = { CBT_TLS_CERT: undefined, CBT_TRUSTED_PROXIES: [] };
const gate = { configKey: sha('hall configuration'), browserExamKeys: [], quitUrl: '' };
const bekGate = { ...gate, browserExamKeys: [sha('SEB Windows x64'), sha('SEB Windows x86'), sha('SEB macOS')] };
const verify = (c, g) => sebVerdict(checkSebRequest(c, config, g).check);
const host = '192.168.1.10:8080';
const path = '/attempts/att_0123456789abcdefghijklm/answers/q_0123456789abcdef';

/** A request shaped as hono's Context for what the check reads. */
function ctx(headers) {
  return { req: { header: (n) => headers[n], url: `http://${host}${path}` }, env: { incoming: { url: path } } };
}
const header = ctx({ host, 'x-safeexambrowser-configkeyhash': sha(`http://${host}${path}` + gate.configKey) });
const page = `http://${host}/?room=K7QMX4`;
const jsApi = ctx({ host, 'x-seb-page-url': page, 'x-seb-config-key-hash': sha(page + gate.configKey) });
const bek = ctx({ host, 'x-safeexambrowser-configkeyhash': sha(`http://${host}${path}` + gate.configKey), 'x-safeexambrowser-requesthash': sha(`http://${host}${path}` + bekGate.browserExamKeys[1]) });

function nsPerOp(fn) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn();
  return Number(process.hrtime.bigint() - t) / N;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows = { baseline: [], header: [], jsApi: [], bek: [] };
for (let r = 0; r < ROUNDS; r++) {
  rows.baseline.push(nsPerOp(() => header.req.header('x-safeexambrowser-configkeyhash') && header.req.header('host')));
  rows.header.push(nsPerOp(() => { if (verify(header, gate) !== 'ok') throw new Error('header check failed'); }));
  rows.jsApi.push(nsPerOp(() => { if (verify(jsApi, gate) !== 'ok') throw new Error('JS API check failed'); }));
  rows.bek.push(nsPerOp(() => { if (verify(bek, bekGate) !== 'ok') throw new Error('BEK check failed'); }));
}
for (const [k, v] of Object.entries(rows)) console.log(`${k.padEnd(9)} median ${median(v).toFixed(0)} ns/request  (rounds: ${v.map((x) => x.toFixed(0)).join(', ')})`);
