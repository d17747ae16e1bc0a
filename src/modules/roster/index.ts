/**
 * The roster module's door (docs/house.md, "Modules and their doors"): An exam's roster of
 * candidates (student ids, names, PINs): entry, listing and import. Other modules import
 * only from here; the composition root mounts the module's routers from its route files.
 */
export { addToRoster, listRoster } from './service.js';
