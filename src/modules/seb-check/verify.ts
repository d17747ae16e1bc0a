/**
 * Checking a candidate request of an exam that requires Safe Exam Browser
 * (https://safeexambrowser.org/developer/seb-config-key.html, "Checking the Config Key which
 * SEB clients send with HTTP requests"; the Browser Exam Key specification,
 * https://safeexambrowser.org/developer/documents/SEB-Specification-BrowserExamKey.pdf).
 *
 * Two checks, judged separately (docs/operations.md §12; docs/decisions.md, "Safe Exam
 * Browser: the Config Key is not proof of SEB"):
 * 1. Config: `X-SafeExamBrowser-ConfigKeyHash` = SHA-256(absolute request URL without
 *    fragment + Config Key), or the JavaScript API's value for the candidate page
 *    (`x-seb-page-url` + `x-seb-config-key-hash` = SHA-256(page URL + Config Key), what
 *    newer SEB versions expose instead of the header). The Config Key is computable from
 *    the .seb file, so this proves only that the client has the configuration.
 * 2. Browser Exam Key, only when the exam lists some: `X-SafeExamBrowser-RequestHash` =
 *    SHA-256(absolute request URL + BEK) for one listed key. The BEK is derived by SEB from
 *    its own binary and the configuration and never sent in clear, so only that SEB build
 *    (or someone who extracted its key) can compute the per-URL hash. The JS API's
 *    `browserExamKey` value is NOT accepted here: it is one value per page URL, so one
 *    sniffed value would pass every request of every seat.
 * Comparisons are constant-time. The URL is the one the browser used: scheme from TLS,
 * host from `Host`, path and query as sent; behind a proxy listed in
 * CBT_TRUSTED_PROXIES, from its `X-Forwarded-Proto` / `X-Forwarded-Host`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { Config } from '../../platform/config.js';
import { peerAddress } from '../../platform/http.js';
import { sha256Hex } from '../../core/seb/config-key.js';

/** What an exam that requires SEB checks against (cached with the exam's paper). */
export interface SebGate {
  configKey: string;
  /** lower-case hex Browser Exam Keys the examiner registered; [] = BEK not checked */
  browserExamKeys: string[];
  /** the configuration's quit URL (shown to the candidate after submit) */
  quitUrl: string;
}

/** The two checks of one request (shown per seat on the monitor). */
export interface SebCheck {
  configKey: 'ok' | 'missing' | 'mismatch';
  browserExamKey: 'ok' | 'missing' | 'mismatch' | 'not-checked';
  /** where the Config evidence came from: a per-request header, or the page's JS-API value (one per page URL) */
  evidence: 'request' | 'page' | null;
}

/** Why a request failed, or 'ok' ('missing'/'mismatch' are the Config check's). */
export type SebVerdict = 'ok' | 'missing' | 'mismatch' | 'bek-missing' | 'bek-mismatch';

/** A RequestHash that matched no registered key, for the examiner to confirm a BEK against. */
export interface RequestHashSeen {
  requestUrl: string;
  requestHash: string;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** Constant-time equality of two hex digests (case-insensitive); false for anything not 64 hex digits. */
export function digestEquals(expectedHex: string, receivedHex: string | undefined): boolean {
  if (!receivedHex || !HEX64.test(receivedHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(receivedHex, 'hex'));
}

function pathAndQuery(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** scheme://host of the request as the browser addressed it (see the module header). */
export function requestOrigin(c: Context<AppEnv>, config: Pick<Config, 'CBT_TLS_CERT' | 'CBT_TRUSTED_PROXIES'>): string {
  let proto = config.CBT_TLS_CERT ? 'https' : 'http';
  let host = c.req.header('host') ?? new URL(c.req.url).host;
  if (config.CBT_TRUSTED_PROXIES.length && config.CBT_TRUSTED_PROXIES.includes(peerAddress(c))) {
    const fp = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    const fh = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (fp === 'http' || fp === 'https') proto = fp;
    if (fh && /^[A-Za-z0-9.:[\]-]+$/.test(fh)) host = fh;
  }
  return `${proto}://${host}`;
}

/** The page URL a JS-API value was computed for, when it is this server's candidate page (fragment removed). */
function candidatePageUrl(pageUrl: string | undefined, origin: string): string | null {
  if (!pageUrl || pageUrl.length > 2048) return null;
  const noFragment = pageUrl.split('#')[0]!;
  let u: URL;
  try {
    u = new URL(noFragment);
  } catch {
    return null;
  }
  return u.origin === origin && u.pathname === '/' ? noFragment : null;
}

/**
 * Judges one request of an exam that requires SEB: both checks, and the RequestHash that
 * matched no registered key (null when none was sent or it matched).
 */
export function checkSebRequest(c: Context<AppEnv>, config: Pick<Config, 'CBT_TLS_CERT' | 'CBT_TRUSTED_PROXIES'>, gate: SebGate): { check: SebCheck; unmatched: RequestHashSeen | null } {
  const ck = c.req.header('x-safeexambrowser-configkeyhash');
  const rh = c.req.header('x-safeexambrowser-requesthash');
  const pageCk = c.req.header('x-seb-config-key-hash');
  const origin = requestOrigin(c, config);
  const url = `${origin}${c.env?.incoming?.url ?? pathAndQuery(c.req.url)}`;
  const check: SebCheck = { configKey: 'missing', browserExamKey: gate.browserExamKeys.length ? 'missing' : 'not-checked', evidence: null };
  if (ck) {
    check.configKey = digestEquals(sha256Hex(url + gate.configKey), ck) ? 'ok' : 'mismatch';
    if (check.configKey === 'ok') check.evidence = 'request';
  }
  if (check.configKey !== 'ok' && pageCk) {
    const page = candidatePageUrl(c.req.header('x-seb-page-url'), origin);
    check.configKey = page && digestEquals(sha256Hex(page + gate.configKey), pageCk) ? 'ok' : 'mismatch';
    if (check.configKey === 'ok') check.evidence = 'page';
  }
  let unmatched: RequestHashSeen | null = null;
  if (rh) {
    const matched = anyKey(url, gate.browserExamKeys, rh);
    if (gate.browserExamKeys.length) check.browserExamKey = matched ? 'ok' : 'mismatch';
    if (!matched && HEX64.test(rh)) unmatched = { requestUrl: url, requestHash: rh.toLowerCase() };
  }
  return { check, unmatched };
}

/** The verdict of a check: 'ok' when the Config check passed and the BEK check passed or is off. */
export function sebVerdict(check: SebCheck): SebVerdict {
  if (check.configKey !== 'ok') return check.configKey;
  if (check.browserExamKey === 'missing') return 'bek-missing';
  if (check.browserExamKey === 'mismatch') return 'bek-mismatch';
  return 'ok';
}

/** Which of `keys` explains `hash` for `url` (SHA-256(url + key)); null when none does. */
export function keyForHash(url: string, keys: string[], hash: string): string | null {
  let found: string | null = null;
  // every key is compared, so the time does not tell which one matched
  for (const k of keys) if (digestEquals(sha256Hex(url + k), hash)) found = k;
  return found;
}

function anyKey(url: string, keys: string[], received: string): boolean {
  return keyForHash(url, keys, received) !== null;
}
