/**
 * The system module's door (docs/house.md, "Modules and their doors"): The hall itself:
 * health, version, the addresses it can be reached at. Other modules import only from
 * here; the composition root mounts the module's routers from its route files.
 */
export { reachableUrls } from './urls.js';
