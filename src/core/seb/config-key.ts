/**
 * Safe Exam Browser's Config Key (https://safeexambrowser.org/developer/seb-config-key.html):
 * the settings of a .seb file serialised as "SEB-JSON", hashed with SHA-256, Base16.
 *
 * SEB-JSON, as that page specifies it:
 * - the root key `originatorVersion` is left out (metadata of the saving SEB version);
 * - no whitespace and no character escaping (a backslash in a URL filter stays one
 *   backslash, a string is written between quotes as it is);
 * - every dictionary — the root, nested ones, ones inside arrays — is ordered by key,
 *   case-insensitively and culture-invariantly; keys that differ only in case are ordered
 *   lower case first ("allowWlan" before "allowWLAN");
 * - empty dictionaries are left out; `<data>` is written as a Base64 string, `<date>` as
 *   an ISO 8601 string; strings are UTF-8 (the hash is taken over the UTF-8 bytes).
 *
 * Implementations differ where the page is silent (SEB for Windows writes a `"` inside a
 * string as `\"`, dates differ between clients), so the settings HallCBT generates never
 * contain a quote, a backslash or a date (see `assertPortable`).
 */
import { createHash } from 'node:crypto';

/** A plist value as the `plist` package parses it. */
export type PlistValue = string | number | boolean | Date | Uint8Array | PlistValue[] | { [key: string]: PlistValue };

/** Key order of SEB-JSON: case-insensitive ordinal, then lower case first at the first difference. */
export function compareSebKeys(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  // same letters: the key with a lower-case letter at the first differing place first
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] === la[i] ? -1 : 1;
  }
  return 0;
}

function isDict(v: PlistValue): v is { [key: string]: PlistValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof Uint8Array);
}

function serialise(v: PlistValue, out: string[]): void {
  if (typeof v === 'string') out.push('"', v, '"');
  else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
  else if (typeof v === 'number') out.push(String(v));
  else if (v instanceof Date) out.push('"', v.toISOString(), '"');
  else if (v instanceof Uint8Array) out.push('"', Buffer.from(v).toString('base64'), '"');
  else if (Array.isArray(v)) {
    out.push('[');
    v.forEach((item, i) => {
      if (i > 0) out.push(',');
      serialise(item, out);
    });
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const key of Object.keys(v).sort(compareSebKeys)) {
      const value = v[key]!;
      if (isDict(value) && Object.keys(value).length === 0) continue; // empty dictionaries are left out
      if (!first) out.push(',');
      first = false;
      out.push('"', key, '":');
      serialise(value, out);
    }
    out.push('}');
  }
}

/**
 * The SEB-JSON string of a settings dictionary (the root of a .seb plist).
 * @param settings parsed plist root; not changed
 */
export function sebJson(settings: { [key: string]: PlistValue }): string {
  const { originatorVersion: _left, ...rest } = settings;
  const out: string[] = [];
  serialise(rest, out);
  return out.join('');
}

/** SHA-256 (lower-case hex) of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The Config Key of a settings dictionary: SHA-256 of its SEB-JSON, lower-case hex (64 chars). */
export function configKey(settings: { [key: string]: PlistValue }): string {
  return sha256Hex(sebJson(settings));
}

/**
 * Refuses settings whose SEB-JSON the SEB implementations would not agree on: a string
 * with `"` or `\`, a date, or two keys differing only in case.
 * @throws Error naming the key
 */
export function assertPortable(v: PlistValue, path = 'settings'): void {
  if (typeof v === 'string' && /["\\]/.test(v)) throw new Error(`${path}: quotes and backslashes are not portable in SEB-JSON`);
  if (v instanceof Date) throw new Error(`${path}: dates are not portable in SEB-JSON`);
  if (Array.isArray(v)) v.forEach((item, i) => assertPortable(item, `${path}[${i}]`));
  else if (isDict(v)) {
    const seen = new Set<string>();
    for (const [k, item] of Object.entries(v)) {
      if (seen.has(k.toLowerCase())) throw new Error(`${path}.${k}: keys differing only in case are not portable`);
      seen.add(k.toLowerCase());
      assertPortable(item, `${path}.${k}`);
    }
  }
}
