/**
 * The proctoring module's door (docs/house.md, "Modules and their doors"): Proctoring
 * telemetry from the candidate page: recorded, counted against the exam's violation rule,
 * shown to the invigilator. Other modules import only from here; the composition root
 * mounts the module's routers from its route files.
 */
export { recordTelemetry } from './service.js';
