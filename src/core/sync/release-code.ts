/**
 * Release codes (docs/hub-protocol.md, "Release"): the secret an invigilator types to open
 * a sealed paper when the hall has no internet at the start time. 20 Crockford base32
 * characters (100 bits, from crypto.randomBytes) plus one Luhn mod 32 check character, shown
 * in groups of three: `ABC-DEF-GHJ-KMN-PQR-STV-WXY`. Read aloud by phone or sent by SMS, so
 * input is forgiving: case, spaces and dashes are ignored, O→0 and I/L→1 (Crockford), and
 * the check character catches every single mistyped character before any decryption.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DATA_LENGTH = 20;

/** Luhn mod N (N = 32) check character over Crockford base32 symbols. */
function checkChar(data: string): string {
  let factor = 2;
  let sum = 0;
  for (let i = data.length - 1; i >= 0; i--) {
    let addend = factor * ALPHABET.indexOf(data[i]!);
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / 32) + (addend % 32);
    sum += addend;
  }
  return ALPHABET[(32 - (sum % 32)) % 32]!;
}

/** A new release code, formatted for reading out (21 symbols in groups of three). */
export function newReleaseCode(): string {
  const bytes = randomBytes(DATA_LENGTH);
  let data = '';
  for (const b of bytes) data += ALPHABET[b & 31];
  return formatReleaseCode(data + checkChar(data));
}

/** `ABCDEFGHJ…` (21 symbols) → `ABC-DEF-…`. */
export function formatReleaseCode(symbols: string): string {
  return symbols.match(/.{1,3}/g)!.join('-');
}

export type ParsedReleaseCode = { ok: true; code: string } | { ok: false; reason: 'length' | 'character' | 'check' };

/**
 * Normalises what a person typed and checks it: `{ok, code}` where `code` is the 21
 * canonical symbols (the key-derivation input), or the reason it is not a release code.
 */
export function parseReleaseCode(typed: string): ParsedReleaseCode {
  const s = typed
    .toUpperCase()
    .replace(/[\s\-_.]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (s.length !== DATA_LENGTH + 1) return { ok: false, reason: 'length' };
  for (const ch of s) if (!ALPHABET.includes(ch)) return { ok: false, reason: 'character' };
  if (checkChar(s.slice(0, DATA_LENGTH)) !== s[DATA_LENGTH]) return { ok: false, reason: 'check' };
  return { ok: true, code: s };
}
