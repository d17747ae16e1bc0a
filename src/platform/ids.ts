/**
 * Opaque identifiers with a type prefix (docs/design.md §4): `ws_`, `ex_`, `q_`, `opt_`,
 * `att_`, `evt_`, `cand_`, `aud_`. Random part is base62 from crypto.randomBytes;
 * `att_` ids carry 22 base62 characters (> 128 bits): an attempt id is a capability.
 * `opt_` ids carry 5 (~30 bits): an option id need only differ from the other options of
 * its question (every lookup goes through the question; normaliseQuestion and the exam
 * copy redraw a clash), and the start response carries every option id of the paper,
 * where random characters do not compress (issue 26; docs/decisions.md).
 */
import { randomBytes, randomInt } from 'node:crypto';

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` random base62 characters (rejection sampling, no modulo bias). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    const buf = randomBytes(n * 2);
    for (let i = 0; i < buf.length && out.length < n; i++) {
      const b = buf[i] as number;
      if (b < 248) out += B62[b % 62];
    }
  }
  return out;
}

export type IdPrefix = 'ws' | 'ex' | 'q' | 'opt' | 'att' | 'evt' | 'cand' | 'aud' | 'tel' | 'gv';

/** Random characters of an option id (unique within its question, not globally). */
export const OPTION_ID_CHARS = 5;

/** New id such as `att_4hX…` (22 random chars for attempts, 5 for options, 16 otherwise). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(prefix === 'att' ? 22 : prefix === 'opt' ? OPTION_ID_CHARS : 16)}`;
}

/** Room-code alphabet without look-alikes (no 0/O/1/I/L), docs/design.md §5. */
export const ROOM_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A 6-character room code from the unambiguous alphabet. */
export function newRoomCode(length = 6): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ROOM_CODE_ALPHABET[randomInt(ROOM_CODE_ALPHABET.length)];
  return s;
}

/** A numeric PIN of `digits` digits (roster PINs: 6). */
export function newPin(digits = 6): string {
  let s = '';
  for (let i = 0; i < digits; i++) s += String(randomInt(10));
  return s;
}
