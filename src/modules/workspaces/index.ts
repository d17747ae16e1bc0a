/**
 * The workspaces module's door (docs/house.md, "Modules and their doors"): Workspaces (an
 * examiner's tenancy): sign-up, keys, settings and credits. Other modules import only from
 * here; the composition root mounts the module's routers from its route files.
 */

export { addCredits, listWorkspaceCredits } from './credits.js';
export type { CreditGrantor, CreditTopUp } from './credits.js';
