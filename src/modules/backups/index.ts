/**
 * The backups module's door (docs/house.md, "Modules and their doors"): Online backups of
 * the hall's database: the scheduled job, the one-at-a-time guard and the routes. Other
 * modules import only from here; the composition root mounts the module's routers from its
 * route files.
 */
export { backupJob } from './schedule.js';
export { backupInFlight } from './service.js';
