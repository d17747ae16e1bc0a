/**
 * HTTP routes of backups: take one now (the admin page's "Back up now") and list them.
 * A backup covers the whole installation, so only the hall operator may call them
 * (hall/operator.ts; a workspace API key gets 403). Responses name files, never
 * folders of the machine. A request arriving while a backup runs gets that backup
 * instead of queueing another.
 */
import { createRoute } from '@hono/zod-openapi';
import { basename } from 'node:path';
import type { HallDeps } from '../../hall/deps.js';
import { createRouter, errorResponses, jsonResponse, operatorSecurity, problem } from '../../platform/openapi.js';
import { requireOperator } from '../../hall/operator.js';
import { ServiceUnavailable } from '../../platform/errors.js';
import { backupDir, backupInFlight, runBackup } from './service.js';
import { listBackupFiles, RETENTION } from './files.js';
import { backupListSchema, backupTakenSchema } from './schemas.js';

/** An error message without the machine paths Node puts in it (`ENOTDIR: not a directory, mkdir '/…'`). */
export function withoutPaths(message: string): string {
  return message
    .replace(/,\s*[a-z]+\s+'[^']*'(\s*->\s*'[^']*')?/gi, '')
    .replace(/(^|[\s'"(])\/[^\s'"),]*/g, '$1…')
    .trim();
}

const unavailable = problem('The backup failed (e.g. the disk is full)');

/** Backup router (paths /system/backups). */
export function backupRoutes(deps: HallDeps) {
  const r = createRouter();
  r.use('/system/backups', requireOperator(deps));

  r.openapi(
    createRoute({
      method: 'post',
      path: '/system/backups',
      tags: ['System'],
      security: operatorSecurity,
      summary: 'Back up the database now (online, while exams run)',
      responses: { 201: jsonResponse(backupTakenSchema, 'Backup taken'), 503: unavailable, ...errorResponses },
    }),
    async (c) => {
      let b;
      try {
        b = await (backupInFlight(deps.sqlite) ?? runBackup(deps));
      } catch (err) {
        deps.logger.error('backup.failed', { error: (err as Error).message, requestId: c.var.requestId });
        throw new ServiceUnavailable(`The backup failed: ${withoutPaths((err as Error).message)}`);
      }
      const body = {
        file: basename(b.file),
        bytes: b.bytes,
        createdAt: new Date(Math.floor(b.startedAt / 1000) * 1000).toISOString(), // as in the name and the list
        durationMs: b.durationMs,
        copiedToSecondDir: b.copiedTo !== null,
        ...(b.copyError ? { secondDirError: withoutPaths(b.copyError) } : {}),
      };
      return c.json(body, 201);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/system/backups',
      tags: ['System'],
      security: operatorSecurity,
      summary: 'The backups kept on this server, newest first, and the backup settings',
      responses: { 200: jsonResponse(backupListSchema, 'Backups'), ...errorResponses },
    }),
    async (c) => {
      const files = await listBackupFiles(backupDir(deps.config.DATA_DIR));
      return c.json(
        {
          intervalMins: deps.config.CBT_BACKUP_INTERVAL_MINS,
          keep: deps.config.CBT_BACKUP_KEEP,
          retention: RETENTION,
          secondDirConfigured: Boolean(deps.config.CBT_BACKUP_DIR2),
          backups: files.map(({ file, bytes, createdAt }) => ({ file, bytes, createdAt })),
        },
        200,
      );
    },
  );
  return r;
}
