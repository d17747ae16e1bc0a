/**
 * The analysis module's door (docs/house.md, "Modules and their doors"): The item analysis
 * of an exam (facility and discrimination indices, distractor counts) over the hall's
 * results, and its routes. Other modules import only from here; the composition root
 * mounts the module's routers from its route files.
 */
export { examAnalysis } from './service.js';
