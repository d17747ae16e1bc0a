import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/platform/crypto.js';

describe('candidate PIN hashes (SecretBox.pinHash / verifyPin)', () => {
  const box = new SecretBox(randomBytes(32));
  const scope = 'exm_1\nSTU-001';

  it('verifies the right PIN and rejects a wrong one, another scope or another installation key', async () => {
    const stored = box.pinHash('4821', scope);
    expect(stored).toMatch(/^hmac1\$[A-Za-z0-9+/]{43}=$/);
    expect(stored).not.toContain('4821');
    expect(await box.verifyPin('4821', scope, stored)).toBe(true);
    expect(await box.verifyPin('4822', scope, stored)).toBe(false);
    expect(await box.verifyPin('4821', 'exm_1\nSTU-002', stored)).toBe(false);
    expect(await new SecretBox(randomBytes(32)).verifyPin('4821', scope, stored)).toBe(false);
    expect(await box.verifyPin('4821', scope, stored.slice(0, -2))).toBe(false);
  });

  it('still accepts a PIN stored as scrypt by an older version', async () => {
    const salt = randomBytes(16);
    const hash = scryptSync('4821', salt, 32, { N: 2 ** 14, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
    const legacy = `scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`;
    expect(await box.verifyPin('4821', scope, legacy)).toBe(true);
    expect(await box.verifyPin('1111', scope, legacy)).toBe(false);
  });
});
