/**
 * Checking that a candidate request comes from Safe Exam Browser running this exam's
 * configuration (https://safeexambrowser.org/developer/seb-config-key.html, "Checking the
 * Config Key which SEB clients send with HTTP requests").
 *
 * Accepted evidence, any one of:
 * 1. `X-SafeExamBrowser-ConfigKeyHash` = SHA-256(absolute request URL without fragment +
 *    Config Key), hex — what SEB sends with every request (classic WebView, SEB for Windows);
 * 2. `X-SafeExamBrowser-RequestHash` = SHA-256(URL + Browser Exam Key) for one of the
 *    exam's listed Browser Exam Keys (centres that pin an SEB version);
 * 3. the JavaScript API's values for the candidate page (newer SEB versions expose
 *    `SafeExamBrowser.security.configKey` = SHA-256(page URL + Config Key) and send no
 *    header): the page sends them as `x-seb-page-url` + `x-seb-config-key-hash` (or
 *    `x-seb-browser-exam-key-hash`); the page URL must be this server's candidate page.
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
  /** lower-case hex Browser Exam Keys the examiner listed */
  browserExamKeys: string[];
  /** the configuration's quit URL (shown to the candidate after submit) */
  quitUrl: string;
  /** keyless http(s) URL of the .seb file (its seb:// form opens SEB) */
  configUrl: string;
}

export type SebVerdict = 'ok' | 'missing' | 'mismatch';

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
 * Judges one request of an exam that requires SEB.
 * @returns 'ok', 'missing' (no SEB evidence at all) or 'mismatch' (evidence that does not
 *   match this exam's configuration, URL or keys)
 */
export function verifySebRequest(c: Context<AppEnv>, config: Pick<Config, 'CBT_TLS_CERT' | 'CBT_TRUSTED_PROXIES'>, gate: SebGate): SebVerdict {
  const ck = c.req.header('x-safeexambrowser-configkeyhash');
  const rh = c.req.header('x-safeexambrowser-requesthash');
  const pageCk = c.req.header('x-seb-config-key-hash');
  const pageBek = c.req.header('x-seb-browser-exam-key-hash');
  if (!ck && !rh && !pageCk && !pageBek) return 'missing';
  const origin = requestOrigin(c, config);
  if (ck || rh) {
    const url = `${origin}${c.env?.incoming?.url ?? pathAndQuery(c.req.url)}`;
    if (ck && digestEquals(sha256Hex(url + gate.configKey), ck)) return 'ok';
    if (rh && anyKey(url, gate.browserExamKeys, rh)) return 'ok';
  }
  const page = candidatePageUrl(c.req.header('x-seb-page-url'), origin);
  if (page) {
    if (pageCk && digestEquals(sha256Hex(page + gate.configKey), pageCk)) return 'ok';
    if (pageBek && anyKey(page, gate.browserExamKeys, pageBek)) return 'ok';
  }
  return 'mismatch';
}

function anyKey(url: string, keys: string[], received: string): boolean {
  let ok = false;
  // every key is compared, so the time does not tell which one matched
  for (const k of keys) ok = digestEquals(sha256Hex(url + k), received) || ok;
  return ok;
}
