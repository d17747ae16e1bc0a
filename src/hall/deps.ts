/**
 * The hall's dependencies (docs/design.md §13: no globals; runtime.ts composes them,
 * tests build their own). AppDeps: the database, config, logger, clock, secrets and rate
 * limits; HallDeps adds the hot-path parts: the answer buffer, the session cache and the
 * in-process hall events. Every hall module router and service takes them.
 */
import type { Sqlite } from '../db/index.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import type { RateLimits } from '../platform/rate-limit.js';
import type { AnswerBuffer } from '../modules/answers/index.js';
import type { SessionCache } from '../modules/sessions/index.js';
import type { HallEvents } from './events.js';
import type { JobPool } from '../uploads/job-pool.js';

export interface AppDeps {
  sqlite: Sqlite;
  config: Config;
  logger: Logger;
  clock: Clock;
  secrets: SecretBox;
  limits: RateLimits;
  /** epoch ms the process started */
  startedAt: number;
}

export interface HallDeps extends AppDeps {
  buffer: AnswerBuffer;
  sessions: SessionCache;
  /** in-process notifications for the live monitor and the outbox dispatcher */
  events: HallEvents;
  /** the job processes that read uploads and run the question engine (src/uploads/job-pool.ts) */
  jobs: JobPool;
}
