/**
 * Release proofs (docs/hub-protocol.md, "Status"): a hall that opened a package shows the
 * hub a value only the release code yields, so the hub believes a "released" in a heartbeat
 * only from a hall that really held the code. The proof is HKDF-SHA256 (RFC 5869) of the
 * canonical release code (parseReleaseCode().code) with the hall and package in `info`:
 * one-way (it reveals nothing of the code) and bound to one hall's package, so it cannot be
 * passed off for another package or hall. Pure: node:crypto only.
 */
import { hkdfSync, timingSafeEqual } from 'node:crypto';

/** The proof (base64url, 32 bytes) that the holder of `canonicalCode` opened `packageId` at `hallId`. */
export function releaseProof(canonicalCode: string, hallId: string, packageId: string): string {
  return Buffer.from(hkdfSync('sha256', Buffer.from(canonicalCode, 'utf8'), Buffer.alloc(0), `hallcbt released ${hallId} ${packageId}`, 32)).toString('base64url');
}

/** Whether `proof` is the release proof of `canonicalCode` for this hall's package (constant-time compare). */
export function verifyReleaseProof(proof: string, canonicalCode: string, hallId: string, packageId: string): boolean {
  const want = Buffer.from(releaseProof(canonicalCode, hallId, packageId), 'utf8');
  const got = Buffer.from(proof, 'utf8');
  return got.length === want.length && timingSafeEqual(got, want);
}
