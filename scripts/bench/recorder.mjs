/**
 * Per-generator bookkeeping of one phase: a latency histogram per request type
 * (time from writing the request to its last response byte), the send lag (how late
 * the generator's timer fired after the scheduled time: the generator's own health),
 * the schedule-corrected latency of saves (scheduled time → response, free of
 * coordinated omission), error counts by type and reason, and a few error samples.
 */
import { Histogram } from './histogram.mjs';

export class Recorder {
  constructor() {
    this.hists = new Map();
    this.lag = new Histogram();
    this.scheduled = new Map();
    this.errors = {};
    this.errorSamples = [];
    this.outstanding = 0;
  }

  hist(map, type) {
    let h = map.get(type);
    if (!h) map.set(type, (h = new Histogram()));
    return h;
  }

  /**
   * Sends through `conn` and records the outcome under `type`.
   * @param intendedAt epoch ms the request was scheduled for
   * @returns the response `{status, body, …}` when 2xx, else null
   */
  async send(conn, type, intendedAt, method, path, body, timeoutMs) {
    this.outstanding++;
    try {
      const r = await conn.request(method, path, body, timeoutMs);
      const doneEpoch = performance.timeOrigin + r.doneAt;
      // timer lag only: waiting behind the candidate's previous request is the server's doing
      this.lag.record(Math.max(0, performance.timeOrigin + r.queuedAt - intendedAt) * 1000);
      if (r.status >= 200 && r.status < 300) {
        this.hist(this.hists, type).record((r.doneAt - r.sentAt) * 1000);
        this.hist(this.scheduled, type).record(Math.max(0, doneEpoch - intendedAt) * 1000);
        return r;
      }
      this.error(type, String(r.status), r.body.toString('utf8').slice(0, 300));
      return null;
    } catch (e) {
      this.error(type, e.message, '');
      return null;
    } finally {
      this.outstanding--;
    }
  }

  /**
   * Records an answered request `r` (what `send` returned) under `type` as well: the same
   * latency counted in a second histogram (a two-paper hall's starts, per paper).
   */
  record(type, r) {
    this.hist(this.hists, type).record((r.doneAt - r.sentAt) * 1000);
  }

  error(type, reason, sample) {
    const k = `${type} ${reason}`;
    this.errors[k] = (this.errors[k] ?? 0) + 1;
    if (this.errorSamples.length < 5) this.errorSamples.push({ type, reason, sample });
  }

  /** Serializable figures for the orchestrator. */
  toJSON() {
    const obj = (m) => Object.fromEntries([...m].map(([k, h]) => [k, h.toJSON()]));
    return { hists: obj(this.hists), scheduled: obj(this.scheduled), lag: this.lag.toJSON(), errors: this.errors, errorSamples: this.errorSamples };
  }
}
