/**
 * The hub's secrets: its Ed25519 signing key pair (created on first start, stored in
 * PostgreSQL with the private key sealed under the hub key file, so every hub process signs
 * with the same key) and examiners' API keys (SHA-256 digest lookup; the plaintext is shown
 * once).
 */
import { eq } from 'drizzle-orm';
import { newSigningKeyPair } from '../core/sync/signing.js';
import { newApiKey, sha256Hex, type SecretBox } from '../platform/crypto.js';
import { newHubId } from './ids.js';
import type { HubDb } from './db/index.js';
import { hubExaminers, hubKeys } from './db/schema.js';

export interface HubSigningKey {
  publicKey: string;
  privateKey: string;
}

/** The hub's signing key pair; the first process to ask creates it (a race inserts once). */
export async function loadHubSigningKey(db: HubDb, box: SecretBox, now: Date): Promise<HubSigningKey> {
  const existing = await db.select().from(hubKeys).where(eq(hubKeys.id, 1));
  if (existing[0]) {
    try {
      return { publicKey: existing[0].publicKey, privateKey: box.open(existing[0].privateKeySealed) };
    } catch {
      throw new Error("this hub's key file (HUB_DATA_DIR/hub-secret.key) is not the one this database was set up with: copy the first hub's key file to every hub process");
    }
  }
  const pair = newSigningKeyPair();
  await db.insert(hubKeys).values({ id: 1, publicKey: pair.publicKey, privateKeySealed: box.seal(pair.privateKey), createdAt: now }).onConflictDoNothing();
  return loadHubSigningKey(db, box, now);
}

/** A new examiner and their API key (returned once, stored only as a digest). */
export async function createExaminer(db: HubDb, name: string, now: Date): Promise<{ id: string; name: string; apiKey: string }> {
  const apiKey = newApiKey();
  const id = newHubId('hexm');
  await db.insert(hubExaminers).values({ id, name, keyDigest: sha256Hex(apiKey), createdAt: now });
  return { id, name, apiKey };
}

/** The examiner holding `apiKey`, or null. */
export async function examinerByKey(db: HubDb, apiKey: string): Promise<{ id: string; name: string } | null> {
  const rows = await db.select({ id: hubExaminers.id, name: hubExaminers.name }).from(hubExaminers).where(eq(hubExaminers.keyDigest, sha256Hex(apiKey)));
  return rows[0] ?? null;
}

/** Number of examiners (the hub creates the first one on its first start). */
export async function examinerCount(db: HubDb): Promise<number> {
  const rows = await db.select({ id: hubExaminers.id }).from(hubExaminers).limit(1);
  return rows.length;
}
