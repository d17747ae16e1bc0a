/**
 * Structured logger: one JSON object per line to stdout (journald picks it up).
 * Injected into createApp; never logs secrets (callers pass only safe fields).
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Logger writing JSON lines to a stream (stdout by default). */
export function jsonLogger(write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const emit = (level: string, msg: string, fields?: Record<string, unknown>) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
  return {
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

/** Logger that discards everything (tests that do not inspect logs). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
