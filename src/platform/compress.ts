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
/**
 * Above this many bytes (a paper ~10× the maths paper, only near the paper size limits:
 * docs/decisions.md, "Paper size limits") a body is compressed with less effort: brotli q8
 * took ~50 ms of CPU on a 2.2 MB paper, q4 ~10 ms (issue #34 §3; the bytes decoded are the same).
 */
const LARGE_BODY_BYTES = 512 * 1024;
const LARGE_BROTLI_QUALITY = 4;
const LARGE_GZIP_LEVEL = 4;

/** The last large compression queued: large bodies are compressed one at a time (`oneLargeAtATime`). */
let largeTail: Promise<unknown> = Promise.resolve();
/**
 * Runs `work` after every large compression queued before it. Four candidates starting a
 * paper near the size limits at once put four ~10 ms brotli jobs in libuv's pool together;
 * on a 2-core hall machine they took both cores from the event loop that acknowledges the
 * other candidates' saves (issue #34 §3, docs/decisions.md "Large bodies are compressed one
 * at a time"). Queued, they leave it one core; the starts wait a few ms each.
 */
function oneLargeAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = largeTail.then(work, work);
  largeTail = run.catch(() => undefined);
  return run;
}

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

/** What a RawJson writes into JSON.stringify's text, to be replaced by its bytes (a string no JSON value of ours holds). */
const RAW_MARK = '\u0001raw-json\u0001';
const RAW_MARK_JSON = JSON.stringify(RAW_MARK);

/**
 * A JSON value of known size in UTF-8 bytes and a function that writes them, placed by
 * `compressedJson` where it stands in the data: a large value (the candidate's questions,
 * megabytes for the largest papers) is then written once, straight into the response body,
 * not serialised per response nor copied twice (each copy of a 2 MB body is fresh memory to
 * fault in and collect: issue #34 §3). At most one per response.
 */
export class RawJson {
  /**
   * @param byteLength how many bytes `write` writes
   * @param write writes the value's UTF-8 bytes into `out` from `at`; returns the bytes written (= byteLength)
   */
  constructor(
    readonly byteLength: number,
    readonly write: (out: Buffer, at: number) => number,
  ) {}
  /** what JSON.stringify writes in its place */
  toJSON(): string {
    return RAW_MARK;
  }
  /** the value as text (for tests) */
  toString(): string {
    const out = Buffer.allocUnsafe(this.byteLength);
    this.write(out, 0);
    return out.toString('utf8');
  }
}

/** JSON.stringify(data) as UTF-8, with the one RawJson in it (if any) written in place: one buffer of the exact size. */
function jsonBytes(data: unknown): Buffer<ArrayBuffer> {
  let raw: RawJson | null = null;
  // the replacer sees the value after toJSON: the holder still has the RawJson
  const text = JSON.stringify(data, function (this: Record<string, unknown>, k: string, v: unknown) {
    if (this[k] instanceof RawJson) raw = this[k];
    return v;
  });
  const found = raw as RawJson | null;
  const at = found ? text.indexOf(RAW_MARK_JSON) : -1;
  if (!found || at < 0) return Buffer.from(text, 'utf8');
  const before = text.slice(0, at);
  const after = text.slice(at + RAW_MARK_JSON.length);
  const head = Buffer.byteLength(before, 'utf8');
  const out = Buffer.allocUnsafe(head + found.byteLength + Buffer.byteLength(after, 'utf8')) as Buffer<ArrayBuffer>;
  out.write(before, 0, 'utf8');
  const wrote = found.write(out, head);
  out.write(after, head + wrote, 'utf8');
  return out;
}

/**
 * A JSON response, compressed as the request's Accept-Encoding allows. `data` may hold one
 * RawJson (the candidate's questions, sessions/paper-json.ts).
 * @returns a Response with `content-encoding` and `vary: accept-encoding` when compressed
 */
export async function compressedJson(data: unknown, status: number, acceptEncoding: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
  const body = jsonBytes(data);
  const encoding = body.length >= COMPRESS_MIN_BYTES ? chooseEncoding(acceptEncoding) : null;
  const base = { 'content-type': 'application/json', vary: 'accept-encoding', ...headers };
  if (!encoding) return new Response(body, { status, headers: base });
  const large = body.length > LARGE_BODY_BYTES;
  const compress = () =>
    encoding === 'br'
      ? br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: large ? LARGE_BROTLI_QUALITY : BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
      : gz(body, { level: large ? LARGE_GZIP_LEVEL : GZIP_LEVEL });
  const packed = await (large ? oneLargeAtATime(compress) : compress());
  return new Response(packed, { status, headers: { ...base, 'content-encoding': encoding } });
}
