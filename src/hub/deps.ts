/**
 * What the hub's routers are built from: no hall parts (no answer buffer, no SQLite).
 */
import type { Logger } from '../platform/logger.js';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import type { HubConfig } from './config.js';
import type { HubDb } from './db/index.js';
import type { HubSigningKey } from './keys.js';
import type { EnrolThrottle } from './enrol-throttle.js';
import type { JobPool } from '../uploads/job-pool.js';
import type { BoardRole } from './board-roles.js';

export interface HubDeps {
  db: HubDb;
  config: HubConfig;
  logger: Logger;
  clock: Clock;
  /** seals the hub's secrets at rest (release codes, its private key) */
  secrets: SecretBox;
  signingKey: HubSigningKey;
  /** wrong enrolment codes per address and per hub, counted in PostgreSQL */
  enrolThrottle: EnrolThrottle;
  /** the job processes that read question imports (src/uploads/job-pool.ts) */
  jobs: JobPool;
}

/** Hono environment of the hub's routers. */
export interface HubEnv {
  Variables: {
    requestId: string;
    /** set on examiner routes: the API key's examiner or the signed-in board account */
    examiner: { id: string; name: string };
    /** the examiner's roles (an API key holds all three) */
    roles: BoardRole[];
    /** the board account's session token, when signed in by one */
    sessionToken: string;
    /** set on hall-signed routes */
    hall: { id: string; name: string };
  };
}
