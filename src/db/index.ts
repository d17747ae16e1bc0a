/**
 * Opens the SQLite database (WAL, foreign keys, busy timeout, synchronous per config)
 * and applies the drizzle-kit migrations in `drizzle/` before the server listens.
 * synchronous=FULL is the default: the answer flush's commit is what `durableSeq`
 * promises, and FULL makes that commit survive a power cut, not just a crash (DESIGN §7).
 */
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import * as schema from './schema/index.js';

export type Db = BetterSQLite3Database<typeof schema>;
export type Sqlite = Database.Database;

/** Location of the migrations folder (project root/drizzle), from src or dist. */
export const MIGRATIONS_DIR = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../drizzle' : '../../drizzle', import.meta.url));

export interface OpenedDb {
  sqlite: Sqlite;
  db: Db;
}

/**
 * Opens `file` (":memory:" allowed), sets pragmas and migrates.
 * @param synchronous 'FULL' (power-cut safe) or 'NORMAL'
 */
export function openDatabase(file: string, synchronous: 'FULL' | 'NORMAL' = 'FULL'): OpenedDb {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('temp_store = MEMORY');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return { sqlite, db };
}

/** Path of the database file inside a data directory. */
export function databasePath(dataDir: string): string {
  return join(dataDir, 'hallcbt.sqlite');
}

export { schema };
