/**
 * Opaque identifiers with a type prefix (DESIGN §4): `ws_`, `ex_`, `q_`, `opt_`,
 * `att_`, `evt_`, `cand_`, `aud_`. Random part is base62 from crypto.randomBytes;
 * `att_` ids carry 22 base62 characters (> 128 bits): an attempt id is a capability.
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

export type IdPrefix = 'ws' | 'ex' | 'q' | 'opt' | 'att' | 'evt' | 'cand' | 'aud' | 'tel';

/** New id such as `att_4hX…` (22 random chars for attempts, 16 otherwise). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(prefix === 'att' ? 22 : 16)}`;
}

/** Room-code alphabet without look-alikes (no 0/O/1/I/L), DESIGN §5. */
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
