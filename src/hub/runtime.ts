/**
 * The hub's composition root short of listening: open and migrate PostgreSQL, load the key
 * file and the hub's signing key, build the app, and the one scheduled job (old nonces and
 * ended board sessions, every minute).
 * src/hub/main.ts listens; tests call createHubRuntime directly.
 */
import { lt } from 'drizzle-orm';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../platform/logger.js';
import { systemClock, type Clock } from '../platform/clock.js';
import { SecretBox } from '../platform/crypto.js';
import type { HubConfig } from './config.js';
import { openHubDatabase } from './db/index.js';
import { boardSessions, requestNonces } from './db/schema.js';
import { createHubApp } from './app.js';
import { createExaminer, examinerCount, loadHubSigningKey } from './keys.js';
import type { HubDeps } from './deps.js';
import { JobPool } from '../uploads/job-pool.js';
import { EnrolThrottle } from './enrol-throttle.js';

/** Nonces older than twice the accepted clock skew can never be replayed: dropped. */
const NONCE_KEEP_MS = 10 * 60_000;

export interface HubRuntime {
  deps: HubDeps;
  app: ReturnType<typeof createHubApp>;
  /** set when this start created the hub's first examiner (print the key once) */
  firstExaminer: { id: string; name: string; apiKey: string } | null;
  close(): Promise<void>;
}

/** Opens everything the hub needs. @throws Error when PostgreSQL is unreachable or a migration fails */
export async function createHubRuntime(config: HubConfig, logger: Logger, clock: Clock = systemClock): Promise<HubRuntime> {
  mkdirSync(config.HUB_DATA_DIR, { recursive: true, mode: 0o700 });
  const secrets = SecretBox.fromKeyFile(join(config.HUB_DATA_DIR, 'hub-secret.key'));
  const database = await openHubDatabase(config.DATABASE_URL, { max: config.HUB_DB_POOL, onIdleError: (e) => logger.warn('PostgreSQL closed an idle connection', { error: String(e) }) });
  const signingKey = await loadHubSigningKey(database.db, secrets, new Date(clock.now()));
  const firstExaminer = (await examinerCount(database.db)) === 0 ? await createExaminer(database.db, 'First examiner', new Date(clock.now())) : null;
  const deps: HubDeps = { db: database.db, config, logger, clock, secrets, signingKey, enrolThrottle: new EnrolThrottle(database.pool), jobs: new JobPool() };
  const sweep = setInterval(() => {
    deps.db.delete(requestNonces).where(lt(requestNonces.seenAt, new Date(clock.now() - NONCE_KEEP_MS))).catch((e) => logger.warn('nonce sweep failed', { error: String(e) }));
    deps.db.delete(boardSessions).where(lt(boardSessions.expiresAt, new Date(clock.now()))).catch((e) => logger.warn('session sweep failed', { error: String(e) }));
  }, 60_000);
  sweep.unref();
  return {
    deps,
    app: createHubApp(deps),
    firstExaminer,
    async close() {
      clearInterval(sweep);
      deps.jobs.close();
      await database.close();
    },
  };
}
