/**
 * Determinism helpers: the extractive engine never uses Math.random. Every choice is
 * drawn from a PRNG seeded by a hash of the input, so the same material, settings and
 * count always give the same questions (issue 7: "Deterministic for the same input").
 */
import { createHash } from 'node:crypto';
import { mulberry32 } from '../../random.js';

/** Hex SHA-256 of the parts joined with a unit separator. */
export function hashHex(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.map(String).join('\u001f')).digest('hex');
}

/** Deterministic id: `prefix` + the first 12 hex digits of the hash of the parts (48 bits). */
export function shortId(prefix: string, ...parts: (string | number)[]): string {
  return `${prefix}${hashHex(...parts).slice(0, 12)}`;
}

/** A uint32 seed from the parts. */
export function seedOf(...parts: (string | number)[]): number {
  return parseInt(hashHex(...parts).slice(0, 8), 16) >>> 0;
}

/** Seeded PRNG (mulberry32, src/core/random.ts): returns floats in [0, 1). */
export function prng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** Fisher–Yates shuffle of a copy of `items` driven by `rand`. */
export function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Stable tie-breaker: a number in [0, 1) derived from the seed and a key. */
export function tieBreak(seed: number, key: string): number {
  return parseInt(hashHex(seed, key).slice(0, 8), 16) / 4294967296;
}
