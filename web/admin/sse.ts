/**
 * Server-sent events over fetch + ReadableStream. EventSource cannot send the API key
 * header, so the stream is read by hand: the text/event-stream format of the HTML
 * standard (fields `event`, `data`, `retry`; a blank line dispatches; `:` lines are
 * comments). On error or end it reconnects with exponential backoff and jitter
 * (1 s, 2 s, 4 s … capped at 15 s), reset once an event arrives. A stream silent for
 * `idleTimeoutMs` is treated as dead (Wi-Fi can drop without closing the socket).
 */

export type StreamState = 'connecting' | 'open' | 'retrying' | 'stopped';

export interface EventStreamOptions {
  url: string;
  headers: Record<string, string>;
  onEvent: (event: string, data: string) => void;
  onState?: (state: StreamState, detail?: string) => void;
  /** stop for good on these statuses (e.g. 401, 404), reporting them through onState */
  fatalStatuses?: number[];
  idleTimeoutMs?: number;
  maxBackoffMs?: number;
}

/** Incremental parser: feed text chunks, receive dispatched events. */
export class SseParser {
  private buf = '';
  private event = '';
  private data: string[] = [];
  /** server-requested reconnection delay (ms), if any */
  retryMs: number | null = null;
  constructor(private readonly dispatch: (event: string, data: string) => void) {}

  feed(chunk: string): void {
    this.buf += chunk;
    let m: RegExpExecArray | null;
    const eol = /\r\n|\r|\n/;
    while ((m = eol.exec(this.buf))) {
      // a lone \r at the very end may be the first half of \r\n: wait for more
      if (m[0] === '\r' && m.index === this.buf.length - 1) break;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length) this.dispatch(this.event || 'message', this.data.join('\n'));
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const i = line.indexOf(':');
    const name = i < 0 ? line : line.slice(0, i);
    let value = i < 0 ? '' : line.slice(i + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') this.event = value;
    else if (name === 'data') this.data.push(value);
    else if (name === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }
}

/** Opens the stream; returns `close()`, which stops reconnecting and aborts the request. */
export function openEventStream(opts: EventStreamOptions): { close: () => void } {
  const maxBackoff = opts.maxBackoffMs ?? 15_000;
  const idle = opts.idleTimeoutMs ?? 45_000;
  let closed = false;
  let failures = 0;
  let controller: AbortController | null = null;
  let sleepTimer = 0;

  const sleep = (ms: number) => new Promise<void>((r) => (sleepTimer = window.setTimeout(r, ms)));

  const run = async () => {
    while (!closed) {
      opts.onState?.(failures ? 'retrying' : 'connecting');
      controller = new AbortController();
      let idleTimer = 0;
      const arm = () => {
        clearTimeout(idleTimer);
        idleTimer = window.setTimeout(() => controller?.abort(), idle);
      };
      const parser = new SseParser((event, data) => {
        failures = 0;
        opts.onEvent(event, data);
      });
      try {
        arm();
        const res = await fetch(opts.url, { headers: { accept: 'text/event-stream', ...opts.headers }, signal: controller.signal, cache: 'no-store' });
        if (!res.ok || !res.body) {
          if (opts.fatalStatuses?.includes(res.status)) {
            opts.onState?.('stopped', `HTTP ${res.status}`);
            return;
          }
          throw new Error(`HTTP ${res.status}`);
        }
        opts.onState?.('open');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          arm();
          parser.feed(value);
        }
      } catch {
        /* network drop, abort by the idle watchdog, or close() */
      } finally {
        clearTimeout(idleTimer);
      }
      if (closed) break;
      failures++;
      const base = parser.retryMs ?? 1000;
      const delay = Math.min(maxBackoff, base * 2 ** Math.min(failures - 1, 10));
      opts.onState?.('retrying', `reconnecting in ${Math.round(delay / 1000)} s`);
      await sleep(delay * (0.8 + Math.random() * 0.4));
    }
  };
  void run();
  return {
    close() {
      closed = true;
      clearTimeout(sleepTimer);
      controller?.abort();
      opts.onState?.('stopped');
    },
  };
}
