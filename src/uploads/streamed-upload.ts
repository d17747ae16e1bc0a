/**
 * Multipart uploads streamed from the socket into the job process (issue 22 §1). hono's
 * form validator reads the whole body and undici copies each file into a Blob; an
 * earlier version of this middleware still gathered each file in one Buffer. Under a
 * barrage of 40 MB uploads during an exam those buffers (~300 MB per 30 s) set off the
 * server's garbage collections and tripled its CPU, which the candidates' saves felt.
 * Here busboy parses the body as it arrives, and each file part's chunks go straight
 * down the job process's stdin (lease.ts `Lease`), at the pace the child takes them
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
 *
 * A body with a Content-Length that has not all arrived is not read here at all: the
 * connection is handed to the job process, which reads and parses it (`handOver` below);
 * the rest of this middleware is the path of chunked bodies, small forms already read
 * whole, and TLS connections.
 */
import busboy from 'busboy';
import type { MiddlewareHandler } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AppEnv } from '../platform/deps.js';
import { closeAfterEarlyAnswer, readAgain, stopReadingForGood } from '../platform/early-answer.js';
import { PayloadTooLarge, ValidationError } from '../platform/errors.js';
import type { JobPool } from './job-pool.js';
import { HEAD_BYTES } from './job-protocol.js';
import { SMALL_UPLOAD_BYTES, type UploadContext } from './job-slots.js';
import { StreamedBytes, type Lease, type StreamSink } from './lease.js';

/** A socket's libuv handle, as far as the handover touches it. */
interface TcpHandle {
  readStop(): number;
  readStart(): number;
  constructor: { name: string };
}

/**
 * Whether the connection of `incoming` can be handed to the job process: a body of known
 * length (no Transfer-Encoding) not yet all read, that nobody has begun to consume, on a
 * plain TCP socket (not TLS: its bytes are the TLS layer's, which stays in the server).
 */
function canHandOver(incoming: IncomingMessage): TcpHandle | null {
  if (incoming.headers['transfer-encoding'] !== undefined || !/^\d{1,15}$/.test(incoming.headers['content-length'] ?? '')) return null;
  // a body already all read (a small form) is parsed here, as before
  if (incoming.complete || incoming.readableLength >= Number(incoming.headers['content-length'])) return null;
  if (incoming.readableFlowing !== null || incoming.readableEnded) return null;
  const handle = (incoming.socket as Socket & { _handle?: TcpHandle | null })._handle;
  return handle && handle.constructor?.name === 'TCP' ? handle : null;
}

/**
 * The body is read by the job process from the connection itself (issue 22 §1): a 39 MB
 * upload read by the server cost ~600 reads of 64 KB into JavaScript, busboy's scan and a
 * pipe write each, and the garbage of all of them, while candidates saved. Here the server
 * stops reading the socket for good (its HTTP parser gets no more bytes: Node's `upgrade`
 * path stops it the same way), takes the job turn, and sends the child a duplicate of the
 * socket's descriptor with the body bytes its parser had already read and the count still
 * to come; the child reads exactly those, parses them with the same limits and keeps the
 * files as the lease's streams. The server then answers as always, on its own copy, with
 * `Connection: close` (its parser never saw the end of the body).
 */
async function handOver(jobs: JobPool, incoming: IncomingMessage, outgoing: ServerResponse | undefined, handle: TcpHandle, maxFileBytes: number, form: FormData, ctx: UploadContext): Promise<Lease> {
  const socket = incoming.socket as Socket;
  outgoing?.setHeader('connection', 'close');
  // While it waits for its turn the server reads the body's first QUEUED_READ_BYTES (then
  // its parser stops the socket): a small upload arrives whole, and a client that goes away
  // meanwhile is seen at once (its FIN comes after the bytes it sent; docs/decisions.md,
  // "Upload lanes, a quota per workspace, abandoned uploads leave at once").
  const chunks: Buffer[] = [];
  let early = 0;
  const keep = (d: Buffer) => {
    chunks.push(d);
    early += d.length;
    if (early >= QUEUED_READ_BYTES) incoming.pause();
  };
  incoming.on('data', keep);
  let lease: Lease;
  try {
    lease = await jobs.takeLease(ctx);
  } catch (e) {
    incoming.off('data', keep);
    stopReadingForGood(socket);
    closeAfterEarlyAnswer(incoming, outgoing);
    throw e;
  } finally {
    incoming.off('data', keep);
    incoming.pause();
  }
  // the child reads this connection now: the server must not until it is done (a read here would take bytes from the body)
  stopReadingForGood(socket);
  const dropped = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // what the parser had read before the stop is in the request's buffer (nothing flows now)
  for (let chunk: Buffer | null; (chunk = incoming.read() as Buffer | null) !== null; ) chunks.push(chunk);
  const already = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const declared = Number(incoming.headers['content-length']);
  const remaining = declared - already.length;
  try {
    // the client went away (or the request timed out) while the upload waited for its turn
    if (socket.destroyed) throw malformed(new Error('the upload was interrupted'));
    const taken = await lease.take({ contentType: incoming.headers['content-type'] ?? '', maxFileBytes, hint: Math.min(declared, maxFileBytes), already, remaining }, remaining > 0 ? handle : undefined, dropped);
    if (taken.error) throw taken.error.kind === 'limit' ? new PayloadTooLarge(maxFileBytes) : malformed(new Error(taken.error.message));
    // the whole body is read: the server watches the connection again, so a client that goes away while its job runs is seen (its job is cancelled)
    readAgain(socket);
    for (const [name, value] of taken.fields) form.append(name, value);
    // no file: the turn passes now (as when the server parsed the form, a job of the handler's own takes it)
    if (!taken.streams) lease.end();
    for (const f of taken.files) {
      const stand = new File([], f.filename, { type: f.mimeType });
      streamed.set(stand, new StreamedBytes(lease, f.stream, f.size, f.head));
      form.set(f.name, stand);
    }
    return lease;
  } catch (e) {
    // no job comes: the child drops what it read, and the turn passes
    closeAfterEarlyAnswer(incoming, outgoing);
    lease.end();
    throw e;
  }
}

