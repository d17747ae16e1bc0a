/**
 * An exam's Safe Exam Browser requirement (issue 25): the columns behind
 * `requireSafeExamBrowser`, the configuration they generate, its Config Key, the
 * download code that guards its .seb file, and the links that open it. The configuration
 * is a pure function of the exam row (room code, base URL fixed when SEB was switched on,
 * quit-password hash), so the server and every SEB client agree on the key after a
 * restart, and the gate is cached with the paper.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import type { HallDeps } from '../../hall/deps.js';
import type { ExamRow } from '../exams/service.js';
import { reachableUrls } from '../system/urls.js';
import { sha256Hex } from '../../core/seb/config-key.js';
import { examConfiguration, type SebExamSettings } from '../../core/seb/config-file.js';
import { requestOrigin, type SebGate } from './verify.js';

/** Letters and digits an invigilator can read and type without confusing them (no I, L, O, 0, 1). */
const QUIT_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** The SEB-specific create/patch input (zod-validated in core/exams/schemas.ts). */
export interface SebInput {
  requireSafeExamBrowser?: boolean;
  safeExamBrowser?: { browserExamKeys?: string[]; quitPassword?: string; baseUrl?: string };
}

/** The SEB columns of an exam row. */
export interface SebColumns {
  require_seb: number;
  seb_base_url: string | null;
  seb_quit_password: string | null;
  seb_quit_hash: string | null;
  seb_browser_exam_keys: string | null;
}

/** The exam's start and quit URLs and quit-password hash; null when SEB is not required. */
export function sebExamSettings(e: Pick<ExamRow, 'access_code'> & SebColumns): SebExamSettings | null {
  if (!e.require_seb || !e.seb_base_url || !e.seb_quit_hash) return null;
  return { startUrl: `${e.seb_base_url}/?room=${e.access_code}`, quitUrl: `${e.seb_base_url}/?quit=1`, quitPasswordHash: e.seb_quit_hash };
}

/** What candidate requests of the exam are checked against; null when SEB is not required. */
export function sebGateFor(e: Pick<ExamRow, 'access_code'> & SebColumns): SebGate | null {
  const s = sebExamSettings(e);
  if (!s) return null;
  return { configKey: examConfiguration(s).configKey, browserExamKeys: registeredKeys(e), quitUrl: s.quitUrl };
}

/** The exam's registered Browser Exam Keys (lower-case hex; [] = BEK not checked). */
export function registeredKeys(e: Pick<SebColumns, 'seb_browser_exam_keys'>): string[] {
  return e.seb_browser_exam_keys ? (JSON.parse(e.seb_browser_exam_keys) as string[]) : [];
}

/**
 * The exam's .seb download code: 10 characters of the quit-password alphabet (~49 bits)
 * taken from SHA-256 over the exam id, room code and the sealed quit password (random IV
 * + ciphertext, never shown outside the database). So it needs no column, survives a
 * restart, and changes when the room code or the quit password changes (how an examiner
 * revokes a leaked link). Null when SEB is not required.
 * Rule: docs/decisions.md, "Safe Exam Browser: the .seb file needs a download code".
 */
export function sebDownloadCode(e: Pick<ExamRow, 'id' | 'access_code'> & SebColumns): string | null {
  if (!sebExamSettings(e) || !e.seb_quit_password) return null;
  const digest = createHash('sha256').update(`hallcbt seb download v1\n${e.id}\n${e.access_code}\n${e.seb_quit_password}`, 'utf8').digest();
  let out = '';
  for (let i = 0; i < 10; i++) out += QUIT_ALPHABET[digest[i]! % QUIT_ALPHABET.length];
  return out;
}

/** http(s) URL of the .seb file behind the download code (its seb:// form opens SEB); null when SEB is off. */
export function sebConfigUrl(e: Pick<ExamRow, 'id' | 'access_code'> & SebColumns): string | null {
  const code = sebDownloadCode(e);
  return code ? `${e.seb_base_url}/rooms/${e.access_code}/safe-exam-browser/${code}.seb` : null;
}

/** `seb://` or `sebs://` form of an http(s) URL (SEB opens it and loads the .seb file). */
export function sebLink(httpUrl: string): string {
  return httpUrl.replace(/^http(s?):\/\//, 'seb$1://');
}

/** `safeExamBrowser` in the exam's read shape (API key only: it carries the download code). */
export function sebReadShape(e: Pick<ExamRow, 'id' | 'access_code'> & SebColumns) {
  const s = sebExamSettings(e);
  const gate = sebGateFor(e);
  const configUrl = sebConfigUrl(e);
  return {
    required: !!s,
    configKey: gate?.configKey ?? null,
    startUrl: s?.startUrl ?? null,
    quitUrl: s?.quitUrl ?? null,
    configUrl,
    sebUrl: configUrl ? sebLink(configUrl) : null,
    downloadCode: sebDownloadCode(e),
    browserExamKeys: gate?.browserExamKeys ?? [],
  };
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
