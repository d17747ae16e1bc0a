/**
 * The dependencies createApp() is built from (STYLE: no globals; main.ts composes them,
 * tests build their own). Module routers receive them as an argument.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Db, Sqlite } from '../db/index.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Clock } from './clock.js';
import type { SecretBox } from './crypto.js';
import type { RateLimits } from './rate-limit.js';
import type { AnswerBuffer } from '../modules/attempts/answer-buffer.js';
import type { SessionCache } from '../modules/attempts/session-cache.js';
import type { HallEvents } from './hall-events.js';

export interface AppDeps {
  db: Db;
  sqlite: Sqlite;
  config: Config;
  logger: Logger;
  clock: Clock;
  secrets: SecretBox;
  limits: RateLimits;
  buffer: AnswerBuffer;
  sessions: SessionCache;
  /** in-process notifications for the live monitor and the outbox dispatcher */
  events: HallEvents;
  /** epoch ms the process started */
  startedAt: number;
}

/** The authenticated workspace on key-protected routes. */
export interface AuthedWorkspace {
  id: string;
  name: string;
}

/** Hono environment shared by every router. */
export interface AppEnv {
  /** the Node request and response under @hono/node-server; absent under app.request() */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    workspace: AuthedWorkspace;
  };
}
