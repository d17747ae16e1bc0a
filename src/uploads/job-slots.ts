/**
 * The turns of the job processes (job-process.ts): two lanes, a quota per workspace, and
 * places that are given back the moment their client leaves (docs/decisions.md, "Upload
 * lanes, a quota per workspace, abandoned uploads leave at once"; issue #34, finding 8).
 *
 * - Lane `main` takes every job; lane `small` takes the imports whose whole request body is
 *   at most SMALL_UPLOAD_BYTES (a one-line Aiken import, a class roster): it has a job
 *   process of its own, so a large job holding the main lane for minutes (a 9.5 MB paste
 *   read at the exam's 10 % CPU) never starves an examiner's small import.
 * - Each lane runs one job at a time; MAX_WAITING more wait, a further one gets 503 `BUSY`
 *   with Retry-After.
 * - A workspace holds at most PLACES_PER_WORKSPACE places (running or waiting) in a lane;
 *   over it, 429 `UPLOAD_QUOTA` with Retry-After: one workspace cannot fill a lane's queue.
 * - A waiting place whose AbortSignal fires (its client went away) leaves the queue at once.
 *
 * The lanes are a `LaneSlots` object, one per job pool (job-pool.ts), held in the program's
 * dependencies. The owner, lane and signal of the jobs of a request travel with it in the
 * pool's upload context (streamed-upload.ts sets it for the upload routes), so a job taken
 * deep in a handler (`JobPool.runJob`) is counted against the right workspace.
 */
import { ApiError, ValidationError } from '../platform/errors.js';

/** A lane of job processes. */
export type Lane = 'main' | 'small';
export const LANES: readonly Lane[] = ['main', 'small'];

/** Whole request bodies up to this many bytes (by Content-Length) may use the small lane, bytes. */
export const SMALL_UPLOAD_BYTES = 256 * 1024;
/** Jobs that may wait for the running one in each lane; more at once → 503. */
export const MAX_WAITING = 4;
/** Places (running + waiting) one workspace may hold in one lane; more → 429. */
export const PLACES_PER_WORKSPACE = 2;
/** Retry-After of the 503 and the 429, seconds. */
export const BUSY_RETRY_S = 5;

/** Who asks for a turn: the workspace (counted against its quota), the lane, and a signal that fires when its client left. */
export interface UploadContext {
  workspaceId?: string;
  lane: Lane;
  signal?: AbortSignal;
}

interface Waiter {
  owner?: string;
  start: () => void;
}

/** One lane's turn: whether a job runs, who waits, and the places each workspace holds. */
class LaneQueue {
  running = false;
  readonly waiting: Waiter[] = [];
  readonly held = new Map<string, number>();

  hold(owner: string | undefined, delta: number): void {
    if (owner === undefined) return;
    const n = (this.held.get(owner) ?? 0) + delta;
    if (n > 0) this.held.set(owner, n);
    else this.held.delete(owner);
  }
}

/** 503 when a lane's queue is full. */
export class BusyReadingUploads extends ApiError {
  constructor() {
    super(503, 'busy', 'Busy reading other uploads', `The server is reading ${MAX_WAITING + 1} other uploads; try again in a few seconds.`, { code: 'BUSY', retryAfterSeconds: BUSY_RETRY_S }, { 'Retry-After': String(BUSY_RETRY_S) });
  }
}

/** 429 when a workspace already holds its places in a lane. */
export class UploadQuotaReached extends ApiError {
  constructor(lane: Lane) {
    super(
      429,
      'upload-quota',
      'Too many uploads from this workspace',
      `This workspace already has ${PLACES_PER_WORKSPACE} uploads being read or waiting${lane === 'small' ? ' among small uploads' : ''} (at most ${PLACES_PER_WORKSPACE} at a time per workspace: one read, one waiting); try again when one has finished.`,
      { code: 'UPLOAD_QUOTA', quota: PLACES_PER_WORKSPACE, retryAfterSeconds: BUSY_RETRY_S },
      { 'Retry-After': String(BUSY_RETRY_S) },
    );
  }
}

/** The error of a place given up because its client went away (nobody reads the answer). */
const clientGone = () => new ValidationError('The upload was interrupted: the client went away.', [{ path: '(body)', message: 'the upload was interrupted' }]);

/**
 * The lanes of one job pool: each lane's running job, its queue and the places each
 * workspace holds. `onBusy` is called with true when some lane starts a job after all were
 * idle, false when all are idle again (the pool watches the exam meanwhile).
 */
export class LaneSlots {
  private readonly lanes: Record<Lane, LaneQueue> = { main: new LaneQueue(), small: new LaneQueue() };
  constructor(private readonly onBusy: (busy: boolean) => void = () => {}) {}

  private anyRunning(): boolean {
    return LANES.some((l) => this.lanes[l].running);
  }

  /**
   * Waits for the turn of `ctx.lane` and returns its release (call it once).
   * @throws UploadQuotaReached (429) when the workspace holds PLACES_PER_WORKSPACE places in
   *   the lane; BusyReadingUploads (503) when MAX_WAITING jobs already wait; ValidationError
   *   (400, nobody reads it) when `ctx.signal` fired before or while waiting
   */
  async take(ctx: UploadContext): Promise<() => void> {
    const lane = this.lanes[ctx.lane];
    const owner = ctx.workspaceId;
    if (ctx.signal?.aborted) throw clientGone();
    if (owner !== undefined && (lane.held.get(owner) ?? 0) >= PLACES_PER_WORKSPACE) throw new UploadQuotaReached(ctx.lane);
    if (lane.running) {
      if (lane.waiting.length >= MAX_WAITING) throw new BusyReadingUploads();
      lane.hold(owner, 1);
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { owner, start: () => (ctx.signal?.removeEventListener('abort', leave), resolve()) };
        // the client went away while waiting: its place is given back at once
        const leave = () => {
          const at = lane.waiting.indexOf(waiter);
          if (at < 0) return;
          lane.waiting.splice(at, 1);
          lane.hold(owner, -1);
          reject(clientGone());
        };
        lane.waiting.push(waiter);
        ctx.signal?.addEventListener('abort', leave, { once: true });
      });
    } else lane.hold(owner, 1);
    const wasIdle = !this.anyRunning();
    lane.running = true;
    if (wasIdle) this.onBusy(true);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.hold(owner, -1);
      const next = lane.waiting.shift();
      if (next) return next.start();
      lane.running = false;
      if (!this.anyRunning()) this.onBusy(false);
    };
  }

  /** Each lane's figures now: whether a job runs and how many wait (GET /health `uploads`). */
  figures(): Record<Lane, { running: number; waiting: number }> {
    const { main, small } = this.lanes;
    return { main: { running: main.running ? 1 : 0, waiting: main.waiting.length }, small: { running: small.running ? 1 : 0, waiting: small.waiting.length } };
  }
}
