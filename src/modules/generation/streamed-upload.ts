/**
 * Multipart uploads streamed from the socket into the job process (issue 22 §1). hono's
 * form validator reads the whole body and undici copies each file into a Blob; an
 * earlier version of this middleware still gathered each file in one Buffer. Under a
 * barrage of 40 MB uploads during an exam those buffers (~300 MB per 30 s) set off the
 * server's garbage collections and tripled its CPU, which the candidates' saves felt.
 * Here busboy parses the body as it arrives, and each file part's chunks go straight
 * down the job process's stdin (job-process.ts `Lease`), at the pace the child takes them
 * (backpressure reaches the client's socket). The server keeps of a file only its first
 * 8 KB (`head`, to tell what it is) and its size. The form holds a stand-in empty File per
 * file part; `streamedUpload(file)` returns its StreamedBytes, which a job takes as bytes.
 *
 * The lease (the job process's one turn) is taken when the first file part begins, and
 * the job that reads the upload runs on it; when the request ends without such a job (a
 * 400, a 404, a 415 from its first bytes), the child drops the streams and the turn passes.
 * Over `maxFileBytes` a part is cut off and 413 answered at once, with `Connection: close`:
 * the rest of the body is not read. A full queue answers 503 the same way. Fields stay
 * strings, as before. Without a Node request (app.request in tests) the route parses as
 * before.
 */
import busboy from 'busboy';
import type { MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { AppEnv } from '../../platform/deps.js';
import { closeAfterEarlyAnswer } from '../../platform/early-answer.js';
import { PayloadTooLarge, ValidationError } from '../../platform/errors.js';
import { HEAD_BYTES, StreamedBytes, takeLease, type Lease, type StreamSink } from './job-process.js';

const streamed = new WeakMap<object, StreamedBytes>();

/** The StreamedBytes behind a stand-in File of `streamedForm`, or undefined for any other value. */
export function streamedUpload(file: unknown): StreamedBytes | undefined {
  return typeof file === 'object' && file !== null ? streamed.get(file) : undefined;
}

const malformed = (e: unknown) => new ValidationError(`The multipart form could not be read: ${(e as Error).message}`, [{ path: '(body)', message: 'malformed multipart form' }]);

/** Route middleware: parses a multipart body as a stream, its files into the job process, its fields into hono's form cache. */
export function streamedForm(maxFileBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const type = c.req.header('content-type') ?? '';
    if (!incoming || !type.toLowerCase().startsWith('multipart/form-data')) return next();
    const form = new FormData();
    let leased = null as Promise<Lease> | null;
    try {
      await new Promise<void>((resolve, reject) => {
        let bb: busboy.Busboy;
        try {
          bb = busboy({ headers: incoming.headers, limits: { fileSize: maxFileBytes, files: 4, fields: 50, fieldSize: 1024 * 1024 } });
        } catch (e) {
          return reject(malformed(e));
        }
        let failed = false;
        const sinks = new Set<StreamSink>();
        /** Stops reading: the answer goes out now and the connection closes after it. */
        const fail = (e: unknown) => {
          if (failed) return;
          failed = true;
          for (const s of sinks) s.abort(); // the child drops what it got (the lease's end then passes the turn)
          incoming.unpipe(bb);
          incoming.resume();
          closeAfterEarlyAnswer(incoming, c.env?.outgoing);
          reject(e);
        };
        const pending: Promise<void>[] = [];
        // the child takes room for a file of the body's size once (pages never written cost nothing)
        const declared = Number(incoming.headers['content-length']);
        const hint = Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, maxFileBytes) : 0;
        bb.on('file', (name, stream, info) => {
          stream.pause();
          pending.push(
            (async () => {
              let lease: Lease;
              try {
                leased ??= takeLease();
                lease = await leased;
              } catch (e) {
                stream.resume();
                return fail(e);
              }
              if (failed) return void stream.resume();
              const sink = lease.open(hint);
              sinks.add(sink);
              const head = Buffer.alloc(HEAD_BYTES);
              let size = 0;
              await new Promise<void>((done) => {
                stream.on('data', (d: Buffer) => {
                  if (failed) return;
                  if (size < HEAD_BYTES) d.copy(head, size, 0, Math.min(d.length, HEAD_BYTES - size));
                  size += d.length;
                  if (!sink.write(d)) {
                    stream.pause();
                    sink.whenWritable(() => stream.resume());
                  }
                });
                stream.on('limit', () => {
                  sink.abort();
                  fail(new PayloadTooLarge(maxFileBytes));
                });
                stream.on('close', () => {
                  if (failed) sink.abort();
                  else sink.end();
                  const stand = new File([], info.filename ?? '', { type: info.mimeType });
                  streamed.set(stand, new StreamedBytes(lease, sink.stream, size, new Uint8Array(head.buffer, head.byteOffset, Math.min(size, HEAD_BYTES))));
                  form.set(name, stand);
                  done();
                });
                stream.resume();
              });
            })(),
          );
        });
        bb.on('field', (name, value) => form.append(name, value));
        bb.on('error', (e) => fail(malformed(e)));
        bb.on('close', () => {
          void Promise.all(pending).then(() => (failed ? undefined : resolve()));
        });
        // a client that goes away mid-body: no job will come, the turn must pass
        incoming.on('close', () => {
          if (!incoming.complete) fail(malformed(new Error('the upload was interrupted')));
        });
        incoming.pipe(bb);
      });
      (c.req as unknown as { bodyCache: { formData?: FormData } }).bodyCache.formData = form;
      await next();
    } finally {
      // the job that read the upload ended the lease; otherwise the child drops its streams
      leased?.then(
        (l: Lease) => l.end(),
        () => {},
      );
    }
  };
}
