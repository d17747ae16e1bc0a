/**
 * The platform's dependencies (STYLE: no globals; main.ts composes them, tests build their
 * own): database, config, logger, clock, secrets, rate limits. No domain type lives here;
 * the hall adds its own parts in hall/deps.ts (HallDeps extends AppDeps).
 */
import type { HttpBindings } from '@hono/node-server';
import type { Db, Sqlite } from '../db/index.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Clock } from './clock.js';
import type { SecretBox } from './crypto.js';
import type { RateLimits } from './rate-limit.js';

export interface AppDeps {
  db: Db;
  sqlite: Sqlite;
  config: Config;
  logger: Logger;
  clock: Clock;
  secrets: SecretBox;
  limits: RateLimits;
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
