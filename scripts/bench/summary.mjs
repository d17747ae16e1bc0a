/**
 * Turns merged generator figures and the server monitor into one phase summary, and the
 * receiver's arrivals into webhook figures. All times in milliseconds.
 *
 * Phase summary: `{wallMs, requests: {type: {count, p50, p90, p99, p999, max, mean,
 * perSec, scheduledP99, vsProbe: {p50, p99, max}}}, errorCount, errors, errorSamples,
 * sendLag, generator, server, cpuUsPerRequest, started, submits}`. `vsProbe` is each
 * figure divided by the bare route's (probe connections, same window, same server).
 */
import { Histogram } from './histogram.mjs';

const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 10) / 10 : null);

export function summarizePhase(res, server, durationMs) {
  const secs = Math.max(0.001, durationMs / 1000);
  const requests = {};
  for (const [type, h] of Object.entries(res.types)) {
    const s = h.summaryMs();
    requests[type] = { ...s, perSec: Math.round((s.count / secs) * 10) / 10, scheduledP99: res.scheduled[type]?.summaryMs().p99 ?? null };
  }
  const probe = requests['baseline-probe'];
  if (probe) {
    for (const [type, r] of Object.entries(requests)) {
      if (type !== 'baseline-probe') r.vsProbe = { p50: ratio(r.p50, probe.p50), p99: ratio(r.p99, probe.p99), max: ratio(r.max, probe.max) };
    }
  }
  const total = Object.values(requests).reduce((s, r) => s + r.count, 0);
  const errorCount = Object.values(res.errors).reduce((s, n) => s + n, 0);
  return {
    wallMs: res.wallMs,
    requests,
    errorCount,
    errors: res.errors,
    errorSamples: res.errorSamples,
    sendLag: res.lag.summaryMs(),
    generator: { cpuMs: res.cpuMs, cpuPct: Math.round((res.cpuMs / Math.max(1, res.wallMs)) * 1000) / 10, loopMaxMs: res.loopMaxMs, reconnects: res.reconnects },
    server,
    // server CPU per answered request (µs), everything counted: saves, probes, /health polls
    cpuUsPerRequest: total ? Math.round((server.cpuSec * 1e6) / total) : null,
    started: res.started,
    submits: res.submits,
  };
}

/**
 * Webhook delivery figures of a submit surge.
 * @param {[string, number][]} submits  [attemptId, epoch ms of the submit reply]
 * @returns {{expected, received, missing, drainMs, lag: {p50, p99, max}, duplicates, badSignatures, within60s}}
 */
export function webhookFigures(submits, receiver) {
  const lag = new Histogram();
  let lastSubmit = 0;
  let lastArrival = 0;
  let received = 0;
  for (const [id, doneAt] of submits) {
    lastSubmit = Math.max(lastSubmit, doneAt);
    const at = receiver.arrivals.get(id);
    if (at === undefined) continue;
    received++;
    lastArrival = Math.max(lastArrival, at);
    lag.record(Math.max(0, at - doneAt) * 1000);
  }
  const st = receiver.stats();
  const drainMs = received ? Math.max(0, lastArrival - lastSubmit) : null;
  const l = lag.summaryMs();
  return {
    expected: submits.length,
    received,
    missing: submits.length - received,
    drainMs,
    lag: { p50: l.p50, p99: l.p99, max: l.max },
    duplicates: st.duplicates,
    badSignatures: st.badSignatures,
    within60s: received === submits.length && drainMs !== null && drainMs <= 60_000,
  };
}
