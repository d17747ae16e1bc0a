/**
 * What the server and a job process say to each other (job-process.ts, job-child.ts), and
 * the limits of a job process. Job data goes over IPC (`{job, streams}`, relayed by the
 * launcher), each byte array of a job through stdin as a numbered stream of frames
 * (`[type u8][stream u8][length u32 LE]` then `length` bytes: BEGIN with a u32 size hint,
 * DATA, END, ABORT). A job names its arrays `{$bytes: i}`; the child waits for `streams`
 * streams to end, runs the job and answers one IPC message. Streams of one job may
 * interleave (two file parts of a form). The limits' reasons: docs/decisions.md, "Heavy
 * parsing in a child process".
 */

/**
 * A job for a job process: its `op` names what the child runs (the upload readers of
 * job-child.ts, or a job of a module the program gave its pool, job-pool.ts `jobModules`);
 * the rest is the job's data, byte arrays and streamed uploads included.
 */
export interface JobRequest {
  op: string;
  [data: string]: unknown;
}

/**
 * A connection handed to the child to read a multipart body from (`Lease.take`): the
 * body's Content-Type, the route's cap per file, the room to take for a file (bytes), the
 * body bytes the server had read already, and how many are still to come on the socket.
 */
export interface TakeRequest {
  contentType: string;
  maxFileBytes: number;
  hint: number;
  already: Uint8Array;
  remaining: number;
}

/** A file part read by the child: its stream on the lease, size and first HEAD_BYTES. */
export interface TakenFile {
  name: string;
  filename: string;
  mimeType: string;
  size: number;
  head: Uint8Array;
  stream: number;
}

/** What the child read from a handed-over connection; `error` when it stopped short. */
export interface Taken {
  streams: number;
  /** body bytes the child took in (for RECYCLE_AFTER_MB) */
  bytes: number;
  fields: [string, string][];
  files: TakenFile[];
  error?: { kind: 'limit' } | { kind: 'malformed'; message: string };
}

/** The child's answer to a job: its result, or its error (an ApiError's parts when it was one). */
export type Reply = { ok: true; result: unknown } | { ok: false; error: { status?: number; slug?: string; title?: string; detail: string; extra?: Record<string, unknown>; headers?: Record<string, string> } };

/** Frame types on the child's stdin. */
export const FRAME = { BEGIN: 1, DATA: 2, END: 3, ABORT: 4 } as const;
/** Bytes of a frame header: type u8, stream u8, length u32 LE. */
export const FRAME_HEADER = 6;
/** How many first bytes of a streamed upload the server keeps (upload-file.ts `sniff` reads 8 KB). */
export const HEAD_BYTES = 8192;

/** Longest a job may run before its child is killed, ms. */
export const JOB_LIMIT_MS = 5 * 60_000;
/** V8 old-generation heap of the child, MB (`--max-old-space-size`; plus the semi-spaces). */
export const CHILD_HEAP_MB = 160;
/**
 * V8 young-generation semi-space of the child, MB (`--max-semi-space-size`). 8 MB let the
 * young generation take up to ~24 MB of resident memory; at 2 MB the question engine on
 * the ICAN paper peaked at 128 MB instead of 162 MB, and on a 39 MB text 101 MB instead
 * of 117–118 MB (more, shorter scavenges: the child runs on idle CPU anyway).
 */
export const CHILD_SEMI_SPACE_MB = 2;
/** The child's resident memory at which the watchdog kills it, MB (heap, code, buffers: all of it). */
export const CHILD_RSS_LIMIT_MB = 320;
/** A child left above this resident memory by a job is ended after it (the next job starts a fresh one), MB. */
export const RECYCLE_RSS_MB = 150;
/**
 * A child that was sent more than this many bytes for one job is ended after it, MB: its
 * heap grew to hold them and V8 keeps grown heaps, so a later job (the question engine
 * after a 39 MB text) would start from there. Rejected bombs (~1 MB) keep it warm.
 */
export const RECYCLE_AFTER_MB = 8;
/** A child without work for this long is ended (its memory goes back to the hall), ms. */
export const IDLE_MS = 30_000;
/** How often the launcher's watchdog reads the child's resident memory, ms. */
export const WATCH_EVERY_MS = 20;
/**
 * The child's nice value, used where SCHED_IDLE is not to be had: the hall's answer
 * traffic (nice 0) comes first on the two cores.
 */
export const CHILD_NICE = 19;
/** How often the exam rule is asked again while jobs run, ms (job-pool.ts `yieldToExam`). */
export const EXAM_CHECK_MS = 2_000;
