/**
 * What an exam's Safe Exam Browser columns generate (issue 25): the configuration, its
 * Config Key, the registered Browser Exam Keys, the download code that guards the .seb
 * file, and the links that open it. The configuration is a pure function of the exam row
 * (room code, base URL fixed when SEB was switched on, quit-password hash), so the server
 * and every SEB client agree on the key after a restart, and the gate is cached with the
 * paper (sessions/paper.ts).
 */
import { createHash } from 'node:crypto';
import type { ExamRow } from '../../db/rows.js';
import { examConfiguration, type SebExamSettings } from '../../core/seb/config-file.js';
import type { SebGate } from './verify.js';

/** Letters and digits an invigilator can read and type without confusing them (no I, L, O, 0, 1). */
export const QUIT_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

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
