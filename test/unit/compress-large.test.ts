/**
 * platform/compress.ts `compressedJson`: large bodies (over 512 KB) are compressed one at a
 * time (docs/decisions.md, "Large bodies are compressed one at a time"); several started
 * together must each come back whole and as their own body, in either encoding, and small
 * ones must not wait behind them.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressedJson } from '../../src/platform/compress.js';

/** a JSON body of about `kb` KB, different for each `tag` */
const bigBody = (tag: string, kb: number) => ({ tag, rows: Array.from({ length: Math.ceil((kb * 1024) / 100) }, (_, i) => `${tag}-${i}-${'x'.repeat(90)}`) });

async function decoded(r: Response): Promise<unknown> {
  const raw = Buffer.from(await r.arrayBuffer());
  const enc = r.headers.get('content-encoding');
  const text = enc === 'br' ? brotliDecompressSync(raw) : enc === 'gzip' ? gunzipSync(raw) : raw;
  return JSON.parse(text.toString('utf8'));
}

describe('large bodies compressed one at a time', () => {
  it('gives each of several concurrent large responses its own whole body, brotli and gzip alike', async () => {
    const bodies = ['a', 'b', 'c', 'd'].map((t) => bigBody(t, 700));
    const rs = await Promise.all(bodies.map((b, i) => compressedJson(b, 200, i % 2 ? 'gzip' : 'gzip, deflate, br')));
    expect(rs.map((r) => r.headers.get('content-encoding'))).toEqual(['br', 'gzip', 'br', 'gzip']);
    for (const [i, r] of rs.entries()) expect(await decoded(r)).toEqual(bodies[i]);
  });

  it('does not hold a small body behind the large ones queued before it', async () => {
    const order: string[] = [];
    // the first queued the largest: compressed at once, the smaller ones would finish first
    const bodies = [4000, 1200, 600].map((kb, k) => bigBody(`L${k + 1}`, kb));
    const large = bodies.map((b) => compressedJson(b, 200, 'br').then(() => order.push(b.tag)));
    const small = compressedJson(bigBody('S', 20), 200, 'br').then(() => order.push('S'));
    await Promise.all([...large, small]);
    // the large ones in the order queued; the small one not after the last of them (three
    // serial compressions of 0.6–4 MB take well over one of 20 KB)
    expect(order.filter((x) => x !== 'S')).toEqual(['L1', 'L2', 'L3']);
    expect(order.indexOf('S')).toBeLessThan(order.indexOf('L3'));
  });
});
