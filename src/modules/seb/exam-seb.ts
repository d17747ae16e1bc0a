/**
 * Switching an exam's Safe Exam Browser requirement on and off (issue 25): the columns
 * behind `requireSafeExamBrowser` as a create or patch sets them, the quit password and
 * the base URL the hall PCs use. What the columns then generate (configuration, Config
 * Key, download code, links) is in gate.ts.
 */
import { randomInt } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import { reachableUrls } from '../system/index.js';
import { sha256Hex } from '../../core/seb/config-key.js';
import { QUIT_ALPHABET, requestOrigin, type SebColumns } from '../seb-check/index.js';

/** The SEB-specific create/patch input (zod-validated in core/exams/schemas.ts). */
export interface SebInput {
  requireSafeExamBrowser?: boolean;
  safeExamBrowser?: { browserExamKeys?: string[]; quitPassword?: string; baseUrl?: string };
}

/** A quit password an invigilator can type: 10 characters of an unambiguous alphabet (~49 bits). */
export function newQuitPassword(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += QUIT_ALPHABET[randomInt(QUIT_ALPHABET.length)];
  return out;
}

/**
 * The base URL hall PCs use, as seen from the request that switches SEB on:
 * CBT_PUBLIC_URL when set, else the request's origin, with a loopback host replaced by
 * the first LAN address the server listens on (an examiner at the server's own keyboard).
 */
export function sebBaseUrlFor(deps: HallDeps, c: Context<AppEnv>): string {
  if (deps.config.CBT_PUBLIC_URL) return deps.config.CBT_PUBLIC_URL;
  const origin = requestOrigin(c, deps.config);
  const u = new URL(origin);
  if (/^(localhost|127\.|\[::1\])/.test(u.hostname) || u.hostname === '[::1]') {
    // only an address the server listens on (HOST=127.0.0.1 keeps it on this machine)
    const { urls, thisMachineOnly } = reachableUrls(deps.config.HOST, Number(u.port) || (u.protocol === 'https:' ? 443 : 80), u.protocol === 'https:');
    if (!thisMachineOnly && urls[0]) return urls[0].replace(/\/$/, '');
  }
  return origin;
}

/**
 * New SEB column values for a create or patch. Switching SEB on fixes the base URL and
 * issues a quit password unless the exam has them or the input gives them.
 * @param origin the base URL to use when none is fixed yet (sebBaseUrlFor)
 */
export function sebColumnsAfter(deps: HallDeps, cur: SebColumns | null, input: SebInput, origin: () => string): SebColumns {
  const next: SebColumns = cur ? { ...cur } : { require_seb: 0, seb_base_url: null, seb_quit_password: null, seb_quit_hash: null, seb_browser_exam_keys: null };
  if (input.requireSafeExamBrowser !== undefined) next.require_seb = input.requireSafeExamBrowser ? 1 : 0;
  const o = input.safeExamBrowser ?? {};
  if (o.baseUrl) next.seb_base_url = o.baseUrl.replace(/\/+$/, '');
  if (o.quitPassword) {
    next.seb_quit_password = deps.secrets.seal(o.quitPassword);
    next.seb_quit_hash = sha256Hex(o.quitPassword);
  }
  if (o.browserExamKeys) next.seb_browser_exam_keys = o.browserExamKeys.length ? JSON.stringify([...new Set(o.browserExamKeys.map((k) => k.toLowerCase()))]) : null;
  if (next.require_seb) {
    next.seb_base_url ??= origin();
    if (!next.seb_quit_hash) {
      const pw = newQuitPassword();
      next.seb_quit_password = deps.secrets.seal(pw);
      next.seb_quit_hash = sha256Hex(pw);
    }
  }
  return next;
}
