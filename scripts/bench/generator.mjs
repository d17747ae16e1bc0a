/**
 * A load-generator process (forked by drive.mjs; several run side by side, each with its
 * own share of the virtual candidates, so their schedules interleave rather than burst).
 * Every candidate owns one keep-alive connection (http-client.mjs) and acts open-loop on
 * its own timers, as a browser in an exam hall would (behaviour in candidate.mjs).
 *
 * IPC protocol:
 *  → {type:'init', target:{host,port}, candidates:[{studentId, pin, attemptId?, given?}], questions,
 *     perCandidate, accessCode, baselinePath, probeConnections}  ← {type:'ready', connected, failed}
 *  → {type:'phase', phase}  ← {type:'result', ...Recorder figures, cpu, loop, started, submits}
 *  → {type:'exit'}
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Connection } from './http-client.mjs';
import { Recorder } from './recorder.mjs';
import { runPhase } from './candidate.mjs';

const state = { cands: [], probes: [], questions: [], questionIndex: new Map(), perCandidate: 0, accessCode: '', baselinePath: '/version' };
let sweeper = null;

async function connectAll(conns, batch = 200) {
  let failed = 0;
  for (let i = 0; i < conns.length; i += batch) {
    const res = await Promise.allSettled(conns.slice(i, i + batch).map((c) => c.connect()));
    failed += res.filter((r) => r.status === 'rejected').length;
  }
  return failed;
}

async function init(m) {
  state.questions = m.questions;
  state.questionIndex = new Map(m.questions.map((q, i) => [q.id, i]));
  state.perCandidate = m.perCandidate ?? m.questions.length;
  state.accessCode = m.accessCode;
  state.baselinePath = m.baselinePath;
  state.cands = m.candidates.map((c) => ({ ...c, seq: 0, conn: new Connection(m.target) }));
  state.probes = Array.from({ length: m.probeConnections ?? 0 }, () => new Connection(m.target));
  const failed = await connectAll([...state.cands.map((c) => c.conn), ...state.probes]);
  // one sweeper for every connection's request timeout (cheaper than a timer per request)
  sweeper = setInterval(() => {
    const now = performance.now();
    for (const c of state.cands) c.conn.checkTimeout(now);
    for (const p of state.probes) p.checkTimeout(now);
  }, 250);
  process.send({ type: 'ready', connected: state.cands.length + state.probes.length - failed, failed });
}

async function phase(m) {
  const rec = new Recorder();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const out = await runPhase(state, m.phase, rec);
  const cpu = process.cpuUsage(cpu0);
  loop.disable();
  process.send({
    type: 'result',
    ...rec.toJSON(),
    ...out,
    reconnects: state.cands.reduce((s, c) => s + c.conn.reconnects, 0),
    cpu: { userMs: Math.round(cpu.user / 1000), systemMs: Math.round(cpu.system / 1000) },
    loop: { p99: Math.round(loop.percentile(99) / 1e4) / 100, max: Math.round(loop.max / 1e4) / 100 },
  });
}

process.on('message', (m) => {
  const run = m.type === 'init' ? init(m) : m.type === 'phase' ? phase(m) : null;
  if (m.type === 'exit') {
    clearInterval(sweeper);
    for (const c of state.cands) c.conn.close();
    for (const p of state.probes) p.close();
    setTimeout(() => process.exit(0), 50);
    return;
  }
  run?.catch((e) => {
    process.send({ type: 'fatal', error: String(e?.stack ?? e) });
  });
});
