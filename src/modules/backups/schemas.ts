/** zod shapes of the backup endpoints (`/system/backups`). */
import { z } from '../../platform/openapi.js';

/** One backup file as listed. */
export const backupFileSchema = z
  .object({
    file: z.string().openapi({ example: 'hallcbt-20250301-101500.sqlite' }),
    bytes: z.number().int(),
    createdAt: z.string().openapi({ description: 'ISO 8601 UTC time the backup started' }),
  })
  .openapi('BackupFile');

/** Response of POST /system/backups. */
export const backupTakenSchema = backupFileSchema
  .extend({
    durationMs: z.number().int(),
    copiedToSecondDir: z.boolean().openapi({ description: 'true when the copy to CBT_BACKUP_DIR2 (e.g. a USB stick) succeeded' }),
    secondDirError: z.string().optional().openapi({ description: 'Why the second copy failed' }),
  })
  .openapi('BackupTaken');

/** Response of GET /system/backups. */
export const backupListSchema = z
  .object({
    intervalMins: z.number().int().openapi({ description: 'CBT_BACKUP_INTERVAL_MINS; 0 = scheduled backups off' }),
    keep: z.number().int().openapi({ description: 'CBT_BACKUP_KEEP: how many of the most recent backups are kept' }),
    retention: z.string().openapi({ description: 'The tiers kept besides the most recent ones' }),
    secondDirConfigured: z.boolean().openapi({ description: 'true when CBT_BACKUP_DIR2 (e.g. a USB stick) is set' }),
    backups: z.array(backupFileSchema).openapi({ description: 'Newest first' }),
  })
  .openapi('BackupList');
