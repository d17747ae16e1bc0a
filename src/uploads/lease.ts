/**
 * The turn of one job in a job process (job-pool.ts gives it out): byte streams are opened
 * on it (an upload as it arrives, streamed-upload.ts), then one job runs on it, or it is
 * dropped. An upload's bytes streamed into the child stay there (`StreamedBytes`); a job
 * that names them runs on their lease, which already has its turn.
 */
import type { JobChild } from './job-process.js';
import { FRAME, RECYCLE_AFTER_MB, type JobRequest, type TakeRequest, type Taken } from './job-protocol.js';

/**
 * An upload's bytes that were streamed into the job process (they are not in the server):
 * put it in a job where the bytes go, and the child sees a Uint8Array. `head` is the first
 * bytes (≤ HEAD_BYTES), for telling what the file is; `size` its length.
 */
export class StreamedBytes {
  constructor(
    readonly lease: Lease,
    readonly stream: number,
    readonly size: number,
    readonly head: Uint8Array,
  ) {}
}

/** One stream of bytes into the child, for `Lease.open`. */
export interface StreamSink {
  readonly stream: number;
  /** Writes a chunk; false when the pipe is full (then wait with `whenWritable`). */
  write(chunk: Uint8Array): boolean;
  whenWritable(then: () => void): void;
  end(): void;
  /** The stream is dropped (over a size cap, or the request failed). */
  abort(): void;
}

/**
 * The turn of one job: the slot and the child. Byte streams are opened on it (an upload
 * as it arrives), then one job runs on it (`run`), or it is dropped (`end` without a job).
 */
export class Lease {
  private streams = 0;
  private finished = false;
  /** the child works for this lease (reads its connection, or runs its job) */
  private running = false;
  /** bytes sent on this lease, and whether its job leaves the child large (`run`'s `retire`) */
  private sent = 0;
  private retire = false;
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort = () => this.cancel();
  /**
   * @param child the lane's child the job runs in
   * @param release gives the lane's turn back (job-slots.ts)
   * @param ended told once the lease ends, whether its job was large (more than
   *   RECYCLE_AFTER_MB sent, or a `retire` job): the pool then retires or idles the child
   * @param signal fires when the client went away (the lease is then cancelled)
   */
  constructor(
    private readonly child: JobChild,
    private readonly release: () => void,
    private readonly ended: (large: boolean) => void,
    signal?: AbortSignal,
  ) {
    this.signal = signal;
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The client went away: the job (or the reading of its upload) is stopped by killing its child, and the turn passes at once. */
  cancel(): void {
    if (this.released) return;
    // a lease with nothing in its child yet needs no kill
    if (this.streams || this.finished || this.running) this.child.kill('cancelled');
    this.finish();
  }

  /** Opens the next byte stream; `hint` is its expected size (0 unknown) so the child can take room once. */
  open(hint = 0): StreamSink {
    if (this.finished) throw new Error('open() on a finished lease');
    const stream = this.streams++;
    if (stream > 255) throw new Error('too many streams in one job');
    const child = this.child;
    child.frame(FRAME.BEGIN, stream, undefined, Math.max(0, Math.min(hint, 0xffffffff)));
    let closed = false;
    return {
      stream,
      write: (chunk) => {
        if (closed) return true;
        this.sent += chunk.length;
        return child.frame(FRAME.DATA, stream, chunk);
      },
      whenWritable: (then) => child.whenWritable(then),
      end: () => {
        if (!closed) child.frame(FRAME.END, stream);
        closed = true;
      },
      abort: () => {
        if (!closed) child.frame(FRAME.ABORT, stream);
        closed = true;
      },
    };
  }

  /**
   * The child reads a multipart body from the connection itself (streamed-upload.ts): its
   * file parts become this lease's first streams. Only before any stream is opened.
   * @param dropped resolves when the server's socket closed (the child then stops reading)
   */
  async take(request: TakeRequest, handle: unknown, dropped: Promise<void>): Promise<Taken> {
    if (this.finished || this.streams) throw new Error('take() must come first on a lease');
    this.running = true; // the child reads the connection: a cancel must stop it
    const taken = await this.child.take(request, handle, dropped);
    this.streams += taken.streams;
    this.sent += taken.bytes;
    return taken;
  }

  /** Takes byte arrays out of `value` (streams of their own) and streamed uploads (their stream's number). */
  private detach(value: unknown): unknown {
    if (value instanceof StreamedBytes) {
      if (value.lease !== this) throw new Error('a streamed upload of another request');
      return { $bytes: value.stream };
    }
    if (value instanceof Uint8Array) {
      const s = this.open(value.length);
      if (value.length) s.write(value);
      s.end();
      return { $bytes: s.stream };
    }
    if (Array.isArray(value)) return value.map((v) => this.detach(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.detach(v)]));
    return value;
  }

  /**
   * Runs `job` in the child (after every stream opened on this lease), then ends the
   * lease. `retire`: the job leaves the child large (the question engine, whose language
   * model is ~56 MB), so the child is ended after it.
   */
  async run<T>(job: JobRequest, retire = false): Promise<T> {
    if (this.finished) throw new Error('run() on a finished lease');
    this.retire = retire;
    this.running = true;
    try {
      const header = this.detach(job);
      return await this.child.call<T>(header, this.streams);
    } finally {
      this.finish();
    }
  }

  /** Ends the lease without a job: the child drops the streams it received, then the slot is free. */
  end(): void {
    if (this.finished) return;
    if (!this.streams || this.child.dead) return this.finish();
    this.child.call({ op: 'discard' }, this.streams).then(
      () => this.finish(),
      () => this.finish(),
    );
    this.finished = true; // no more streams or jobs on it; the slot is released by finish()
  }

  get done(): boolean {
    return this.finished;
  }

  private released = false;
  private finish(): void {
    this.finished = true;
    if (this.released) return;
    this.released = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.ended(this.retire || this.sent > RECYCLE_AFTER_MB * 1024 * 1024);
    this.release();
  }
}
