/**
 * A small mergeable latency histogram for the benchmark (values in microseconds).
 * Buckets grow by 1 % (log-linear), so any reported percentile is within 1 % of the
 * true value; min, max, count and sum are exact. Generators send `toJSON()` snapshots
 * to the orchestrator, which merges them with `Histogram.from()` + `merge()`.
 */

const GROWTH = 1.01;
const LOG_GROWTH = Math.log(GROWTH);
/** Below 100 µs buckets are 1 µs wide; above, 1 % wide (up to ~1,000 s). */
const LINEAR_LIMIT = 100;
const BUCKETS = LINEAR_LIMIT + Math.ceil(Math.log(1e9 / LINEAR_LIMIT) / LOG_GROWTH) + 1;

function indexOf(us) {
  if (us < LINEAR_LIMIT) return Math.max(0, Math.floor(us));
  return Math.min(BUCKETS - 1, LINEAR_LIMIT + Math.floor(Math.log(us / LINEAR_LIMIT) / LOG_GROWTH));
}

function upperBound(i) {
  if (i < LINEAR_LIMIT) return i + 1;
  return LINEAR_LIMIT * GROWTH ** (i - LINEAR_LIMIT + 1);
}

export class Histogram {
  constructor() {
    this.counts = new Float64Array(BUCKETS);
    this.count = 0;
    this.sum = 0;
    this.min = Infinity;
    this.max = 0;
  }

  /** Records one value in microseconds. */
  record(us) {
    this.counts[indexOf(us)]++;
    this.count++;
    this.sum += us;
    if (us < this.min) this.min = us;
    if (us > this.max) this.max = us;
  }

  /** Adds another histogram's values into this one. */
  merge(other) {
    for (let i = 0; i < BUCKETS; i++) this.counts[i] += other.counts[i];
    this.count += other.count;
    this.sum += other.sum;
    if (other.min < this.min) this.min = other.min;
    if (other.max > this.max) this.max = other.max;
    return this;
  }

  /** The value (µs) at percentile `p` (0–100); exact at 0 and 100, else ≤ 1 % high. */
  percentile(p) {
    if (this.count === 0) return 0;
    if (p <= 0) return this.min;
    if (p >= 100) return this.max;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, upperBound(i)));
    }
    return this.max;
  }

  /** Summary in milliseconds: `{count, p50, p90, p99, p999, max, mean}`. */
  summaryMs() {
    const ms = (us) => Math.round(us) / 1000;
    return {
      count: this.count,
      p50: ms(this.percentile(50)),
      p90: ms(this.percentile(90)),
      p99: ms(this.percentile(99)),
      p999: ms(this.percentile(99.9)),
      max: ms(this.max),
      mean: this.count ? ms(this.sum / this.count) : 0,
    };
  }

  /** Sparse JSON form for IPC: `{b: [[index, count]…], count, sum, min, max}`. */
  toJSON() {
    const b = [];
    for (let i = 0; i < BUCKETS; i++) if (this.counts[i]) b.push([i, this.counts[i]]);
    return { b, count: this.count, sum: this.sum, min: this.count ? this.min : 0, max: this.max };
  }

  /** Rebuilds a histogram from `toJSON()` output. */
  static from(json) {
    const h = new Histogram();
    for (const [i, c] of json.b) h.counts[i] = c;
    h.count = json.count;
    h.sum = json.sum;
    h.min = json.count ? json.min : Infinity;
    h.max = json.max;
    return h;
  }
}
