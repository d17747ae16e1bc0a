/**
 * The orchestrator's side of the load generators: forks `processes` generator.mjs
 * workers, deals the candidates out round-robin (probe connections on the first one),
 * starts every phase at one shared epoch time `t0` so the workers' schedules interleave,
 * and merges their figures (histograms summed, errors added, CPU added).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Histogram } from './histogram.mjs';

const GENERATOR = fileURLToPath(new URL('./generator.mjs', import.meta.url));

function ask(child, msg, want) {
  return new Promise((resolve, reject) => {
    const onMsg = (m) => {
      if (m?.type === want) done(null, m);
      else if (m?.type === 'fatal') done(new Error(`generator failed: ${m.error}`));
    };
    const onExit = (code) => done(new Error(`generator exited with ${code}`));
    const done = (err, m) => {
      child.off('message', onMsg);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(m);
    };
    child.on('message', onMsg);
    child.on('exit', onExit);
    child.send(msg);
  });
}

/** Merges generator results into one: `{types: {type: Histogram}, scheduled, lag, errors, …}`. */
export function mergeResults(results) {
  const merged = { types: {}, scheduled: {}, lag: new Histogram(), errors: {}, errorSamples: [], cpuMs: 0, loopMaxMs: 0, started: 0, submits: [], reconnects: 0, wallMs: 0 };
  for (const r of results) {
    for (const [k, h] of Object.entries(r.hists)) merged.types[k] = (merged.types[k] ?? new Histogram()).merge(Histogram.from(h));
    for (const [k, h] of Object.entries(r.scheduled)) merged.scheduled[k] = (merged.scheduled[k] ?? new Histogram()).merge(Histogram.from(h));
    merged.lag.merge(Histogram.from(r.lag));
    for (const [k, n] of Object.entries(r.errors)) merged.errors[k] = (merged.errors[k] ?? 0) + n;
    merged.errorSamples.push(...r.errorSamples);
    merged.cpuMs += r.cpu.userMs + r.cpu.systemMs;
    merged.loopMaxMs = Math.max(merged.loopMaxMs, r.loop.max);
    merged.started += r.started;
    merged.submits.push(...r.submits);
    merged.reconnects += r.reconnects;
    merged.wallMs = Math.max(merged.wallMs, r.wallMs);
  }
  merged.errorSamples = merged.errorSamples.slice(0, 8);
  return merged;
}

/**
 * Forks the generators and opens every candidate's connection.
 * @param {{target, candidates, questions, perCandidate, accessCode, baselinePath, processes, probeConnections}} o
 *   candidates: [{studentId, pin, attemptId?, given?}] (given: indexes in `questions` of a seated attempt's questions);
 *   perCandidate: how many questions a start gives each candidate
 * @returns {Promise<{runPhase(phase): Promise<object>, connected: number, failed: number, close(): Promise<void>}>}
 */
export async function startGenerators(o) {
  const n = Math.max(1, Math.min(o.processes, o.candidates.length || 1));
  const children = Array.from({ length: n }, () => fork(GENERATOR, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--max-old-space-size=1024'] }));
  const shares = children.map(() => []);
  o.candidates.forEach((c, i) => shares[i % n].push(c));
  const ready = await Promise.all(
    children.map((child, i) =>
      ask(child, { type: 'init', target: o.target, candidates: shares[i], questions: o.questions, perCandidate: o.perCandidate ?? o.questions.length, accessCode: o.accessCode, baselinePath: o.baselinePath, probeConnections: i === 0 ? o.probeConnections : 0 }, 'ready'),
    ),
  );
  return {
    connected: ready.reduce((s, r) => s + r.connected, 0),
    failed: ready.reduce((s, r) => s + r.failed, 0),
    /** Runs a phase on every generator from a common t0 (now + `leadMs`). */
    async runPhase(phase, leadMs = 500) {
      const t0 = Date.now() + leadMs;
      const results = await Promise.all(children.map((child) => ask(child, { type: 'phase', phase: { ...phase, t0 } }, 'result')));
      return { t0, ...mergeResults(results) };
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.send({ type: 'exit' });
              setTimeout(() => child.kill('SIGKILL'), 5000).unref();
            }),
        ),
      );
    },
  };
}
