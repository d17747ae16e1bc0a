/**
 * The answer writer thread (started by answer-writer.ts `threadWriter`): its own SQLite
 * connection to the server's database, committing one flush job per message.
 *
 * workerData: `{file, synchronous: 'FULL' | 'NORMAL', batchRows}`.
 * Messages in: `{id, job: FlushJob}` → out `{id, report}` or `{id, error}`;
 * `{close: true}` closes the connection and ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { commitAll, type FlushJob } from './answer-commit.js';

const { file, synchronous, batchRows } = workerData as { file: string; synchronous: 'FULL' | 'NORMAL'; batchRows: number };
const sqlite = new Database(file, { fileMustExist: true });
// the same settings as the server's connection (db/index.ts); WAL is a property of the file
sqlite.pragma(`synchronous = ${synchronous}`);
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('cache_size = -16384');

parentPort!.on('message', (m: { id: number; job?: FlushJob; close?: boolean }) => {
  if (m.close) {
    sqlite.close();
    parentPort!.close();
    return;
  }
  try {
    parentPort!.postMessage({ id: m.id, report: commitAll(sqlite, m.job!, batchRows) });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: String(e) });
  }
});
