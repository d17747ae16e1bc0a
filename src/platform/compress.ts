/**
 * Compressed JSON responses for the few large bodies a hall's Wi-Fi carries at exam start
 * (issue #26): the paper in the start/resume response and in GET /attempts/:id. Brotli when
 * the browser offers it (RFC 7932; every browser does over HTTP too), else gzip, else plain;
 * bodies under 1 KB go plain (compression would not pay for its header). The work runs in
 * libuv's thread pool, not on the event loop that serves the saves.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const br = promisify(brotliCompress);
const gz = promisify(gzip);
/** Smaller bodies are sent as they are. */
export const COMPRESS_MIN_BYTES = 1024;
// quality 5: most of brotli's gain on JSON (measured on a 60-question paper: 25.8 KB → ~4 KB) at a small share of q11's CPU
const BROTLI_QUALITY = 5;

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
      : await gz(body, { level: 6 });
  return new Response(packed, { status, headers: { ...base, 'content-encoding': encoding } });
}
