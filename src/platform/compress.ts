/**
 * Compressed JSON responses for the few large bodies a hall's Wi-Fi carries at exam start
 * (issue #26): the paper in the start/resume response and in GET /attempts/:id. Brotli when
 * the browser offers it (RFC 7932), else gzip, else plain; bodies under 1 KB go plain
 * (compression would not pay for its header). Browsers offer brotli only to a secure
 * origin: Chromium asks a hall server on plain HTTP at a LAN address for `gzip, deflate`
 * (measured, docs/benchmarks.md), over HTTPS or on loopback for `gzip, deflate, br, zstd`.
 * The work runs in libuv's thread pool, not on the event loop that serves the saves.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const br = promisify(brotliCompress);
const gz = promisify(gzip);
/** Smaller bodies are sent as they are. */
export const COMPRESS_MIN_BYTES = 1024;
// Measured on the 60-question maths paper (240 KB of JSON with its rendered HTML), CPU per
// compression: brotli q5 7.4 KB in 1.3 ms, q8 7.1 KB in 2.1 ms, q9 7.0 KB in 13 ms; gzip 6
// 14.1 KB in 1.3 ms, 8 13.3 KB in 2.3 ms, 9 13.3 KB in 2.9 ms (docs/benchmarks.md): the last
// level before the CPU jumps, ~1 ms more per start than q5 / level 6
const BROTLI_QUALITY = 8;
const GZIP_LEVEL = 8;

/** Which encoding to use for an Accept-Encoding header value (q=0 means "not this one"). */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const offered = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    offered.set(name!.trim(), q ? Number(q[1]) : 1);
  }
  const ok = (n: string) => (offered.get(n) ?? offered.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/**
 * A JSON response, compressed as the request's Accept-Encoding allows.
 * @returns a Response with `content-encoding` and `vary: accept-encoding` when compressed
 */
export async function compressedJson(data: unknown, status: number, acceptEncoding: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
  const body = Buffer.from(JSON.stringify(data), 'utf8');
  const encoding = body.length >= COMPRESS_MIN_BYTES ? chooseEncoding(acceptEncoding) : null;
  const base = { 'content-type': 'application/json', vary: 'accept-encoding', ...headers };
  if (!encoding) return new Response(body, { status, headers: base });
  const packed =
    encoding === 'br'
      ? await br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
      : await gz(body, { level: GZIP_LEVEL });
  return new Response(packed, { status, headers: { ...base, 'content-encoding': encoding } });
}
