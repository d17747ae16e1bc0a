/**
 * The hall as one program: every router it serves and every scheduled job it runs, in
 * one place (issue 23). createApp (app.ts) mounts `hallRouters` in this order;
 * createRuntime (runtime.ts) registers `hallJobs` when the jobs start. A new module's
 * router or job is added here and nowhere else.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/deps.js';
import type { Job } from '../platform/scheduler.js';
import type { HallDeps } from './deps.js';
import { systemRoutes } from '../modules/system/routes.js';
import { workspaceRoutes } from '../modules/workspaces/routes.js';
import { operatorWorkspaceRoutes } from '../modules/workspaces/operator-routes.js';
import { examRoutes } from '../modules/exams/routes.js';
import { questionRoutes } from '../modules/questions/routes.js';
import { rosterRoutes } from '../modules/roster/routes.js';
import { invigilationRoutes, sweepExpired, writeHeartbeat } from '../modules/attempts/index.js';
import { attemptRoutes } from '../modules/candidate/index.js';
import { webhookRoutes } from '../modules/webhooks/routes.js';
import { essayReviewRoutes } from '../modules/grading/index.js';
import { backupRoutes } from '../modules/backups/routes.js';
import { importRoutes } from '../modules/imports/routes.js';
import { analysisRoutes } from '../modules/analysis/routes.js';
import { generationRoutes } from '../modules/generation/routes.js';
import { verdictRoutes } from '../modules/generation/verdict-routes.js';
import { sebRoutes } from '../modules/seb/routes.js';
import { hubLinkRoutes } from '../modules/hub-link/routes.js';
import { hubSyncRun } from '../modules/hub-link/index.js';
import type { JobValue } from '../modules/answers/index.js';
import type { OutboxDispatcher } from '../modules/webhooks/index.js';
import { backupJob } from '../modules/backups/index.js';

export interface HallRouterOptions {
  /** asks the outbox dispatcher to run now (after a redeliver) */
  kickOutbox: () => void;
  /** the port the server listens on (for /system/info) */
  port: () => number;
}

/** Every router of the hall, in mounting order. */
export function hallRouters(deps: HallDeps, opts: HallRouterOptions): OpenAPIHono<AppEnv>[] {
  return [
    systemRoutes(deps, opts.port),
    workspaceRoutes(deps),
    examRoutes(deps),
    questionRoutes(deps),
    rosterRoutes(deps),
    invigilationRoutes(deps),
    attemptRoutes(deps),
    webhookRoutes(deps, opts.kickOutbox),
    essayReviewRoutes(deps),
    sebRoutes(deps),
    backupRoutes(deps),
    operatorWorkspaceRoutes(deps),
    importRoutes(deps),
    analysisRoutes(deps),
    generationRoutes(deps),
    verdictRoutes(deps),
    hubLinkRoutes(deps),
  ];
}

/**
 * Every scheduled job of the hall: the answer flush (every CBT_FLUSH_INTERVAL_MS), the
 * heartbeat (2 s), the expiry sweep and outbox delivery (every 2 s), the hub sync (15 s), and
 * the backup schedule when one is configured.
 */
export function hallJobs(deps: HallDeps, dispatcher: OutboxDispatcher): Job[] {
  const jobs: Job[] = [
    { name: 'answer-flush', every: deps.config.CBT_FLUSH_INTERVAL_MS, run: () => flushAnswers(deps) },
    { name: 'heartbeat', every: 2000, run: () => writeHeartbeat(deps) },
    { name: 'expiry-sweep', every: '*/2 * * * * *', run: () => sweepExpired(deps) },
    { name: 'outbox-dispatch', every: '*/2 * * * * *', run: () => dispatcher.runOnce() },
    // the hub link: packages down, due releases, heartbeat, results up (nothing without a link)
    { name: 'hub-sync', every: 15_000, run: () => hubSyncRun(deps) },
  ];
  const backups = backupJob(deps);
  if (backups) jobs.push(backups);
  return jobs;
}

/**
 * One answer flush with the candidates' activity times. The activity times a failed
 * flush carried are written by the next one; only the number of the take waits here,
 * so the rows themselves die young with the flush's job.
 */
async function flushAnswers(deps: HallDeps) {
  let activity: { rows: JobValue[]; take: number } | null = deps.sessions.takeActivity();
  const take = activity.take;
  const flushed = deps.buffer.flush(activity.rows);
  activity = null;
  try {
    const stats = await flushed;
    // after the commit and the marking clean: the save channel pushes the new durableSeq
    if (stats.rows > 0) deps.events.emit({ kind: 'answers-flushed' });
    return stats;
  } catch (e) {
    deps.sessions.restoreActivity(take);
    throw e;
  }
}
