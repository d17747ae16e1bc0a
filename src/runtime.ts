/**
 * Builds the running appliance from a Config: opens and migrates the database, creates
 * the dependencies, credits power-cut downtime, builds the app and registers the
 * scheduled jobs. Used by main.ts (the composition root) and by tests that need the
 * real thing in-process. `shutdown()` stops jobs, flushes answers and closes the DB.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './platform/config.js';
import type { Logger } from './platform/logger.js';
import { systemClock, type Clock } from './platform/clock.js';
import { SecretBox } from './platform/crypto.js';
import { RateLimits } from './platform/rate-limit.js';
import { HallEvents } from './hall/events.js';
import { Scheduler } from './platform/scheduler.js';
import type { HallDeps } from './hall/deps.js';
import { databasePath, openDatabase } from './db/index.js';
import { startCheckpointer, type Checkpointer } from './db/checkpointer.js';
import { AnswerBuffer, threadWriter } from './modules/answers/index.js';
import { SessionCache, warmUpOpenPapers } from './modules/sessions/index.js';
import { creditDowntime, writeHeartbeat } from './modules/attempts/index.js';
import { OutboxDispatcher } from './modules/webhooks/index.js';
import { createApp } from './app.js';
import { hallJobs } from './hall/composition.js';
import { backupInFlight } from './modules/backups/index.js';
import { JobPool } from './uploads/job-pool.js';
import { GENERATION_JOB_MODULE } from './modules/generation/index.js';

export interface Runtime {
  deps: HallDeps;
  app: ReturnType<typeof createApp>;
  dispatcher: OutboxDispatcher;
  /** the listening port, once known */
  port: { value: number };
  startJobs(): void;
  shutdown(): Promise<void>;
}

/** Creates the runtime (no listening socket; main.ts or a test serves `app.fetch`). */
export function createRuntime(config: Config, logger: Logger, clock: Clock = systemClock): Runtime {
  mkdirSync(config.DATA_DIR, { recursive: true, mode: 0o700 });
  const dbFile = databasePath(config.DATA_DIR);
  const { sqlite } = openDatabase(dbFile, config.CBT_SQLITE_SYNCHRONOUS);
  let checkpointer: Checkpointer | null = null;
  const deps: HallDeps = {
    sqlite,
    config,
    logger,
    clock,
    secrets: SecretBox.fromKeyFile(join(config.DATA_DIR, 'secret.key')),
    limits: new RateLimits(config, clock),
    // answers are committed by a thread with its own connection (issue 8: the flush never
    // holds the event loop)
    buffer: new AnswerBuffer(sqlite, { now: () => clock.now(), writer: config.CBT_ANSWER_WRITER === 'thread' ? threadWriter(dbFile, sqlite, logger, config.CBT_SQLITE_SYNCHRONOUS) : undefined }),
    sessions: new SessionCache(sqlite),
    events: new HallEvents(),
    // the upload readers and the question engine run in these processes (the hall adds the engine's jobs)
    jobs: new JobPool({ jobModules: [GENERATION_JOB_MODULE] }),
    startedAt: clock.now(),
  };
  const credited = creditDowntime(deps);
  if (credited.attempts > 0) logger.info('credited power-cut downtime to attempts in progress', credited);
  const dispatcher = new OutboxDispatcher(deps);
  const port = { value: config.PORT };
  let closed = false;
  const kick = () => {
    if (!closed) dispatcher.runOnce().catch((e) => logger.error('outbox dispatch failed', { error: String(e) }));
  };
  deps.events.on((e) => {
    if (e.kind === 'outbox-written' || e.kind === 'outbox-due') setTimeout(kick, 50).unref();
  });
  const app = createApp(deps, { kickOutbox: kick, port: () => port.value });
  const scheduler = new Scheduler(logger);
  // background jobs (uploads, generation) yield to a live exam: capped while an attempt is in progress
  const attemptInProgress = sqlite.prepare("SELECT 1 FROM attempts WHERE status = 'IN_PROGRESS' LIMIT 1");
  const unyield = deps.jobs.yieldToExam({ percent: config.CBT_JOB_CPU_PERCENT_IN_EXAM, examLive: () => attemptInProgress.get() !== undefined });

  return {
    deps,
    app,
    dispatcher,
    port,
    startJobs() {
      checkpointer = startCheckpointer(sqlite, dbFile, logger);
      // the open exams' papers rendered before their first start asks (sessions/warm-up.ts)
      void warmUpOpenPapers(sqlite, deps.sessions, clock.now(), (examId, error) => logger.warn('paper warm-up failed', { examId, error: String(error) }))
        .then((papers) => papers > 0 && logger.info('papers ready', { papers }))
        .catch((e: unknown) => logger.warn('paper warm-up failed', { error: String(e) }));
      // every scheduled job of the hall is listed in hall/composition.ts
      for (const job of hallJobs(deps, dispatcher)) scheduler.add(job);
    },
    async shutdown() {
      closed = true;
      unyield();
      scheduler.stopAll();
      deps.jobs.close();
      await dispatcher.idle();
      await backupInFlight(deps.sqlite)?.catch(() => undefined);
      await checkpointer?.stop();
      await deps.buffer.close();
      const n = deps.buffer.flushAllSync();
      deps.sessions.persistAllActivity();
      writeHeartbeat(deps);
      sqlite.close();
      logger.info('shut down cleanly', { answersFlushed: n });
    },
  };
}
