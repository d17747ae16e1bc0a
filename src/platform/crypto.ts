/**
 * Secrets at rest (docs/design.md §4): API keys, webhook secrets and roster PINs are stored
 * AES-256-GCM encrypted under a per-installation key file (`<DATA_DIR>/secret.key`,
 * mode 0600); API keys are looked up by a SHA-256 digest column. Passwords are hashed
 * with scrypt (OWASP: N=2^17, r=8, p=1). Candidate-chosen PINs are hashed with
 * HMAC-SHA-256 under a key derived from the installation key (see `SecretBox.pinHash`).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBase62 } from './ids.js';

/** Encrypts and decrypts short secrets with one installation key. */
export class SecretBox {
  private readonly pinKey: Buffer;
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox key must be 32 bytes');
    this.pinKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'hallcbt candidate pin v1', 32));
  }
  /**
   * Keyed hash of a candidate-chosen PIN → `hmac1$<b64>`: HMAC-SHA-256 of `scope` + PIN
   * under a subkey of the installation key (RFC 5869 HKDF). A 4–8 digit PIN has at most
   * 10^8 values, so a slow salted hash (scrypt 2^14 ≈ 40 ms) would fall to a search of
   * the database file in minutes anyway while making a hall's 1,000 simultaneous starts
   * queue for 30 s; the keyed hash cannot be searched at all without `secret.key`, which
   * is never inside the database or its backups. Online guessing is throttled (5 / 15 min).
   * `scope` ties the hash to one exam and student ID (`<examId>\n<studentId>`).
   */
  pinHash(pin: string, scope: string): string {
    return `hmac1$${createHmac('sha256', this.pinKey).update(`${scope}\n${pin.normalize('NFKC')}`, 'utf8').digest('base64')}`;
  }
  /**
   * Checks a PIN against `pinHash()` output in constant time; also accepts the older
   * `scrypt$…` form written before version 1.2 (slow, but only on resume).
   */
  async verifyPin(pin: string, scope: string, stored: string): Promise<boolean> {
    if (stored.startsWith('scrypt$')) return verifySecret(pin, stored);
    const a = Buffer.from(this.pinHash(pin, scope));
    const b = Buffer.from(stored);
    return a.length === b.length && timingSafeEqual(a, b);
  }
  /**
   * Loads `<path>` or creates it (32 random bytes, mode 0600). A new key is written to a
   * temporary file, fsynced, renamed into place and the directory fsynced: a power cut
   * right after the first start must not leave an empty key file (found by the
   * power-cut rounds of the crash campaign, issue 22 §5).
   */
  static fromKeyFile(path: string): SecretBox {
    if (!existsSync(path)) writeFileDurably(path, randomBytes(32), 0o600);
    chmodSync(path, 0o600);
    return new SecretBox(readFileSync(path));
  }
  /** plaintext → `v1.<iv b64>.<tag b64>.<ciphertext b64>` */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
    return `v1.${iv.toString('base64')}.${c.getAuthTag().toString('base64')}.${ct.toString('base64')}`;
  }
  /** Reverses seal(). @throws Error when the value was tampered with or the key differs. */
  open(sealed: string): string {
    const [v, iv, tag, ct] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('malformed sealed secret');
    const d = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    d.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([d.update(Buffer.from(ct, 'base64')), d.final()]).toString('utf8');
  }
}

/** New API key: `cbt_` + 40 base62 characters (docs/design.md §4). */
export function newApiKey(): string {
  return `cbt_${randomBase62(40)}`;
}

/** New webhook signing secret: `whsec_` + 40 base62 characters. */
export function newWebhookSecret(): string {
  return `whsec_${randomBase62(40)}`;
}

/** Lowercase hex SHA-256 of a string (API key lookup column). */
export function sha256Hex(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

/** Constant-time equality of two strings (compares their SHA-256 digests). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

const SCRYPT = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };

/** scrypt hash → `scrypt$N$r$p$<salt b64>$<hash b64>`. `cost` lowers N for PINs (tests too). */
export async function hashSecret(secret: string, N = SCRYPT.N): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, N);
  return `scrypt$${N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Verifies `secret` against a hashSecret() string in constant time. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const N = Number(parts[1]);
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const got = await scryptAsync(secret, salt, N);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

function scryptAsync(secret: string, salt: Buffer, N: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFKC'), salt, 32, { N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Writes `bytes` to `path` so that after a power cut the file is either absent or whole (temp file, fsync, rename, fsync of the directory). */
export function writeFileDurably(path: string, bytes: Uint8Array, mode: number): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
