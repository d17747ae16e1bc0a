/**
 * HTTP client for the candidate endpoints (same origin as the page). Every call
 * resolves — it never throws — to one of three outcomes the callers switch on:
 * `ok` (2xx with the JSON body), `problem` (an RFC 7807 body with its `code`), or
 * `network` (no answer at all: Wi-Fi down, server restarting, time-out).
 * It also tracks whether the server is reachable, for the page's offline banner.
 */
import type { Problem } from './types.js';
import { noteProblem, sebHeaders } from './seb.js';

export type ApiResult<T> =
  | { kind: 'ok'; status: number; body: T }
  | { kind: 'problem'; status: number; problem: Problem }
  | { kind: 'network' };

type ReachListener = (reachable: boolean) => void;

const listeners: ReachListener[] = [];
let reachable = true;

/** True when the last request got an HTTP answer and the browser says it is online. */
export function isReachable(): boolean {
  return reachable && (typeof navigator === 'undefined' || navigator.onLine !== false);
}

/** Registers a listener called whenever reachability flips. */
export function onReachability(fn: ReachListener): void {
  listeners.push(fn);
}

/** An answer came over the save channel (channel.ts): the server is reachable. */
export function markReachable(): void {
  setReachable(true);
}

function setReachable(value: boolean): void {
  if (reachable === value) return;
  reachable = value;
  for (const fn of listeners) fn(value);
}

// The browser's own online/offline signal flips the state at once (no request needed).
if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => {
    for (const fn of listeners) fn(false);
  });
  window.addEventListener('online', () => {
    for (const fn of listeners) fn(reachable);
  });
}

/**
 * Sends one JSON request.
 * @param method HTTP method
 * @param path path under the server origin, e.g. `/attempts/att_x/answers`
 * @param body JSON-serialisable body (omitted for GET)
 * @param timeoutMs abort after this many milliseconds, the whole body read included
 *   (counts as `network`)
 */
export async function call<T>(method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<ApiResult<T>> {
  const controller = typeof AbortController !== 'undefined' ? new AbortController() : null;
  const timer = setTimeout(() => controller && controller.abort(), timeoutMs);
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      // The fewest header bytes a save can carry over the hall's Wi-Fi (issue 26): no Accept
      // (the browser's `*/*`; every answer is JSON), and the HTTP cache bypassed only for
      // reads, as 'no-store' makes Chromium add Pragma and Cache-Control (~43 B) while a
      // PUT or POST is never answered from the cache anyway. No Referer: the page's
      // Referrer-Policy is no-referrer. Plus the SEB JavaScript API's values for this page,
      // when the page runs in a newer SEB.
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...sebHeaders() },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: body === undefined ? 'no-store' : 'default',
      credentials: 'same-origin',
      signal: controller ? controller.signal : undefined,
    });
  } catch {
    clearTimeout(timer);
    setReachable(false);
    return { kind: 'network' };
  }
  let parsed: unknown = null;
  let text: string;
  try {
    text = await res.text();
  } catch {
    // the body stopped coming (time-out or the Wi-Fi dropped mid-way): no answer, as
    // above — never a 200 without its body
    clearTimeout(timer);
    setReachable(false);
    return { kind: 'network' };
  }
  clearTimeout(timer);
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  // A proxy or the server starting up may answer 502/503/504 without our problem body:
  // treat those like no answer, so the page keeps the answers and retries.
  if (res.status === 502 || res.status === 504 || (res.status === 503 && !(parsed && (parsed as Problem).code))) {
    setReachable(false);
    return { kind: 'network' };
  }
  setReachable(true);
  if (res.ok) return { kind: 'ok', status: res.status, body: parsed as T };
  const problem: Problem =
    parsed && typeof parsed === 'object' ? ({ ...(parsed as object), status: res.status } as Problem) : { status: res.status, title: res.statusText };
  noteProblem(problem);
  if (problem.retryAfterSeconds === undefined) {
    const ra = Number(res.headers.get('retry-after'));
    if (Number.isFinite(ra) && ra > 0) problem.retryAfterSeconds = ra;
  }
  return { kind: 'problem', status: res.status, problem };
}

/** Path of an attempt resource, with the id encoded. */
export function attemptPath(attemptId: string, rest = ''): string {
  return '/attempts/' + encodeURIComponent(attemptId) + rest;
}
