/**
 * The hub-link module's door (docs/house.md, "Modules and their doors"): The hall's link
 * to an exam board's hub: enrolment, sealed packages, release, and the results outbox that
 * sync sends. Other modules import only from here; the composition root mounts the
 * module's routers from its route files.
 */
export { enqueueHubResult } from './results.js';
export { hubSyncRun } from './sync.js';
