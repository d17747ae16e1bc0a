/**
 * Sealing a paper for one hall (docs/hub-protocol.md, "Sealed paper package"): the paper is
 * AES-256-GCM under a per-exam content key CK, with the package's identity as additional
 * data; CK is wrapped, per hall, under a key derived from that hall's release code with
 * HKDF-SHA256 (RFC 5869). A 100-bit release code cannot be searched offline, so a stolen
 * hall machine reveals nothing of the questions before release.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface GcmBox {
  alg: 'A256GCM';
  iv: string;
  tag: string;
  ciphertext: string;
}

export interface WrappedKey {
  alg: 'A256GCM+HKDF-SHA256';
  salt: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** The identity bound into a sealed paper (AAD): a package cannot be replayed as another. */
export interface PackageIdentity {
  packageId: string;
  hallId: string;
  examId: string;
  version: number;
}

const aadOf = (p: PackageIdentity) => Buffer.from(`${p.packageId}|${p.hallId}|${p.examId}|${p.version}`, 'utf8');

/** 32 random bytes: a new content key. */
export function newContentKey(): Buffer {
  return randomBytes(32);
}

function gcmEncrypt(key: Buffer, plaintext: Buffer, aad?: Buffer): { iv: string; tag: string; ciphertext: string } {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  if (aad) c.setAAD(aad);
  const ct = Buffer.concat([c.update(plaintext), c.final()]);
  return { iv: iv.toString('base64'), tag: c.getAuthTag().toString('base64'), ciphertext: ct.toString('base64') };
}

/** @throws Error when the key is wrong or anything was altered (GCM tag). */
function gcmDecrypt(key: Buffer, box: { iv: string; tag: string; ciphertext: string }, aad?: Buffer): Buffer {
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(box.iv, 'base64'));
  if (aad) d.setAAD(aad);
  d.setAuthTag(Buffer.from(box.tag, 'base64'));
  return Buffer.concat([d.update(Buffer.from(box.ciphertext, 'base64')), d.final()]);
}

/** The paper (any JSON value) sealed under CK for this package identity. */
export function sealPaper(contentKey: Buffer, paper: unknown, id: PackageIdentity): GcmBox {
  return { alg: 'A256GCM', ...gcmEncrypt(contentKey, Buffer.from(JSON.stringify(paper), 'utf8'), aadOf(id)) };
}

/** The paper back. @throws Error when the key, the identity or the box is wrong. */
export function openPaper(contentKey: Buffer, box: GcmBox, id: PackageIdentity): unknown {
  return JSON.parse(gcmDecrypt(contentKey, box, aadOf(id)).toString('utf8'));
}

function kekOf(releaseCode: string, salt: Buffer, hallId: string, examId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(releaseCode, 'utf8'), salt, `hallcbt release ${hallId} ${examId}`, 32));
}

/** CK wrapped under the key derived from a canonical release code (parseReleaseCode().code). */
export function wrapContentKey(contentKey: Buffer, releaseCode: string, hallId: string, examId: string): WrappedKey {
  const salt = randomBytes(16);
  return { alg: 'A256GCM+HKDF-SHA256', salt: salt.toString('base64'), ...gcmEncrypt(kekOf(releaseCode, salt, hallId, examId), contentKey) };
}

/** CK, or null when the release code does not open this wrapped key. */
export function unwrapContentKey(wrapped: WrappedKey, releaseCode: string, hallId: string, examId: string): Buffer | null {
  try {
    return gcmDecrypt(kekOf(releaseCode, Buffer.from(wrapped.salt, 'base64'), hallId, examId), wrapped);
  } catch {
    return null;
  }
}
