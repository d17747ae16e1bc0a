/**
 * The hub ↔ hall protocol's pure parts (src/core/sync): release codes, signed requests,
 * signed envelopes and sealed papers. Each refusal the protocol promises is exercised.
 */
import { describe, expect, it } from 'vitest';
import { newReleaseCode, parseReleaseCode } from '../../src/core/sync/release-code.js';
import { checkSignedRequest, newSigningKeyPair, openEnvelope, sealEnvelope, signRequest } from '../../src/core/sync/signing.js';
import { newContentKey, openPaper, sealPaper, unwrapContentKey, wrapContentKey } from '../../src/core/sync/seal.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('release codes', () => {
  it('are 21 symbols in groups of three and parse back, however they are typed', () => {
    const code = newReleaseCode();
    expect(code).toMatch(/^([0-9A-HJKMNP-TV-Z]{3}-){6}[0-9A-HJKMNP-TV-Z]{3}$/);
    const canonical = code.replace(/-/g, '');
    expect(parseReleaseCode(code)).toEqual({ ok: true, code: canonical });
    const sloppy = ` ${code.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l')} `;
    expect(parseReleaseCode(sloppy)).toEqual({ ok: true, code: canonical });
  });

  it('catch every single mistyped symbol and every adjacent transposition of different symbols', () => {
    const canonical = newReleaseCode().replace(/-/g, '');
    for (let i = 0; i < canonical.length; i++) {
      for (const ch of ALPHABET) {
        if (ch === canonical[i]) continue;
        const typo = canonical.slice(0, i) + ch + canonical.slice(i + 1);
        expect(parseReleaseCode(typo).ok, `${typo}`).toBe(false);
      }
    }
    for (let i = 0; i + 1 < canonical.length; i++) {
      if (canonical[i] === canonical[i + 1]) continue;
      const swapped = canonical.slice(0, i) + canonical[i + 1] + canonical[i] + canonical.slice(i + 2);
      // Luhn mod N misses only the swap of two symbols whose values sum to N-1 in some positions; count them below
      if (parseReleaseCode(swapped).ok) expect(ALPHABET.indexOf(canonical[i]!) + ALPHABET.indexOf(canonical[i + 1]!)).toBe(31);
    }
  });

  it('say why a code is refused', () => {
    expect(parseReleaseCode('ABC-DEF')).toEqual({ ok: false, reason: 'length' });
    expect(parseReleaseCode('ABC-DEF-GHJ-KMN-PQR-STV-WXU')).toEqual({ ok: false, reason: 'character' });
  });
});

describe('signed requests', () => {
  const hall = newSigningKeyPair();
  const now = 1_800_000_000_000;
  const req = { method: 'POST', pathWithQuery: '/hub/v1/results', body: '{"eventId":"evt_1"}' };
  const headers = signRequest({ hallId: 'hall_1', privateKey: hall.privateKey, ...req, now, nonce: 'bm9uY2Vub25jZW5vbmNl' });
  const h = { timestamp: headers['x-hall-timestamp'], nonce: headers['x-hall-nonce'], signature: headers['x-hall-signature'] };

  it('verify with the hall key and report the clock offset', () => {
    expect(checkSignedRequest({ publicKey: hall.publicKey, ...req, headers: h, now: now - 1500 })).toEqual({ ok: true, clockOffsetMs: 1500 });
  });

  it('refuse another body, path, method, key or a stale timestamp', () => {
    const other = newSigningKeyPair();
    expect(checkSignedRequest({ publicKey: hall.publicKey, ...req, body: '{"eventId":"evt_2"}', headers: h, now })).toEqual({ ok: false, reason: 'signature' });
    expect(checkSignedRequest({ publicKey: hall.publicKey, ...req, pathWithQuery: '/hub/v1/heartbeat', headers: h, now })).toEqual({ ok: false, reason: 'signature' });
    expect(checkSignedRequest({ publicKey: hall.publicKey, ...req, method: 'PUT', headers: h, now })).toEqual({ ok: false, reason: 'signature' });
    expect(checkSignedRequest({ publicKey: other.publicKey, ...req, headers: h, now })).toEqual({ ok: false, reason: 'signature' });
    expect(checkSignedRequest({ publicKey: hall.publicKey, ...req, headers: h, now: now + 6 * 60_000 })).toEqual({ ok: false, reason: 'clock' });
    expect(checkSignedRequest({ publicKey: hall.publicKey, ...req, headers: { ...h, nonce: undefined }, now })).toEqual({ ok: false, reason: 'headers' });
  });
});

describe('envelopes', () => {
  const hub = newSigningKeyPair();
  it('open only with the hub key and only unaltered', () => {
    const env = sealEnvelope(hub.privateKey, { hallId: 'hall_1', n: 1 });
    expect(openEnvelope(hub.publicKey, env)).toEqual({ hallId: 'hall_1', n: 1 });
    expect(openEnvelope(newSigningKeyPair().publicKey, env)).toBeNull();
    expect(openEnvelope(hub.publicKey, { ...env, payload: env.payload.replace('hall_1', 'hall_2') })).toBeNull();
    expect(openEnvelope(hub.publicKey, { payload: 3, signature: env.signature })).toBeNull();
  });
});

describe('sealed papers', () => {
  const id = { packageId: 'pkg_1', hallId: 'hall_1', examId: 'hex_1', version: 2 };
  const paper = { questions: [{ prompt: 'What is the powerhouse of the cell?', options: ['Mitochondrion', 'Nucleus'] }] };

  it('hold no readable question text and open with the release code of that hall only', () => {
    const ck = newContentKey();
    const box = sealPaper(ck, paper, id);
    expect(JSON.stringify(box)).not.toMatch(/powerhouse|Mitochondrion/);
    const code = parseReleaseCode(newReleaseCode());
    if (!code.ok) throw new Error('bad code');
    const wrapped = wrapContentKey(ck, code.code, id.hallId, id.examId);
    const opened = unwrapContentKey(wrapped, code.code, id.hallId, id.examId);
    expect(opened?.equals(ck)).toBe(true);
    expect(openPaper(opened!, box, id)).toEqual(paper);

    const otherCode = parseReleaseCode(newReleaseCode());
    if (!otherCode.ok) throw new Error('bad code');
    expect(unwrapContentKey(wrapped, otherCode.code, id.hallId, id.examId)).toBeNull();
    expect(unwrapContentKey(wrapped, code.code, 'hall_2', id.examId)).toBeNull();
  });

  it('refuse a package replayed under another identity', () => {
    const ck = newContentKey();
    const box = sealPaper(ck, paper, id);
    expect(() => openPaper(ck, box, { ...id, hallId: 'hall_2' })).toThrow();
    expect(() => openPaper(ck, box, { ...id, version: 1 })).toThrow();
  });
});
