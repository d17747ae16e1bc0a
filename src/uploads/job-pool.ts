/**
 * A program's job processes (job-process.ts) and their turns (job-slots.ts): one `JobPool`
 * per program, built by its composition root (src/runtime.ts for the hall,
 * src/hub/runtime.ts for the hub) and held in its dependencies, never in module state.
 *
 * - One job at a time in each lane (job-slots.ts: a main lane, and a small lane for small
 *   imports with a child of its own; a quota per workspace; 503 / 429 with Retry-After).
 *   A job holds its turn through a `Lease` (lease.ts); an upload streamed from the socket
 *   (streamed-upload.ts) takes its lease when its first file part arrives, so its bytes go
 *   straight into the child and never gather in the server. A lease whose client went
 *   away is cancelled (its child is killed, its turn passes at once).
 * - Each lane's child is kept warm: started on the first job, reused by the next ones, and
 *   ended after `IDLE_MS` without work, after a large job (`RECYCLE_AFTER_MB` sent, or a
 *   job run with `retire`) or one that left it above `RECYCLE_RSS_MB` (one job's memory does
 *   not linger), or when it crashed or was killed (the next job starts a fresh one).
 * - While an attempt is in progress the children may run only part of the time
 *   (`yieldToExam`, CBT_JOB_CPU_PERCENT_IN_EXAM; docs/decisions.md): background jobs yield
 *   to a live exam.
 * - The children read uploads (job-child.ts); a program adds jobs of its own by naming the
 *   files that define them (`jobModules`: the hall's question engine), so this folder
 *   holds none of a program's modules.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setJobCpuCap } from './job-launcher.js';
import { JobChild, residentMB } from './job-process.js';
import { EXAM_CHECK_MS, IDLE_MS, RECYCLE_RSS_MB, type JobRequest } from './job-protocol.js';
import { LaneSlots, type Lane, type UploadContext } from './job-slots.js';
import { Lease, StreamedBytes } from './lease.js';

/** What a pool is built from. */
export interface JobPoolOptions {
  /**
   * Absolute paths of files whose `childJobs` export (`Record<op, (job) => Promise<result>>`)
   * the children run for ops the upload readers do not know (job-child.ts). A path ends in
   * .ts when the server runs from sources (tsx), .js when compiled.
   */
  jobModules?: readonly string[];
}

/** The exam rule of `yieldToExam`. */
export interface ExamRule {
  percent: number;
  examLive: () => boolean;
}

/** The first StreamedBytes inside a job, if any. */
function streamedIn(value: unknown): StreamedBytes | undefined {
  if (value instanceof StreamedBytes) return value;
  if (value instanceof Uint8Array || !value || typeof value !== 'object') return undefined;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    const s = streamedIn(v);
    if (s) return s;
  }
  return undefined;
}

/** The job processes of one program, their lanes and the exam rule. */
export class JobPool {
  /** The upload context of the request being handled (streamed-upload.ts `streamedForm` runs the route inside it). */
  readonly context = new AsyncLocalStorage<UploadContext>();
  private readonly slots: LaneSlots;
  private readonly jobModules: readonly string[];
  /** The warm child of each lane, while it lives. */
  private readonly current: Record<Lane, JobChild | null> = { main: null, small: null };
  private readonly idleTimers: Record<Lane, NodeJS.Timeout | null> = { main: null, small: null };
  /** Whether a lease is open in each lane (its child is not idle). */
  private readonly busy: Record<Lane, boolean> = { main: false, small: false };
  private examRule: ExamRule | null = null;
  private examTimer: NodeJS.Timeout | null = null;

  constructor(opts: JobPoolOptions = {}) {
    this.jobModules = [...(opts.jobModules ?? [])];
    // while any lane runs a job, the exam rule is applied now and asked again every EXAM_CHECK_MS
    this.slots = new LaneSlots((on) => {
      if (on) this.refreshCap();
      this.watchExam(on);
    });
  }

  /** The upload context of the current request (main lane, no workspace, outside the upload routes). */
  currentContext(): UploadContext {
    return this.context.getStore() ?? { lane: 'main' };
  }

  /** Each lane's figures now: whether a job runs and how many wait (GET /health `uploads`). */
  laneFigures(): Record<Lane, { running: number; waiting: number }> {
    return this.slots.figures();
  }

  /**
   * Background jobs yield to a live exam (docs/decisions.md): while `examLive()` says an
   * attempt is in progress, job processes may run at most `percent` % of the time (the
   * launcher stops and continues them, job-launcher.ts `setJobCpuCap`), else they run
   * freely (still under SCHED_IDLE). Asked when a job takes its turn and every
   * `EXAM_CHECK_MS` while jobs run. Returns the function that removes this rule.
   */
  yieldToExam(rule: ExamRule): () => void {
    this.examRule = rule;
    this.refreshCap();
    return () => {
      if (this.examRule !== rule) return;
      this.examRule = null;
      this.refreshCap();
    };
  }

