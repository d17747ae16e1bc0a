/**
 * Proctoring telemetry (docs/design.md §7, issue 4 point 7). Watches the browser for the
 * events the server counts as violations — TAB_SWITCH (page hidden), WINDOW_BLUR
 * (another window focused), FULLSCREEN_EXIT, COPY, PASTE, CONTEXT_MENU — and the
 * recorded-only NETWORK_OFFLINE / NETWORK_ONLINE / FULLSCREEN_ENTER, and posts each to
 * `POST /attempts/:id/telemetry` in order. Events are queued in localStorage first, so
 * what happens while the network is down (or before a reload) is sent later.
 *
 * A tab switch fires both `blur` and `visibilitychange`; it is counted once, as
 * TAB_SWITCH. Leaving the page (reload, navigation) fires `visibilitychange` too and is
 * not counted.
 */
import { attemptPath, call } from './api.js';
import { attemptKey, readJson, writeJson } from './storage.js';
import type { Problem, TelemetryResponse } from './types.js';

export type TelemetryType =
  | 'TAB_SWITCH'
  | 'WINDOW_BLUR'
  | 'FULLSCREEN_EXIT'
  | 'COPY'
  | 'PASTE'
  | 'CONTEXT_MENU'
  | 'NETWORK_OFFLINE'
  | 'NETWORK_ONLINE'
  | 'FULLSCREEN_ENTER';

const COUNTED: TelemetryType[] = ['TAB_SWITCH', 'WINDOW_BLUR', 'FULLSCREEN_EXIT', 'COPY', 'PASTE', 'CONTEXT_MENU'];

interface QueuedEvent {
  type: TelemetryType;
  action: string;
}

export interface ProctorHooks {
  /** the server's verdict after an event: violations so far, limit, status */
  onVerdict(verdict: TelemetryResponse): void;
  /** a counted violation just happened (shown at once, even offline) */
  onViolation(type: TelemetryType): void;
  /** the server refused (403 disqualified, 409 over…): return true to keep retrying */
  onRefused(problem: Problem): boolean;
  /** fullscreen entered or left */
  onFullscreen(isFullscreen: boolean): void;
}

/** Fullscreen element with the prefixed fallback some older browsers need. */
export function fullscreenElement(): Element | null {
  const d = document as Document & { webkitFullscreenElement?: Element | null };
  return d.fullscreenElement || d.webkitFullscreenElement || null;
}

export class Proctor {
  private queue: QueuedEvent[];
  private active = false;
  private unloading = false;
  private sending = false;
  private backoffMs = 1000;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastHiddenAt = -1e9;

  constructor(private readonly attemptId: string, private readonly hooks: ProctorHooks) {
    const stored = readJson<QueuedEvent[]>(attemptKey(attemptId, 'telemetry'), []);
    this.queue = Array.isArray(stored) ? stored.filter((e) => e && typeof e.type === 'string') : [];
    this.listen();
  }

  /** Starts counting (the exam screen is showing); sends anything queued earlier. */
  activate(): void {
    this.active = true;
    this.send();
  }

  /** Stops counting and sending (submitted, locked). */
  deactivate(): void {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Drops undelivered events: after a disqualification they must not count again on reinstatement. */
  dropQueue(): void {
    this.queue = [];
    writeJson(attemptKey(this.attemptId, 'telemetry'), this.queue);
  }

  /** Counted events not yet delivered (for the local warning count while offline). */
  unsentViolations(): number {
    return this.queue.filter((e) => COUNTED.indexOf(e.type) >= 0).length;
  }

  /** Queues one event and sends the queue. */
  record(type: TelemetryType, action: string): void {
    if (!this.active) return;
    this.queue.push({ type, action });
    writeJson(attemptKey(this.attemptId, 'telemetry'), this.queue);
    if (COUNTED.indexOf(type) >= 0) this.hooks.onViolation(type);
    this.send();
  }

  private listen(): void {
    const mark = () => (this.unloading = true);
    window.addEventListener('beforeunload', mark);
    window.addEventListener('pagehide', mark);
    window.addEventListener('pageshow', () => (this.unloading = false));
    document.addEventListener('visibilitychange', () => {
      if (this.unloading || document.visibilityState !== 'hidden') return;
      this.lastHiddenAt = monotonicMs();
      this.record('TAB_SWITCH', 'tab_hidden');
    });
    window.addEventListener('blur', () => {
      // Decide after the matching visibilitychange (if any) has had time to arrive.
      setTimeout(() => {
        if (this.unloading || document.visibilityState === 'hidden') return;
        if (monotonicMs() - this.lastHiddenAt < 1500) return;
        this.record('WINDOW_BLUR', 'window_blur');
      }, 400);
    });
    const onFs = () => {
      const full = !!fullscreenElement();
      this.hooks.onFullscreen(full);
      if (this.unloading) return;
      this.record(full ? 'FULLSCREEN_ENTER' : 'FULLSCREEN_EXIT', full ? 'fullscreen_enter' : 'fullscreen_exit');
    };
    document.addEventListener('fullscreenchange', onFs);
    document.addEventListener('webkitfullscreenchange', onFs);
    const block = (type: TelemetryType, action: string) => (e: Event) => {
      if (!this.active) return;
      e.preventDefault();
      this.record(type, action);
    };
    document.addEventListener('copy', block('COPY', 'copy'));
    document.addEventListener('cut', block('COPY', 'cut'));
    document.addEventListener('paste', block('PASTE', 'paste'));
    document.addEventListener('contextmenu', block('CONTEXT_MENU', 'context_menu'));
    window.addEventListener('offline', () => this.record('NETWORK_OFFLINE', 'browser_offline'));
    window.addEventListener('online', () => {
      this.record('NETWORK_ONLINE', 'browser_online');
      this.retryNow();
    });
  }

  /** Sends the queue now (the server is reachable again). */
  retryNow(): void {
    this.backoffMs = 1000;
    this.send();
  }

  private async send(): Promise<void> {
    if (!this.active || this.sending || !this.queue.length) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const head = this.queue[0];
    this.sending = true;
    const res = await call<TelemetryResponse>('POST', attemptPath(this.attemptId, '/telemetry'), { type: head.type, meta: { action: head.action } });
    this.sending = false;
    if (res.kind === 'network') return this.retryLater(this.nextBackoff());
    if (res.kind === 'ok' || res.status === 400) {
      // 400: a type this server does not know; drop it rather than block the queue.
      this.queue.shift();
      writeJson(attemptKey(this.attemptId, 'telemetry'), this.queue);
      this.backoffMs = 1000;
      if (res.kind === 'ok') this.hooks.onVerdict(res.body);
      return this.send();
    }
    if (res.status === 429) return this.retryLater((res.problem.retryAfterSeconds || 2) * 1000);
    if (res.status >= 500) return this.retryLater(this.nextBackoff());
    if (this.hooks.onRefused(res.problem)) this.retryLater(this.nextBackoff());
  }

  private retryLater(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send();
    }, ms);
  }

  private nextBackoff(): number {
    const ms = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, 10_000);
    return ms;
  }
}

function monotonicMs(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
