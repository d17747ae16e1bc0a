/**
 * Structured logger: one JSON object per line to stdout (journald picks it up).
 * Injected into createApp; never logs secrets (callers pass only safe fields).
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Logger writing JSON lines through `write` (stdout by default). Lines are gathered and
 * written once per event-loop turn (or at 64 KiB): one request-log write per request was
 * a measurable share of the answer-save cost. `warn`/`error` lines go out at once, after
 * whatever was waiting, and `flush()` empties the buffer (called at shutdown).
 */
export function jsonLogger(write: (chunk: string) => void = (l) => process.stdout.write(l)): Logger & { flush(): void } {
  let pending = '';
  let scheduled = false;
  // toISOString() costs more than the rest of a line; lines of the same millisecond share it
  let stampMs = 0;
  let stamp = '';
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    write(chunk);
  };
  const emit = (level: string, msg: string, fields: Record<string, unknown> | undefined, now: boolean) => {
    const rest = fields === undefined ? '}' : JSON.stringify(fields).slice(1);
    const ms = Date.now();
    if (ms !== stampMs) {
      stampMs = ms;
      stamp = new Date(ms).toISOString();
    }
    pending += `{"time":"${stamp}","level":"${level}","msg":${JSON.stringify(msg)}${rest.length > 1 ? ',' : ''}${rest}\n`;
    if (now || pending.length >= 65536) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return {
    info: (m, f) => emit('info', m, f, false),
    warn: (m, f) => emit('warn', m, f, true),
    error: (m, f) => emit('error', m, f, true),
    flush,
  };
}

/** Logger that discards everything (tests that do not inspect logs). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
