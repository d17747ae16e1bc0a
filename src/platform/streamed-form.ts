/**
 * Multipart bodies read as a stream (busboy) for routes that take large files (issue 22
 * §1). hono's form validator reads the whole body, then undici's parser copies each file
 * into a Blob, and the handler copies it again: a 39 MB upload cost ~160 MB of the
 * server's memory at once. Here each file part is copied once, as it arrives, into its
 * own Buffer (`maxFileBytes` each, else 413) and handed to the validator as an empty stand-in File;
 * `uploadedBytes(file)` returns the real bytes. Fields stay strings, as before.
 * Without a Node request (app.request in tests) the route parses as before.
 */
import busboy from 'busboy';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './deps.js';
import { PayloadTooLarge, ValidationError } from './errors.js';

const bytesOf = new WeakMap<object, Uint8Array>();

/** The bytes behind a stand-in File of `streamedForm`, or undefined for any other value. */
export function uploadedBytes(file: unknown): Uint8Array | undefined {
  return typeof file === 'object' && file !== null ? bytesOf.get(file) : undefined;
}

/** Route middleware: parses a multipart body as a stream into hono's form cache. */
export function streamedForm(maxFileBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = (c.env as { incoming?: import('node:http').IncomingMessage } | undefined)?.incoming;
    const type = c.req.header('content-type') ?? '';
    if (!incoming || !type.toLowerCase().startsWith('multipart/form-data')) return next();
    const form = new FormData();
    await new Promise<void>((resolve, reject) => {
      let bb: busboy.Busboy;
      try {
        bb = busboy({ headers: incoming.headers, limits: { fileSize: maxFileBytes, files: 4, fields: 50, fieldSize: 1024 * 1024 } });
      } catch (e) {
        return reject(new ValidationError(`The multipart form could not be read: ${(e as Error).message}`, [{ path: '(body)', message: 'malformed multipart form' }]));
      }
      let failure: Error | null = null;
      const pending: Promise<void>[] = [];
      // a file is at most the body: with a Content-Length its bytes are copied, as they
      // arrive, into one buffer of that size (pages never written cost no memory), not
      // gathered and then concatenated (twice the file, at the peak)
      const declared = Number(incoming.headers['content-length']);
      const room = Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, maxFileBytes) : 0;
      bb.on('file', (name, stream, info) => {
        const chunks: Buffer[] = [];
        const into = room ? Buffer.allocUnsafeSlow(room) : null;
        let at = 0;
        pending.push(
          new Promise<void>((done) => {
            stream.on('data', (d: Buffer) => {
              if (into && at + d.length <= into.length) at += d.copy(into, at);
              else chunks.push(d);
            });
            stream.on('limit', () => (failure ??= new PayloadTooLarge(maxFileBytes)));
            stream.on('close', () => {
              const stand = new File([], info.filename ?? '', { type: info.mimeType });
              if (!failure) bytesOf.set(stand, into && !chunks.length ? new Uint8Array(into.buffer, into.byteOffset, at) : new Uint8Array(Buffer.concat([into ? into.subarray(0, at) : Buffer.alloc(0), ...chunks])));
              chunks.length = 0;
              form.set(name, stand);
              done();
            });
          }),
        );
      });
      bb.on('field', (name, value) => form.append(name, value));
      bb.on('error', (e) => reject(failure ?? new ValidationError(`The multipart form could not be read: ${(e as Error).message}`, [{ path: '(body)', message: 'malformed multipart form' }])));
      bb.on('close', () => {
        void Promise.all(pending).then(() => (failure ? reject(failure) : resolve()));
      });
      incoming.pipe(bb);
    });
    (c.req as unknown as { bodyCache: { formData?: FormData } }).bodyCache.formData = form;
    return next();
  };
}