  /** Applies the exam rule now (no rule, or a question that fails: no cap). */
  private refreshCap(): void {
    const rule = this.examRule;
    let live = false;
    try {
      live = !!rule && rule.percent < 100 && rule.examLive();
    } catch {
      /* a closed database (a runtime shut down): no exam here */
    }
    setJobCpuCap(live ? rule!.percent : 100);
  }

  /** While a job holds a slot the exam rule is asked every EXAM_CHECK_MS (an exam that starts or ends mid-job). */
  private watchExam(on: boolean): void {
    if (on && !this.examTimer) {
      this.examTimer = setInterval(() => this.refreshCap(), EXAM_CHECK_MS);
      this.examTimer.unref();
    } else if (!on && this.examTimer) {
      clearInterval(this.examTimer);
      this.examTimer = null;
    }
  }

  /** The child for the next job of `lane` (its warm one, or a fresh one). */
  private childForJob(lane: Lane): JobChild {
    const timer = this.idleTimers[lane];
    if (timer) clearTimeout(timer);
    this.idleTimers[lane] = null;
    let child = this.current[lane];
    if (!child || child.dead) {
      child = this.current[lane] = new JobChild(lane, this.jobModules, (gone) => {
        if (this.current[gone.lane] === gone) this.current[gone.lane] = null;
      });
    }
    child.setRef(true);
    return child;
  }

  /**
   * After a job: retire the child when the job was large or left it above RECYCLE_RSS_MB;
   * else let it idle (ended after IDLE_MS).
   */
  private afterJob(child: JobChild, large: boolean): void {
    this.busy[child.lane] = false;
    if (child.dead) return;
    if (large || (child.proc.pid && residentMB(child.proc.pid) > RECYCLE_RSS_MB)) {
      child.kill('retired');
      return;
    }
    child.setRef(false);
    const lane = child.lane;
    const timer = this.idleTimers[lane];
    if (timer) clearTimeout(timer);
    const idle = setTimeout(() => {
      if (this.current[lane] === child && !this.busy[lane]) child.kill('retired');
    }, IDLE_MS);
    idle.unref();
    this.idleTimers[lane] = idle;
  }

  /**
   * Waits for the turn of the request's lane (job-slots.ts `LaneSlots.take`: 503 when its
   * queue is full, 429 over the workspace's quota) and returns a lease on that lane's warm
   * child. `ctx` defaults to the request's upload context.
   */
  async takeLease(ctx: UploadContext = this.currentContext()): Promise<Lease> {
    const release = await this.slots.take(ctx);
    try {
      const child = this.childForJob(ctx.lane);
      this.busy[ctx.lane] = true;
      return new Lease(child, release, (large) => this.afterJob(child, large), ctx.signal);
    } catch (e) {
      release();
      throw e;
    }
  }

  /**
   * Runs `job` in a job process, after the jobs before it. Byte arrays in the job go to the
   * child through a pipe (not copied here); a job holding uploads streamed into the child
   * (StreamedBytes) runs on their lease, which already has its turn. `retire`: the child
   * is ended after this job (it leaves the child large: the question engine).
   * @throws the job's ApiError; TooHeavyToRead (413) when the child ran out of heap or past
   *   its memory limit; ReaderFailed (422) when it crashed or exceeded five minutes; 503 when
   *   MAX_WAITING jobs already wait or no child could be started; 429 over the workspace's
   *   quota (job-slots.ts).
   */
  async runJob<T>(job: JobRequest, opts: { retire?: boolean } = {}): Promise<T> {
    const streamed = streamedIn(job);
    if (streamed) {
      if (streamed.lease.done) throw new Error('a streamed upload can go to one job only');
      return streamed.lease.run<T>(job, opts.retire);
    }
    const lease = await this.takeLease();
    return lease.run<T>(job, opts.retire);
  }

  /** Ends the pool's children now (the program shuts down) and drops its exam rule. */
  close(): void {
    for (const lane of ['main', 'small'] as const) {
      const timer = this.idleTimers[lane];
      if (timer) clearTimeout(timer);
      this.idleTimers[lane] = null;
      this.current[lane]?.kill('retired');
    }
    this.watchExam(false);
    if (this.examRule) {
      this.examRule = null;
      this.refreshCap();
    }
  }
}

/** What reading an upload needs of a pool: running a job (job-pool.ts `JobPool.runJob`). */
export type JobRunner = Pick<JobPool, 'runJob'>;
