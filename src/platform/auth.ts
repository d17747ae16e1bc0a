/**
 * Where a request presents its key (docs/design.md §4): `x-api-key: <key>` or
 * `Authorization: Bearer <key>`. Both programs read keys this way; what a key opens is
 * theirs to decide (the hall: src/hall/auth.ts; the hub: src/hub/auth.ts).
 */

/** Extracts the presented API key from the request headers, or null. */
export function presentedKey(authorization: string | undefined, xApiKey: string | undefined): string | null {
  if (xApiKey && xApiKey.trim()) return xApiKey.trim();
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (m) return m[1]!;
  }
  return null;
}
