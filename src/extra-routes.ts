/**
 * Routers of the optional modules (backups, imports and exports, item analysis,
 * generation), mounted by createApp after the core ones.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from './platform/deps.js';
import { backupRoutes } from './modules/backups/routes.js';
import { importRoutes } from './modules/imports/routes.js';
import { analysisRoutes } from './modules/analysis/routes.js';
import { generationRoutes } from './modules/generation/routes.js';
import { hubLinkRoutes } from './modules/hub-link/routes.js';

/** The extra routers for these deps. */
export function extraRouters(deps: AppDeps): OpenAPIHono<AppEnv>[] {
  return [backupRoutes(deps), importRoutes(deps), analysisRoutes(deps), generationRoutes(deps), hubLinkRoutes(deps)];
}
