/**
 * The seb module's door (docs/house.md, "Modules and their doors"): Safe Exam Browser: the
 * exam's .seb configuration, its Config Key and Browser Exam Key checks per request, and
 * the sightings the invigilator sees. Other modules import only from here; the composition
 * root mounts the module's routers from its route files.
 */
export { sebBaseUrlFor, sebColumnsAfter } from './exam-seb.js';
export { recordRequestHash } from './sightings.js';
