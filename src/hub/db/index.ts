/**
 * The hub's database: a node-postgres pool behind drizzle's PostgreSQL dialect, migrated at
 * start-up. Several hub processes may start at once, so migrating takes a PostgreSQL
 * advisory lock first: one process migrates, the others wait and then find nothing to do.
 */
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.js';

export type HubDb = NodePgDatabase<typeof schema>;

const MIGRATIONS = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../../drizzle-hub' : '../../../drizzle-hub', import.meta.url));
/** Arbitrary constant naming the hub's migration lock (pg_advisory_lock key). */
const MIGRATION_LOCK = 7_405_118_240;

export interface HubDatabase {
  db: HubDb;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * Connects to `url` and applies the hub's migrations.
 * @throws Error (pg's own) when PostgreSQL cannot be reached or a migration fails.
 */
export async function openHubDatabase(url: string, opts: { max?: number; onIdleError?: (err: Error) => void } = {}): Promise<HubDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // an idle connection that PostgreSQL closes (restart, failover) is dropped and replaced on
  // the next query; without a listener the pool's 'error' event would end the process
  pool.on('error', (err) => opts.onIdleError?.(err));
  const lockClient = await pool.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(lockClient, { schema }), { migrationsFolder: MIGRATIONS });
  } finally {
    await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lockClient.release();
  }
  return { db: drizzle(pool, { schema }), pool, close: () => pool.end() };
}
