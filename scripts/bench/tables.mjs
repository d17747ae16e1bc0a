/**
 * Markdown tables of a results object (one function per table). Latencies in ms;
 * "×bare" columns divide by the bare route measured in the same window of the same
 * server process (probe connections) or, for the steady hall, by the bare route under
 * the same open-loop pattern right after (baseline hall).
 */
const f = (v, d = 2) => (v === undefined || v === null || Number.isNaN(v) ? '–' : typeof v === 'number' ? String(Math.round(v * 10 ** d) / 10 ** d) : String(v));
const x = (a, b) => (a && b ? `${f(a / b, 1)}×` : '–');
const n = (v) => (typeof v === 'number' ? v.toLocaleString('en') : '–');
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (head, rows) => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');
const errs = (p) => (p ? `${p.errorCount}${p.errorCount ? ` (${Object.entries(p.errors).map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}` : '–');

export function saturationTable(runs) {
  return table(
    ['run', 'bare route req/s', 'save path req/s', 'save ÷ bare (req/s)', 'server CPU % bare / save', 'server CPU µs per request bare / save', 'save ÷ bare (by CPU per request)', 'p50 / p99 bare; save (closed loop)'],
    runs.map((r) => {
      const { baseline: b, save: s } = r.saturation;
      return [`${r.scenario} N=${n(r.n)}`, n(b.reqPerSec), n(s.reqPerSec), `${Math.round(r.saturation.ratio * 100)} %`, `${f(b.serverCpuPct, 0)} / ${f(s.serverCpuPct, 0)}`, `${n(b.cpuUsPerRequest)} / ${n(s.cpuUsPerRequest)}`, r.saturation.cpuRatio ? `${Math.round(r.saturation.cpuRatio * 100)} %` : '–', `${b.p50} / ${b.p99}; ${s.p50} / ${s.p99}`];
    }),
  );
}

export function hallLatencyTable(runs) {
  return table(
    ['N', 'saves/s', 'save p50', 'save p99', 'save max', 'p99 from schedule', 'telemetry p50 / p99 / max', 'bare, same load: p50 / p99 / max', 'save p99 ×bare', 'probe p99 (same window)', 'errors'],
    runs.map((r) => {
      const h = r.phases.hall;
      const s = h?.requests.save ?? {};
      const t = h?.requests.telemetry ?? {};
      const b = r.phases.baselineHall?.requests['baseline-hall'] ?? {};
      return [n(r.n), f(s.perSec, 0), f(s.p50), f(s.p99), f(s.max), f(s.scheduledP99), `${f(t.p50)} / ${f(t.p99)} / ${f(t.max)}`, `${f(b.p50)} / ${f(b.p99)} / ${f(b.max)}`, x(s.p99, b.p99), f(h?.requests['baseline-probe']?.p99), errs(h)];
    }),
  );
}

export function hallServerTable(runs) {
  return table(
    ['N', 'server CPU avg / max (% of a core)', 'CPU µs per request', 'CPU µs/request ×bare', 'RSS max MB', 'RSS ×bare', 'machine busy %', 'generators CPU %', 'generator timer lag p99', 'reconnects'],
    runs.map((r) => {
      const h = r.phases.hall;
      const b = r.phases.baselineHall;
      return [n(r.n), `${f(h?.server.cpuPctAvg, 1)} / ${f(h?.server.cpuPctMax, 1)}`, f(h?.cpuUsPerRequest, 0), x(h?.cpuUsPerRequest, b?.cpuUsPerRequest), f(h?.server.rssMBMax, 0), x(h?.server.rssMBMax, b?.server.rssMBMax), f(h?.server.machineBusyPct, 1), f(h?.generator.cpuPct, 1), f(h?.sendLag.p99), f(h?.generator.reconnects, 0)];
    }),
  );
}

function probeRow(label, p) {
  const pr = p?.server.probe;
  if (!pr) return [label, ...Array(9).fill('–')];
  const fl = pr.flush;
  return [label, `${f(pr.eventLoopDelayMs.p50)} / ${f(pr.eventLoopDelayMs.p99)} / ${f(pr.eventLoopDelayMs.max)}`, n(fl.count), `${n(fl.rowsP50)} / ${n(fl.rowsMax)}`, n(fl.activityRowsMax), n(fl.batchesMax), `${f(fl.meanBatchMs)} / ${f(fl.maxBatchMs)}`, `${f(fl.meanLoopMs)} / ${f(fl.maxLoopMs)}`, f(fl.maxTotalMs), `${n(pr.gc.count)} / ${f(pr.gc.maxMs)}`];
}

/** Flushes per phase: answers and activity rows, the writer's transactions, and the flush's own time on the event loop. */
export function flushTable(runs) {
  const rows = [];
  for (const r of runs) for (const [name, p] of Object.entries(r.phases)) rows.push(probeRow(`${r.scenario} N=${n(r.n)}: ${name}`, p));
  return table(['phase', 'event-loop delay p50 / p99 / max', 'flushes', 'answers per flush p50 / max', 'activity rows (max)', 'transactions per flush (max)', 'longest transaction, writer thread: mean / max', 'flush time on the event loop: mean / max', 'flush wall time (max)', 'GC pauses: count / max ms'], rows);
}

export function startTable(runs) {
  return table(
    ['N', 'started', 'start p50', 'start p99', 'start max', 'p99 ×bare (same window)', 'starts/s', 'last start answered after', 'saves during surge p50 / p99', 'errors', 'server CPU avg / max %', 'RSS max MB', 'loop delay max'],
    runs.map((r) => {
      const p = r.phases.start;
      const s = p?.requests.start ?? {};
      const sv = p?.requests.save ?? {};
      return [n(r.n), n(p?.started), f(s.p50), f(s.p99), f(s.max), s.vsProbe ? `${f(s.vsProbe.p99, 1)}×` : '–', f(s.count / Math.max(1, (p?.wallMs ?? 1) / 1000), 1), `${f((p?.wallMs ?? 0) / 1000, 1)} s`, `${f(sv.p50)} / ${f(sv.p99)}`, errs(p), `${f(p?.server.cpuPctAvg, 1)} / ${f(p?.server.cpuPctMax, 1)}`, f(p?.server.rssMBMax, 0), f(p?.server.probe?.eventLoopDelayMs.max)];
    }),
  );
}

export function fillTable(runs) {
  return table(
    ['N', 'batch of 60 answers: p50 / p99 / max', 'p99 ×bare', 'errors', 'server CPU avg %', 'buffered answers (max)'],
    runs.map((r) => {
      const p = r.phases.fill;
      const s = p?.requests['save-batch'] ?? {};
      return [n(r.n), `${f(s.p50)} / ${f(s.p99)} / ${f(s.max)}`, s.vsProbe ? `${f(s.vsProbe.p99, 1)}×` : '–', errs(p), f(p?.server.cpuPctAvg, 1), n(p?.server.bufferedMax)];
    }),
  );
}

export function submitTable(runs) {
  return table(
    ['N', 'submit p50', 'submit p99', 'submit max', 'p99 ×bare (same window)', 'saves meanwhile p99', 'errors', 'webhooks received', 'drain after last submit', 'webhook lag p50 / p99 / max', 'outbox max', 'bad signatures', 'server CPU avg %', 'RSS max MB'],
    runs.map((r) => {
      const p = r.phases.submit;
      const s = p?.requests.submit ?? {};
      const w = r.webhooks ?? {};
      return [n(r.n), f(s.p50), f(s.p99), f(s.max), s.vsProbe ? `${f(s.vsProbe.p99, 1)}×` : '–', f(p?.requests.save?.p99), errs(p), `${n(w.received)} / ${n(w.expected)}`, w.drainMs === null || w.drainMs === undefined ? '–' : `${f(w.drainMs / 1000, 1)} s`, `${f(w.lag?.p50)} / ${f(w.lag?.p99)} / ${f(w.lag?.max)}`, n(p?.server.outboxMax), n(w.badSignatures), f(p?.server.cpuPctAvg, 1), f(p?.server.rssMBMax, 0)];
    }),
  );
}

export function targetsTable(verdicts) {
  return table(['target (issue 8)', 'measured', 'verdict'], verdicts.map((v) => [v.target, v.measured, v.met === null ? '–' : v.met ? '**met**' : `**missed** — ${v.note}`]));
}
