/**
 * HTTP routes of backups: take one now (the admin page's "Back up now") and list them.
 * Any workspace's API key may call them: a backup covers the whole installation, but it
 * never leaves the server, so a key can only cause a copy to be made and see file names.
 * A request arriving while a backup runs gets that backup instead of queueing another.
 */
import { createRoute } from '@hono/zod-openapi';
import { basename, dirname } from 'node:path';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonResponse, keySecurity, problem } from '../../platform/openapi.js';
import { requireApiKey } from '../../platform/auth.js';
import { ServiceUnavailable } from '../../platform/errors.js';
import { backupDir, backupInFlight, runBackup } from './service.js';
import { listBackupFiles } from './files.js';
import { backupListSchema, backupTakenSchema } from './schemas.js';

const unavailable = problem('The backup failed (e.g. the disk is full)');

/** Backup router (paths /system/backups). */
export function backupRoutes(deps: HallDeps) {
  const r = createRouter();
  r.use('/system/backups', requireApiKey(deps));

  r.openapi(
    createRoute({
      method: 'post',
      path: '/system/backups',
      tags: ['System'],
      security: keySecurity,
      summary: 'Back up the database now (online, while exams run)',
      responses: { 201: jsonResponse(backupTakenSchema, 'Backup taken'), 503: unavailable, ...errorResponses },
    }),
    async (c) => {
      let b;
      try {
        b = await (backupInFlight(deps.sqlite) ?? runBackup(deps));
      } catch (err) {
        deps.logger.error('backup.failed', { error: (err as Error).message, requestId: c.var.requestId });
        throw new ServiceUnavailable(`The backup failed: ${(err as Error).message}`);
      }
      const body = {
        file: basename(b.file),
        bytes: b.bytes,
        createdAt: new Date(Math.floor(b.startedAt / 1000) * 1000).toISOString(), // as in the name and the list
        durationMs: b.durationMs,
        directory: dirname(b.file),
        copiedToSecondDir: b.copiedTo !== null,
        ...(b.copyError ? { secondDirError: b.copyError } : {}),
      };
      return c.json(body, 201);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/system/backups',
      tags: ['System'],
      security: keySecurity,
      summary: 'The backups kept on this server, newest first, and the backup settings',
      responses: { 200: jsonResponse(backupListSchema, 'Backups'), ...errorResponses },
    }),
    async (c) => {
      const directory = backupDir(deps.config.DATA_DIR);
      const files = await listBackupFiles(directory);
      return c.json(
        {
          directory,
          intervalMins: deps.config.CBT_BACKUP_INTERVAL_MINS,
          keep: deps.config.CBT_BACKUP_KEEP,
          secondDir: deps.config.CBT_BACKUP_DIR2 ?? null,
          backups: files.map(({ file, bytes, createdAt }) => ({ file, bytes, createdAt })),
        },
        200,
      );
    },
  );
  return r;
}
