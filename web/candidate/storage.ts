/**
 * What the page keeps in the browser's localStorage, so a reload, a browser crash or a
 * power cut on the hall PC loses nothing (docs/design.md §7):
 * - `hallcbt.current` → `{attemptId}`: the attempt this PC is sitting (resume on load);
 * - `hallcbt.<attemptId>.pending` → answers not yet covered by the server's durableSeq;
 * - `hallcbt.<attemptId>.counter` → the last `seq` this browser used;
 * - `hallcbt.<attemptId>.telemetry` → proctoring events not yet delivered;
 * - `hallcbt.<attemptId>.ui` → questions flagged for review, the flag changes the server
 *   has not acknowledged (sent again at the next start), and the current question;
 * - `hallcbt.<attemptId>.session` → the last session body (questions), for a reload
 *   while the server is unreachable;
 * - `hallcbt.<attemptId>.instructions` → the exam's instructions (HTML, or null: none),
 *   for its Instructions button after a reload (exam-instructions.ts);
 * - `hallcbt.<attemptId>.view` → the looks the candidate turned on (large text, high
 *   contrast: view-prefs.ts);
 * - `hallcbt.channel` → `"off"` makes this browser save over HTTP only, never over the
 *   save channel (channel.ts): a switch for tests and for one PC; a whole hall whose
 *   network refuses WebSockets is switched on the server (CBT_SAVE_CHANNEL=off); absent
 *   by default.
 * Every access tolerates a missing or full storage (private mode, quota): the page
 * then works from memory.
 */

const PREFIX = 'hallcbt.';

function store(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Reads and JSON-parses a key; `fallback` when absent, unreadable or corrupt. */
export function readJson<T>(key: string, fallback: T): T {
  const s = store();
  if (!s) return fallback;
  try {
    const raw = s.getItem(PREFIX + key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

/** JSON-serialises a value under a key. Returns false when the storage refused it. */
export function writeJson(key: string, value: unknown): boolean {
  const s = store();
  if (!s) return false;
  try {
    s.setItem(PREFIX + key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

/** Removes a key. */
export function remove(key: string): void {
  const s = store();
  if (!s) return;
  try {
    s.removeItem(PREFIX + key);
  } catch {
    /* storage unavailable: nothing to remove */
  }
}

/** Key of one piece of per-attempt state. */
export function attemptKey(attemptId: string, what: 'pending' | 'counter' | 'telemetry' | 'ui' | 'session' | 'view' | 'instructions'): string {
  return attemptId + '.' + what;
}

/** The attempt this PC is sitting, if any. */
export function currentAttempt(): { attemptId: string } | null {
  const v = readJson<{ attemptId?: unknown } | null>('current', null);
  return v && typeof v.attemptId === 'string' && v.attemptId ? { attemptId: v.attemptId } : null;
}

/** Remembers the attempt this PC is sitting. */
export function setCurrentAttempt(attemptId: string): void {
  writeJson('current', { attemptId });
}

/**
 * Forgets an attempt on this PC once it is over (submitted and shown): the pointer and
 * every per-attempt key. Called only after the server confirmed completion, when no
 * local answer can matter any more.
 */
export function forgetAttempt(attemptId: string): void {
  const cur = currentAttempt();
  if (cur && cur.attemptId === attemptId) remove('current');
  remove(attemptKey(attemptId, 'counter'));
  remove(attemptKey(attemptId, 'telemetry'));
  remove(attemptKey(attemptId, 'ui'));
  remove(attemptKey(attemptId, 'session'));
  remove(attemptKey(attemptId, 'pending'));
  remove(attemptKey(attemptId, 'view'));
  remove(attemptKey(attemptId, 'instructions'));
}