const streamed = new WeakMap<object, StreamedBytes>();

/** The StreamedBytes behind a stand-in File of `streamedForm`, or undefined for any other value. */
export function streamedUpload(file: unknown): StreamedBytes | undefined {
  return typeof file === 'object' && file !== null ? streamed.get(file) : undefined;
}

const malformed = (e: unknown) => new ValidationError(`The multipart form could not be read: ${(e as Error).message}`, [{ path: '(body)', message: 'malformed multipart form' }]);

/** Bytes of a large upload's body the server reads while it waits for its turn (a small upload's whole body), bytes. */
export const QUEUED_READ_BYTES = SMALL_UPLOAD_BYTES;

/**
 * The upload context of a request (job-slots.ts): its workspace (the API key's, when the
 * route checked one), its lane (small when `smallLane` and its Content-Length is at most
 * SMALL_UPLOAD_BYTES), and a signal that fires when its client goes away before the answer
 * (the connection closed, the request aborted). `detach` removes the listeners.
 */
function contextOf(incoming: IncomingMessage, outgoing: ServerResponse | undefined, workspaceId: string | undefined, smallLane: boolean): { ctx: UploadContext; detach: () => void } {
  const length = incoming.headers['content-length'];
  const small = smallLane && incoming.headers['transfer-encoding'] === undefined && /^\d{1,15}$/.test(length ?? '') && Number(length) <= SMALL_UPLOAD_BYTES;
  const gone = new AbortController();
  const socket = incoming.socket;
  const leave = () => {
    if (!outgoing?.headersSent && (socket.destroyed || incoming.errored || !incoming.complete)) gone.abort();
  };
  socket.once('close', leave);
  incoming.once('aborted', leave);
  incoming.once('close', leave);
  return {
    ctx: { workspaceId, lane: small ? 'small' : 'main', signal: gone.signal },
    detach: () => {
      socket.off('close', leave);
      incoming.off('aborted', leave);
      incoming.off('close', leave);
    },
  };
}

/**
 * Route middleware: parses a multipart body as a stream, its files into the job process,
 * its fields into hono's form cache, and runs the route in the request's upload context
 * (job-slots.ts: the workspace's quota, the lane, the client's signal).
 * @param jobs the program's job pool (its dependencies), whose children read the files
 * @param maxFileBytes a file part's cap (413 over it)
 * @param opts.smallLane whether small bodies may use the small lane (the imports; not the question engine)
 */
export function streamedForm(jobs: JobPool, maxFileBytes: number, opts: { smallLane?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const type = c.req.header('content-type') ?? '';
    if (!incoming || !type.toLowerCase().startsWith('multipart/form-data')) return next();
    const form = new FormData();
    let leased = null as Promise<Lease> | null;
    const handle = canHandOver(incoming);
    const { ctx, detach } = contextOf(incoming, c.env?.outgoing, (c.var as { workspace?: { id: string } }).workspace?.id, opts.smallLane ?? false);
    try {
      if (handle) {
        leased = handOver(jobs, incoming, c.env?.outgoing, handle, maxFileBytes, form, ctx);
        await leased;
      } else await new Promise<void>((resolve, reject) => {
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
                leased ??= jobs.takeLease(ctx);
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
      await jobs.context.run(ctx, next);
    } finally {
      detach();
      // the job that read the upload ended the lease; otherwise the child drops its streams
      leased?.then(
        (l: Lease) => l.end(),
        () => {},
      );
    }
  };
}
