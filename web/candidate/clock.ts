/**
 * The exam countdown. The server is the clock (docs/design.md §7): every response carries
 * `remainingSeconds`, and the page only interpolates between two responses with
 * `performance.now()` deltas (monotonic, immune to a wrong or changed PC clock).
 * Fires warnings at 5 and 1 minute left and `onZero` once when time runs out; stops
 * while the invigilator has paused the exam.
 */

export interface CountdownHooks {
  /** every tick: whole seconds left (null before the first server sync) */
  onTick(remainingSeconds: number | null, paused: boolean): void;
  /** once per threshold crossed: 5 or 1 minute(s) left */
  onWarning(minutesLeft: 5 | 1): void;
  /** once when the local interpolation reaches zero (the caller confirms with the server) */
  onZero(): void;
}

export class Countdown {
  private baseSeconds: number | null = null;
  private baseAt = 0;
  private paused = false;
  private warned5 = false;
  private warned1 = false;
  private zeroFired = false;
  private interval: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly hooks: CountdownHooks) {}

  /**
   * Re-syncs from a server response.
   * @param remainingSeconds seconds left according to the server (ignored when not a number)
   * @param paused true while the invigilator has paused the exam (undefined: unchanged)
   */
  sync(remainingSeconds: number | undefined | null, paused?: boolean): void {
    if (typeof paused === 'boolean') this.paused = paused;
    if (typeof remainingSeconds !== 'number' || !isFinite(remainingSeconds)) return;
    this.baseSeconds = Math.max(0, remainingSeconds);
    this.baseAt = monotonicMs();
    // Extra time granted (or downtime credited) re-arms the warnings.
    if (this.baseSeconds > 305) this.warned5 = false;
    if (this.baseSeconds > 65) this.warned1 = false;
    if (this.baseSeconds > 1) this.zeroFired = false;
    this.tick();
  }

  /** Seconds left now (fractional), or null before the first sync. */
  remaining(): number | null {
    if (this.baseSeconds === null) return null;
    if (this.paused) return this.baseSeconds;
    return Math.max(0, this.baseSeconds - (monotonicMs() - this.baseAt) / 1000);
  }

  /** True while the exam is paused by the invigilator. */
  isPaused(): boolean {
    return this.paused;
  }

  /** Starts ticking (4 times a second, so the display never skips a second). */
  start(): void {
    if (this.interval === null) this.interval = setInterval(() => this.tick(), 250);
    this.tick();
  }

  /** Stops ticking (attempt over). */
  stop(): void {
    if (this.interval !== null) clearInterval(this.interval);
    this.interval = null;
  }

  private tick(): void {
    const left = this.remaining();
    const whole = left === null ? null : Math.ceil(left);
    this.hooks.onTick(whole, this.paused);
    if (whole === null || this.paused) return;
    if (whole <= 60 && !this.warned1) {
      this.warned1 = true;
      this.warned5 = true;
      if (whole > 0) this.hooks.onWarning(1);
    } else if (whole <= 300 && !this.warned5) {
      this.warned5 = true;
      this.hooks.onWarning(5);
    }
    if (whole <= 0 && !this.zeroFired) {
      this.zeroFired = true;
      this.hooks.onZero();
    }
  }
}

/** Formats seconds as "m:ss" or "h:mm:ss"; "--:--" when unknown. */
export function formatClock(seconds: number | null): string {
  if (seconds === null) return '--:--';
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const pad = (n: number) => (n < 10 ? '0' + n : String(n));
  return hh > 0 ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}

function monotonicMs(): number {
  return typeof performance !== 'undefined' && performance.now ? performance.now() : Date.now();
}
