/**
 * Ed25519 signatures between a hall and its hub (docs/hub-protocol.md, "Keys", "Signed
 * requests", "Signed responses"). Keys travel as base64 SPKI / PKCS#8 DER. Every check
 * returns a reason rather than throwing, so both sides can answer a clear problem and write
 * an audit row naming it.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** Largest accepted difference between a request's timestamp and the verifier's clock. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export interface SigningKeyPair {
  /** base64 SPKI DER */
  publicKey: string;
  /** base64 PKCS#8 DER: keep it sealed at rest */
  privateKey: string;
}

/** A new Ed25519 key pair (node:crypto). */
export function newSigningKeyPair(): SigningKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
  };
}

function privateKeyOf(b64: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(b64, 'base64'), format: 'der', type: 'pkcs8' });
}

/** The public key as a KeyObject. @throws Error when it is not an Ed25519 SPKI key. */
export function publicKeyOf(b64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(b64, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 public key');
  return key;
}

/** base64 Ed25519 signature of `message`. */
export function signMessage(privateKey: string, message: string | Buffer): string {
  return sign(null, Buffer.from(message), privateKeyOf(privateKey)).toString('base64');
}

/** true when `signature` (base64) is `publicKey`'s signature of `message`; never throws. */
export function verifyMessage(publicKey: string, message: string | Buffer, signature: string): boolean {
  try {
    return verify(null, Buffer.from(message), publicKeyOf(publicKey), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** Lowercase hex SHA-256 of the body bytes (an absent body hashes as empty). */
export function bodyDigest(body: string | Uint8Array | undefined): string {
  return createHash('sha256').update(body ?? '').digest('hex');
}

/** The string a hall signs for one request (docs/hub-protocol.md). */
export function requestCanonical(r: { method: string; pathWithQuery: string; timestamp: number; nonce: string; body?: string | Uint8Array }): string {
  return ['HALLCBT-REQ-1', r.method.toUpperCase(), r.pathWithQuery, String(r.timestamp), r.nonce, bodyDigest(r.body)].join('\n');
}

/** The four headers of a signed hall → hub request. */
export function signRequest(r: { hallId: string; privateKey: string; method: string; pathWithQuery: string; body?: string; now: number; nonce: string }): Record<string, string> {
  const canonical = requestCanonical({ method: r.method, pathWithQuery: r.pathWithQuery, timestamp: r.now, nonce: r.nonce, body: r.body });
  return {
    'x-hall-id': r.hallId,
    'x-hall-timestamp': String(r.now),
    'x-hall-nonce': r.nonce,
    'x-hall-signature': signMessage(r.privateKey, canonical),
  };
}

export type RequestCheck = { ok: true; clockOffsetMs: number } | { ok: false; reason: 'headers' | 'signature' | 'clock' };

/**
 * Checks a signed request's signature and timestamp (not the nonce: the caller records it
 * where every hub process sees it). `clockOffsetMs` = hall clock − verifier clock.
 */
export function checkSignedRequest(r: { publicKey: string; method: string; pathWithQuery: string; body?: string | Uint8Array; headers: { timestamp?: string; nonce?: string; signature?: string }; now: number }): RequestCheck {
  const { timestamp, nonce, signature } = r.headers;
  const ts = Number(timestamp);
  if (!timestamp || !nonce || !signature || !Number.isSafeInteger(ts) || !/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return { ok: false, reason: 'headers' };
  const canonical = requestCanonical({ method: r.method, pathWithQuery: r.pathWithQuery, timestamp: ts, nonce, body: r.body });
  if (!verifyMessage(r.publicKey, canonical, signature)) return { ok: false, reason: 'signature' };
  if (Math.abs(ts - r.now) > MAX_CLOCK_SKEW_MS) return { ok: false, reason: 'clock' };
  return { ok: true, clockOffsetMs: ts - r.now };
}

/** A hub → hall envelope: the payload as a JSON string and the hub's signature of it. */
export interface Envelope {
  payload: string;
  signature: string;
}

const ENVELOPE_PREFIX = 'HALLCBT-HUB-1\n';

/** Signs `payload` (any JSON value) into an envelope. */
export function sealEnvelope(privateKey: string, payload: unknown): Envelope {
  const text = JSON.stringify(payload);
  return { payload: text, signature: signMessage(privateKey, ENVELOPE_PREFIX + text) };
}

/** The envelope's parsed payload when the hub's signature holds; null otherwise (never throws). */
export function openEnvelope(publicKey: string, envelope: { payload?: unknown; signature?: unknown }): unknown {
  if (typeof envelope?.payload !== 'string' || typeof envelope.signature !== 'string') return null;
  if (!verifyMessage(publicKey, ENVELOPE_PREFIX + envelope.payload, envelope.signature)) return null;
  try {
    return JSON.parse(envelope.payload);
  } catch {
    return null;
  }
}
