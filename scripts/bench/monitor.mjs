/**
 * Watches the server during one measured phase: every second it samples the server's
 * CPU and RSS from /proc and polls GET /health (bufferedAnswers, outboxPending); at the
 * start and end it resets and reads the in-process probe (event-loop delay, flushes, GC).
 * `stop()` resolves the phase's server figures:
 * `{cpuPctAvg, cpuPctMax, cpuSec, rssMBMax, rssMBEnd, machineBusyPct, bufferedMax,
 *   outboxMax, probe}` — CPU percentages are of one core (200 % = both cores).
 */
import { sampleProcess } from './server.mjs';

export function startMonitor(server, { everyMs = 1000 } = {}) {
  const samples = [sampleProcess(server.pid)];
  let bufferedMax = 0;
  let outboxMax = 0;
  let healthErrors = 0;
  const resetDone = server.probe('reset');
  const timer = setInterval(async () => {
    samples.push(sampleProcess(server.pid));
    try {
      const h = await (await fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(5000) })).json();
      bufferedMax = Math.max(bufferedMax, h.bufferedAnswers ?? 0);
      outboxMax = Math.max(outboxMax, h.outboxPending ?? 0);
    } catch {
      healthErrors++;
    }
  }, everyMs);

  return {
    /** Ends the window and summarises it. */
    async stop() {
      clearInterval(timer);
      await resetDone;
      samples.push(sampleProcess(server.pid));
      const probe = await server.probe('read');
      const first = samples[0];
      const last = samples[samples.length - 1];
      const secs = (last.t - first.t) / 1000;
      let cpuPctMax = 0;
      for (let i = 1; i < samples.length; i++) {
        const dt = (samples[i].t - samples[i - 1].t) / 1000;
        if (dt > 0.5) cpuPctMax = Math.max(cpuPctMax, ((samples[i].cpuSec - samples[i - 1].cpuSec) / dt) * 100);
      }
      const cpuSec = last.cpuSec - first.cpuSec;
      const machineDelta = last.machineTotal - first.machineTotal;
      return {
        seconds: Math.round(secs * 10) / 10,
        cpuSec: Math.round(cpuSec * 100) / 100,
        cpuPctAvg: secs > 0 ? Math.round((cpuSec / secs) * 1000) / 10 : 0,
        cpuPctMax: Math.round(cpuPctMax * 10) / 10,
        rssMBMax: Math.round(Math.max(...samples.map((s) => s.rssMB))),
        rssMBEnd: Math.round(last.rssMB),
        hwmMB: Math.round(last.hwmMB),
        // whole machine busy share (all processes, both cores), to show other workers' load
        machineBusyPct: machineDelta > 0 ? Math.round(((last.machineBusy - first.machineBusy) / machineDelta) * 1000) / 10 : 0,
        bufferedMax,
        outboxMax,
        healthErrors,
        probe,
      };
    },
  };
}
